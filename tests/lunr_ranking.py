"""The site search's ranking, reproduced in Python from the built ``search/search_index.json``.

MkDocs Material's search worker (9.8) builds a lunr 2.3 index in the browser from that file; this module
repeats the parts of it that decide the order of results for a query of one word:

- the tokenizer: the markup of a field is skipped, its text split at the index's ``separator`` and lowercased;
  the pipeline keeps no trimmer and no stemmer, so ``Otea:`` stays a token of its own;
- the query: Material appends a wildcard to the word, so it matches every token it begins;
- lunr's score: for each matching token and field, ``idf * (k1 + 1) * tf / (k1 + tf)`` (``b`` is 0), times the
  field's boost and the document's ``boost``, rounded to three places, summed, over the query vector's length;
- Material's boost after the query: times 5 for a page's own entry, times 2 for a section of it (every query
  word matched);
- results grouped by page, pages in the order of their best entry.

Stop words are not modelled: a query word must not be one.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

K1 = 1.2
_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class Hit:
    location: str
    title: str
    score: float

    @property
    def page(self) -> str:
        return self.location.partition("#")[0]


class SearchIndex:
    def __init__(self, index: dict[str, Any]) -> None:
        config = index["config"]
        self.docs: list[dict[str, Any]] = index["docs"]
        self.separator = re.compile(config["separator"])
        self.field_boosts: dict[str, float] = {name: float(f.get("boost", 1)) for name, f in config["fields"].items()}
        self.terms: list[dict[str, Counter[str]]] = [
            {name: Counter(self.tokens(doc.get(name))) for name in self.field_boosts} for doc in self.docs
        ]

    @classmethod
    def read(cls, site: Path) -> SearchIndex:
        return cls(json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8")))

    def tokens(self, value: object) -> list[str]:
        if not isinstance(value, str):
            return []
        return [t.lower() for text in _TAG.split(value) for t in self.separator.split(text) if t]

    def search(self, word: str) -> list[Hit]:
        """Every entry matching ``word``, best first, as the search worker orders them before grouping."""
        prefix = word.lower()
        matching = {t for fields in self.terms for counts in fields.values() for t in counts if t.startswith(prefix)}
        # lunr counts a document once per field that holds the token
        held = {t: sum(t in counts for fields in self.terms for counts in fields.values()) for t in matching}
        n = len(self.docs)
        idf = {t: math.log(1 + abs((n - held[t] + 0.5) / (held[t] + 0.5))) for t in matching}
        norm = math.sqrt(len(matching)) or 1.0
        hits = []
        for doc, fields in zip(self.docs, self.terms, strict=True):
            doc_boost = float(doc.get("boost") or 1)
            score = 0.0
            found = False
            for name, counts in fields.items():
                for t in matching & counts.keys():
                    tf = counts[t]
                    score += round(idf[t] * (K1 + 1) * tf / (K1 + tf) * self.field_boosts[name] * doc_boost, 3)
                    found = True
            if found:
                own_entry = "#" not in doc["location"]
                hits.append(Hit(doc["location"], doc["title"], score / norm * (1 + (int(own_entry) + 1) ** 2)))
        return sorted(hits, key=lambda h: -h.score)

    def pages(self, word: str) -> list[str]:
        """The pages the search lists for ``word``, in the order shown."""
        out: list[str] = []
        for hit in self.search(word):
            if hit.page not in out:
                out.append(hit.page)
        return out
