"""The variants an engine declares in its handshake, against the kit's: an id the kit does not have is said,
with the nearest it does have; a run that could send the engine nothing is refused, never counted as a pass.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable

from specreader.jsontypes import Json
from specreader.spec import kit_spec

_NAMED = 5  # the unknown ids a sentence names; it counts the rest


def declared(hello: Json) -> list[str]:
    """The variant ids of a handshake (as ``untrusted.identity`` keeps them), in its order."""
    variants = hello.get("variants")
    return [v for v in variants if isinstance(v, str)] if isinstance(variants, list) else []


def unknown_named(hello: Json) -> str | None:
    """The declared ids that name no variant of the kit, each with the kit's nearest id (``'altbaumer' (did you
    mean 'altbaumer-standard'?)``); None where there are none."""
    kit = list(kit_spec().variants_raw())
    unknown = [v for v in declared(hello) if v not in kit]
    if not unknown:
        return None
    more = f" and {len(unknown) - _NAMED} more" if len(unknown) > _NAMED else ""
    return ", ".join(with_nearest(v, kit) for v in unknown[:_NAMED]) + more


def with_nearest(variant: str, kit: list[str]) -> str:
    """An id the kit does not have, quoted, with the kit's nearest where one is near."""
    close = difflib.get_close_matches(variant, kit, n=1, cutoff=0.5) or [v for v in kit if v.startswith(variant)][:1]
    return f"{variant!r}" + (f" (did you mean {close[0]!r}?)" if close else "")


def nothing_to_send(hello: Json, chosen: Iterable[str]) -> str | None:
    """Why a run of scenarios or deals of the ``chosen`` variants would send the engine none of them; None where it
    would send some."""
    wanted: Collection[str] = set(chosen)
    ids = declared(hello)
    if any(v in wanted for v in ids):
        return None
    if not ids:
        return "its handshake declares no variant"
    if not any(v in kit_spec().variants_raw() for v in ids):
        return f"it declares no variant of the kit, only {unknown_named(hello)}"
    shown = ", ".join(sorted(wanted)[:_NAMED]) + (" and more" if len(wanted) > _NAMED else "")
    unknown = unknown_named(hello)
    return f"it declares none of the variants chosen ({shown})" + (f"; it declares {unknown}" if unknown else "")
