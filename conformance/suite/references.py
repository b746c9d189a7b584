"""The names the spec declares, by kind, for checking references to them.

A kind is incomplete when one of its files did not load, or the schema found a problem in one of its
declarations: a name not found may be declared there, so the reference is not reported as
unknown. The broken file is reported instead, once, rather than every reference into it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace

from specreader.jsontypes import JsonPath
from specreader.problems import Problem
from specreader.spec import Spec

# For each kind: the top-level list its files declare in, and the key of each entry's name.
_DECLARED = {
    "sources": ("sources", "key"),
    "refusals": ("refusals", "code"),
    "clauses": ("clauses", "id"),
    "rulings": ("rulings", "id"),
}


@dataclass(frozen=True)
class Names:
    known: Collection[str]
    complete: bool = True

    def unknown(self, name: str) -> bool:
        """Whether a reference to ``name`` is to be reported as unknown."""
        return self.complete and name not in self.known


@dataclass(frozen=True)
class References:
    clauses: Names
    sources: Names
    codes: Names
    rulings: Names
    variants: Names
    # Variants with problems of their own, and variants not checked because one they extend has some.
    faulty: frozenset[str] = field(default_factory=frozenset)
    blocked: frozenset[str] = field(default_factory=frozenset)

    def checkable(self, variant_id: str) -> bool:
        """Whether data using this variant can be checked against it."""
        return variant_id in self.variants.known and variant_id not in self.faulty and variant_id not in self.blocked

    def with_variants(self, faulty: Iterable[str], blocked: Iterable[str]) -> References:
        return replace(self, faulty=frozenset(faulty), blocked=frozenset(blocked))

    @classmethod
    def of(cls, spec: Spec, schema_problems: Iterable[Problem] = ()) -> References:
        """The names of a spec; ``schema_problems`` are those of its files, which may make a kind incomplete."""
        incomplete = set(spec.unloaded)
        kinds = _kinds_by_file(spec)
        for problem in schema_problems:
            kind = kinds.get(problem.file)
            if kind is not None and _touches_declarations(kind, problem.path):
                incomplete.add(kind)

        def names(kind: str, known: Collection[str]) -> Names:
            return Names(known, kind not in incomplete)

        return cls(
            clauses=names("clauses", spec.clause_index()),
            sources=names("sources", spec.source_keys()),
            codes=names("refusals", spec.refusal_codes()),
            rulings=names("rulings", spec.ruling_ids()),
            variants=names("variants", spec.variants_raw()),
        )


def _kinds_by_file(spec: Spec) -> dict[str, str]:
    kinds = {doc.file: "clauses" for doc in spec.clause_files}
    kinds.update({doc.file: "rulings" for doc in spec.ruling_files})
    kinds.update({doc.file: "variants" for doc in spec.variant_files})
    for kind, doc in (("sources", spec.sources_file), ("refusals", spec.refusals_file)):
        if doc is not None:
            kinds[doc.file] = kind
    kinds.update({doc.file: "sources" for doc in spec.house_sources})
    return kinds


def _touches_declarations(kind: str, path: JsonPath) -> bool:
    """Whether a schema problem at ``path`` may hide a name the file declares."""
    if kind == "variants":
        return path in ((), ("id",))
    listed, name = _DECLARED[kind]
    if not path:
        return True
    return path[0] == listed and (len(path) <= 2 or (len(path) == 3 and path[2] == name))
