"""What a fuzz campaign says on the terminal: each distinct divergence once, a table by variant,
and the closing line, all from the campaign's log and groups."""

from __future__ import annotations

from conformance.fuzz.campaign import Campaign, Group
from conformance.fuzz.worker import DealResult
from conformance.run import reports, runlog
from conformance.run.kit_faults import NOT_THE_ENGINE
from conformance.run.worker_ends import WorkerKilled

SHOWN = 10  # divergences that did not happen again, listed one by one before the rest are counted


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _scenario(group: Group) -> str:
    found = group.found
    if found is None:
        return "not shrunk"
    if found.written is None:
        return f"no scenario written: {found.problem}"
    start = ", from a mid-deal position" if found.mid_deal else ""
    where = str(group.path) if group.path is not None else f"{found.written.file_name} (add --out DIR to write it)"
    return f"{where} ({_plural(found.written.actions, 'action')}{start})"


def _first(result: DealResult) -> str:
    return f"first at {result.id}"


def divergence_lines(group: Group) -> list[str]:
    first = group.first
    variant, field, clauses = group.key
    return [
        f"{first.outcome.upper()} {variant} {field} ({_first(first)}; {_plural(group.deals, 'deal')})",
        f"  clauses: {', '.join(clauses) or '(none named)'}",
        f"  {first.detail}",
        f"  scenario: {_scenario(group)}",
    ]


def render(campaign: Campaign, *, seed: int, shard: tuple[int, int], jobs: int) -> str:
    lines: list[str] = []
    for group in campaign.groups.values():
        lines += divergence_lines(group)
    for result in campaign.unnamed[:SHOWN]:
        lines.append(f"{result.outcome.upper()} {result.variant} {result.field} ({result.id}, not seen again): {result.detail}")
    if len(campaign.unnamed) > SHOWN:
        lines.append(f"... and {len(campaign.unnamed) - SHOWN:,} more deals like these (the run log lists them)")
    apart = sorted(campaign.unsupported.values(), key=lambda group: -group.deals)
    for group in apart[:SHOWN]:
        variant, reason, _ = group.key
        lines.append(f"UNSUPPORTED {variant} {reason} ({_first(group.first)}; {_plural(group.deals, 'deal')})")
    if len(apart) > SHOWN or campaign.unsupported_unkept:
        rest = sum(group.deals for group in apart[SHOWN:]) + campaign.unsupported_unkept
        others = "other reasons" if campaign.unsupported_unkept else _plural(len(apart) - SHOWN, "other reason")
        lines.append(f"... and {_plural(rest, 'deal')} more unsupported for {others} (the run log lists them)")
    lines += campaign.faults.summary("deal")
    if lines:
        lines.append("")
    data = reports.summary(campaign.log)
    lines.append(reports.table("variant", data["by_variant"]))
    lines.append("")
    hello = campaign.hello
    rate = campaign.deals / campaign.seconds if campaign.seconds else 0.0
    k, n = shard
    lines.append(
        f"engine: {runlog.safe_name(hello)} · spec {campaign.log.header['spec_version']} · seed {seed}"
        + (f" · shard {k}/{n}" if n > 1 else "")
        + f" · {_plural(jobs, 'job')} · {_plural(campaign.deals, 'deal')} in {campaign.seconds:.2f}s ({rate:,.0f} deals/s)"
    )
    if campaign.interrupted:
        lines.append(f"interrupted after {_plural(campaign.deals, 'deal')}")
    if campaign.worker_failed:
        stopped = f"stopped after {_plural(campaign.deals, 'deal')}: {campaign.worker_failed}"
        if not isinstance(campaign.worker_failed, WorkerKilled):  # a crash of its own, an exit, a raise outside any deal
            stopped += f", {NOT_THE_ENGINE}: please report it with this command"
        lines.append(stopped)
    lines.append(
        _plural(len(campaign.groups), "distinct divergence")
        + (f", {len(campaign.unnamed)} not seen again" if campaign.unnamed else "")
    )
    lines.append(reports.closing_line(data["counts"]))
    return "\n".join(lines)
