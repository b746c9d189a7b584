"""Reports rendered from a run log: a summary (JSON), Markdown, JUnit XML and a badge."""

from __future__ import annotations

import html
import io
import json
import re
from collections import Counter
from typing import Any, cast
from xml.etree import ElementTree as ET

from conformance.run.fields_differing import FieldsDiffering
from conformance.run.runlog import LATE_COPIES_KEPT, Log, ScenarioLine, TextSink, kind_of_run
from conformance.suite import declared_variants, difference_text
from conformance.text import untrusted
from conformance.vocabulary import FAILING, RAN, Outcome
from specreader.jsontypes import Json
from specreader.limits import DIFFERENCES_SHOWN

FORMATS = ("md", "junit", "json", "badge")

# Column order of the summary tables: what ran, then what did not.
_COLUMNS = (*RAN, Outcome.SKIPPED, Outcome.UNSUPPORTED)

# How JUnit XML says each outcome that is not a plain pass.
_JUNIT_FAILURE = (Outcome.FAIL, Outcome.XPASS)
_JUNIT_ERROR = (Outcome.ERROR, Outcome.TIMEOUT, Outcome.ENGINE_UNAVAILABLE)
_JUNIT_SKIPPED = (Outcome.SKIPPED, Outcome.UNSUPPORTED, Outcome.XFAIL)

# The outcomes of scenarios that were not a failure, named after the closing line's counts.
_NAMED_AFTER = (Outcome.XFAIL, Outcome.SKIPPED, Outcome.UNSUPPORTED)


def _counts(counted: Counter[str]) -> dict[str, int]:
    return {k.value: counted[k] for k in Outcome if counted[k]}


def _grouped(groups: dict[str, Counter[str]]) -> dict[str, dict[str, int]]:
    return {name: _counts(counted) for name, counted in sorted(groups.items())}


def _detail(line: ScenarioLine) -> str:
    """What went wrong in a scenario, as one line of safe text cut at ``untrusted.CAP`` (a log is a file anyone may
    have written: a value of megabytes in it makes no report of megabytes)."""
    return untrusted.text(_raw_detail(line))


def _raw_detail(line: ScenarioLine) -> str:
    if line.get("note"):
        return str(line["note"])
    if line.get("error"):
        return str(line["error"])
    m = line.get("mismatch")
    return _difference(m) if m else ""


def _difference(m: Any) -> str:
    return f"step {m['step']}: {difference_text.said(str(m['what']), m['expected'], m['observed'])}"


def beyond_detail(failure: Json) -> list[str]:
    """A summary failure's differences not already said by its detail (which is the first, unless a note or an
    error stands first)."""
    found: list[str] = failure["differences"]
    return found[1:] if found and found[0] == failure["detail"] else found


def differences(line: ScenarioLine) -> list[str]:
    """Every difference of a scenario, one line of safe text each: the first DIFFERENCES_SHOWN, then a count of the
    rest (the run log keeps them all)."""
    found = [m for m in line.get("mismatches") or [] if isinstance(m, dict)]
    shown = [untrusted.text(_difference(m)) for m in found[:DIFFERENCES_SHOWN]]
    if len(found) > DIFFERENCES_SHOWN:
        shown.append(f"and {len(found) - DIFFERENCES_SHOWN:,} more differences (the run log holds every one)")
    return shown


def late_copy_warning(rid: str) -> str:
    """What the kit says of an answer set aside as a late copy (``late_copies``): its scenario was judged already."""
    said = untrusted.text(rid, 200)
    return f"the engine answered {said!r} twice, the second time after the kit had judged it (docs/protocol.md)"


def late_copies_unnamed_sentence(count: int) -> str:
    """What the kit says of the scenarios answered twice beyond those a run log names."""
    return f"{count:,} more answered twice, not named: a run log names the first {LATE_COPIES_KEPT:,}"


def late_copy_warnings(log: Log) -> list[str]:
    """A warning for each scenario the log names as answered twice, and one for those it only counts."""
    unnamed = [late_copies_unnamed_sentence(log.late_copies_unnamed)] if log.late_copies_unnamed else []
    return [late_copy_warning(rid) for rid in log.late_copies] + unnamed


def summary(log: Log) -> Json:
    """The counts and failures of a run log, every string in them safe text (a log is a file anyone may
    have written: its names reach the terminal, Markdown and XML)."""
    made = _summary(log)  # its failures made safe one by one, as they are found: a long run's are held once
    return {key: value if key == FAILURES else untrusted.strings_made_safe(value) for key, value in made.items()}


FAILURES = "failures"  # the summary's list of every failing scenario


def _declared_in(log: Log) -> frozenset[str] | None:
    """The variants the engine's handshake declares, as its log's header keeps them; None for a header without the
    list (a log written by hand), which leaves out nothing."""
    engine = log.header.get("engine", {})
    return frozenset(declared_variants.declared(engine)) if isinstance(engine.get("variants"), list) else None


def of_undeclared_variant(line: ScenarioLine, declared: frozenset[str] | None) -> bool:
    """Whether a scenario is of a variant the engine does not declare: never sent, so in no table."""
    return declared is not None and line["variant"] not in declared and line["outcome"] == Outcome.UNSUPPORTED


def _summary(log: Log) -> Json:
    # One pass over the lines, which a long run keeps on disk (conformance/run/line_store.py).
    counts: Counter[str] = Counter()
    by: dict[str, dict[str, Counter[str]]] = {"game": {}, "clause group": {}, "variant": {}}
    failures: list[Json] = []
    causes = _Causes()
    fields = FieldsDiffering()
    declared = _declared_in(log)
    left_out: Counter[str] = Counter()  # scenarios by undeclared variant
    in_part: Json = {}  # the passes a note says were judged in part: how many, the first and its note
    for line in log.scenarios:
        outcome = line["outcome"]
        counts[outcome] += 1
        if outcome == Outcome.PASS and line.get("note"):
            in_part = in_part or {"first": line["id"], "note": _detail(line)}
            in_part["count"] = in_part.get("count", 0) + 1
        if of_undeclared_variant(line, declared):
            left_out[line["variant"]] += 1
            continue
        groups = {".".join(c.split(".")[:2]) for c in line["clauses"]}
        for kind, names in (("game", [line["game"]]), ("clause group", sorted(groups)), ("variant", [line["variant"]])):
            for name in names:
                by[kind].setdefault(name, Counter())[outcome] += 1
        if outcome in FAILING:
            failures.append(
                untrusted.strings_made_safe({
                    "id": line["id"],
                    "outcome": outcome,
                    "clauses": line["clauses"],
                    "where": f"{line['file']}:{line['line']}",
                    "detail": _detail(line),
                    "differences": differences(line),
                })
            )  # fmt: skip
            causes.add(line)
            fields.add(line)
    stopped_early = log.stopped_early
    return {
        # what a header holds is kept as the kit keeps a handshake: a log anyone may have written makes no report large
        "kit": {key: value for key, value in log.header.get("kit", {}).items() if key in ("name", "version")},
        "spec_version": log.header.get("spec_version", ""),
        "engine": untrusted.identity(log.header.get("engine", {})),
        "complete": log.complete,
        "grouped": kind_of_run(log) != "verify",  # deals or games, many of one cause: a report shows each cause once
        **({"stopped_early": stopped_early} if stopped_early else {}),
        **({"late_copies": log.late_copies} if log.late_copies else {}),
        **({"late_copies_unnamed": log.late_copies_unnamed} if log.late_copies_unnamed else {}),
        "counts": _counts(counts),
        **({"undeclared": {"scenarios": left_out.total(), "variants": sorted(left_out)}} if left_out else {}),
        **({"judged_in_part": in_part} if in_part else {}),
        "by_game": _grouped(by["game"]),
        "by_clause_group": _grouped(by["clause group"]),
        "by_variant": _grouped(by["variant"]),
        FAILURES: failures,
        "causes": causes.groups(),
        "by_field": fields.groups(),
    }


_SEAT_PART = re.compile(r"\.\d+\b")  # hands.1, piles.0: one cause at any seat or side


def _cause(line: ScenarioLine) -> str:
    """What a failure comes from: the first difference's field (a seat's or side's left out), else the error's kind."""
    m = line.get("mismatch")
    if isinstance(m, dict):
        return _SEAT_PART.sub("", str(m.get("what", "")))
    error = str(line.get("error") or "")
    kind, _, message = error.partition(": ")
    return f"{kind}: {message}" if kind == Outcome.UNSUPPORTED else kind or str(line["outcome"])


class _Causes:
    """The failing lines grouped by cause, in the order each cause first shows, with a count and the first line."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, ...], Json] = {}

    def add(self, line: ScenarioLine) -> None:
        key = (str(line["outcome"]), str(line["variant"]), _cause(line), *line["clauses"])
        if key in self._groups:
            self._groups[key]["count"] += 1
            return
        self._groups[key] = {
            "outcome": line["outcome"], "variant": line["variant"], "cause": _cause(line), "clauses": line["clauses"],
            "count": 1, "first": line["id"], "where": f"{line['file']}:{line['line']}" if line["file"] else "",
            "detail": _detail(line),
        }  # fmt: skip

    def groups(self) -> list[Json]:
        return list(self._groups.values())


def closing_line(counts: dict[str, int], undeclared: int = 0) -> str:
    """The line CI reads: ``N passed, N failed`` (naming the failures that are no plain fail: errors, timeouts, those
    the engine was too unwell to run, passes the expectation file says fail) plus what was not run, saying how many
    of the unsupported are of variants the engine does not declare."""
    failed = sum(counts.get(k, 0) for k in FAILING)
    named = [f"{counts[k]} {k}" for k in _FAILING_NAMED if counts.get(k)]
    unsupported = counts.get(Outcome.UNSUPPORTED, 0)
    which = "" if undeclared == unsupported else f"{undeclared} of "
    of_undeclared = f" ({which}variants the engine does not declare)" if undeclared else ""
    extra = [f"{counts[k]} {k}" + (of_undeclared if k == Outcome.UNSUPPORTED else "") for k in _NAMED_AFTER if counts.get(k)]
    return (
        f"{counts.get(Outcome.PASS, 0)} passed, {failed} failed"
        + (f" ({', '.join(named)})" if named else "")
        + (", " + ", ".join(extra) if extra else "")
    )


_FAILING_NAMED = (Outcome.ERROR, Outcome.TIMEOUT, Outcome.ENGINE_UNAVAILABLE, Outcome.XPASS)


def _columns(groups: dict[str, dict[str, int]]) -> list[str]:
    """The outcome columns a table needs: those some group has, in the usual order."""
    return [c.value for c in _COLUMNS if any(g.get(c) for g in groups.values())] or [Outcome.PASS.value]


def table(title: str, groups: dict[str, dict[str, int]]) -> str:
    """A plain-text table of outcome counts per group."""
    columns = _columns(groups)
    width = max([len(title), *(len(name) for name in groups)])
    widths = [max(7, len(c)) for c in columns]  # counts right under their outcome, however long its name
    lines = [f"{title:<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True))]
    for name, counts in groups.items():
        lines.append(f"{name:<{width}}  " + "  ".join(f"{counts.get(c, 0):>{w}}" for c, w in zip(columns, widths, strict=True)))
    return "\n".join(lines)


def render_text(data: Json) -> str:
    parts = [
        table("game", data["by_game"]),
        table("clause group", data["by_clause_group"]),
        table("variant", data["by_variant"]),
    ]
    if "undeclared" in data:
        parts[-1] += "\n" + left_out_sentence(data["undeclared"])
    if data.get("by_field"):
        parts.append(fields_table(data["by_field"]))
    return "\n\n".join(parts)


_FIELD_HEAD = ("field differing", "failed", "decided by")


def fields_table(by_field: list[Json]) -> str:
    """The fields the failures differ in, how many failed by each, and the clauses deciding each."""
    width = max(len(_FIELD_HEAD[0]), *(len(f["field"]) for f in by_field))
    rows = [(f["field"], str(f["failed"]), ", ".join(f["clauses"]) or "-") for f in by_field]
    return "\n".join(f"{a:<{width}}  {b:>7}  {c}" for a, b, c in [_FIELD_HEAD, *rows])


def left_out_sentence(left_out: Json) -> str:
    """What the tables leave out: the scenarios of variants the engine does not declare."""
    variants, scenarios = left_out["variants"], left_out["scenarios"]
    more = len(variants) - _VARIANTS_NAMED
    named = ", ".join(variants[:_VARIANTS_NAMED]) + (f" and {more} more" if more > 0 else "")
    counted = f"{scenarios} {'scenario' if scenarios == 1 else 'scenarios'} of {len(variants)} "
    counted += "variant" if len(variants) == 1 else "variants"
    return f"Not in these tables: {counted} the engine does not declare ({named}), each unsupported."


_VARIANTS_NAMED = 6  # the undeclared variants a sentence names; it counts the rest


def in_part_sentence(in_part: Json) -> str:
    """What the counts of passes hold that was not judged whole: how many, and the first with its note."""
    return (f"{in_part['count']:,} passed judged in part (the first at {in_part['first']}: {in_part['note']}); the run "
            "log's note on each says what was not judged and why")


# Markdown that engine text could use to become markup: HTML, emphasis, strikethrough, code, links, table cells.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
# What GitHub's Markdown turns into a link with no markup at all: a web address by its scheme or its www., an
# e-mail address by its @. A backslash before the ':', the '.' or the '@' keeps each one text.
_AUTOLINK = re.compile(r"(?i)\b(?:https?|ftp|mailto):|\bwww\.|@")


def markdown_text(text: str) -> str:
    """Engine text as literal Markdown: HTML escaped, inline markup characters backslashed, no address a link."""
    literal = _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))
    return _AUTOLINK.sub(lambda m: m[0][:-1] + "\\" + m[0][-1], literal).replace("\n", " ")


def markdown_code(text: str) -> str:
    """Text as a Markdown code span that no backtick in it can close, fit for a table cell."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}".replace("|", "\\|")


_EARLY = "the run stopped early"


def _declared_fields(engine: Json) -> list[str]:
    """The report's line on the fields the engine declares it reports, where it declares them: judged alone."""
    fields = engine.get("reports")
    if not isinstance(fields, list):
        return []
    named = ", ".join(markdown_code(str(f)) for f in fields)
    return [f"The engine declares the fields it reports, and was judged on those alone: {named}.", ""]


def render_md(data: Json) -> str:
    engine = data["engine"]
    who = markdown_text(f"{engine.get('name', '?')} {engine.get('version', '')}".rstrip())
    out = [
        f"# Conformance report: {who}",
        "",
        f"Kit {markdown_text(str(data['kit'].get('version', '?')))}, spec {markdown_code(str(data['spec_version']))}."
        + ("" if data["complete"] else f" **The counts are partial: {markdown_text(data.get('stopped_early', _EARLY))}.**"),
        "",
        *_declared_fields(engine),
        f"**{closing_line(data['counts'], data.get('undeclared', {}).get('scenarios', 0))}**",
        "",
    ]
    for title, key in (("Game", "by_game"), ("Clause group", "by_clause_group"), ("Variant", "by_variant")):
        groups = data[key]
        columns = _columns(groups)
        out.append(f"| {title} | " + " | ".join(columns) + " |")
        out.append("|---|" + "---:|" * len(columns))
        for name, counts in groups.items():
            out.append(f"| {markdown_code(name)} | " + " | ".join(str(counts.get(c, 0)) for c in columns) + " |")
        out.append("")
    if "undeclared" in data:
        out += [markdown_text(left_out_sentence(data["undeclared"])), ""]
    if "judged_in_part" in data:
        out += [markdown_text(in_part_sentence(data["judged_in_part"])), ""]
    if data.get("by_field"):
        out += ["## Fields that differ", "",
                "The failures counted by each field they differ in, with the clauses that decide it: a failure is "
                "counted above under the clauses its scenario is about, which may not be where the cause lies.", "",
                "| Field | Failed | Decided by |", "|---|---:|---|"]
        out += [f"| {markdown_code(f['field'])} | {f['failed']} | {markdown_text(', '.join(f['clauses']) or '-')} |"
                for f in data["by_field"]]
        out.append("")
    if data.get("late_copies"):
        out.append("## Answered twice")
        out.append("")
        out.append(
            "The engine sent the answer to each of these scenarios a second time, after the kit had judged it. "
            "The copies were set aside and blame no scenario (docs/protocol.md)."
        )
        out.append("")
        out.extend(f"- {markdown_code(rid)}" for rid in data["late_copies"])
        if data.get("late_copies_unnamed"):
            out.append(f"- {late_copies_unnamed_sentence(data['late_copies_unnamed'])}")
        out.append("")
    if data["failures"] and data.get("grouped"):
        out.append("## Divergences")
        out.append("")
        out.append("Each cause once, with how many failed by it and the first that did; the run log lists every one.")
        out.append("")
        for c in data["causes"]:
            said = f"{c['variant']} {c['cause']}; {c['count']:,} failed, the first {c['first']}" + (
                f" ({c['where']})" if c["where"] else "")
            clauses = markdown_text(", ".join(c["clauses"]) or "no clause named")
            out.append(f"- **{markdown_text(c['outcome'])}** {markdown_text(said)}; {clauses}: {markdown_text(c['detail'])}")
        out.append("")
    elif data["failures"]:
        out.append("## Failures")
        out.append("")
        for f in data["failures"]:
            detail = markdown_text(f["detail"])
            where = markdown_text(f"{f['where']}; {', '.join(f['clauses'])}")
            out.append(f"- **{markdown_text(f['outcome'])}** {markdown_code(f['id'])} ({where}): {detail}")
            out.extend(f"    - {markdown_text(d)}" for d in beyond_detail(f))
        out.append("")
    return "\n".join(out)


def render_junit(log: Log) -> str:
    out = io.StringIO()
    write_junit(log, out)
    return out.getvalue()


# Suites written in a pass over the lines each while they are few, as a run's games are; a log naming more, which
# only one made by hand does, has its lines grouped in memory instead, in one pass.
SUITES_PASSED_OVER = 16


def write_junit(log: Log, out: TextSink) -> None:
    """The log as JUnit XML, a test suite per game, written a case at a time: a long run's lines are read from
    disk (conformance/run/line_store.py), a pass to count the suites and one to write each, and no tree of the
    whole log is made. Laid out as ``ET.indent`` lays out the whole tree."""
    suites: dict[str, tuple[Counter[str], list[float]]] = {}  # each game's outcomes, and its cases' total time
    for line in log.scenarios:  # the name as the line is made safe below
        counts, seconds = suites.setdefault(untrusted.text(line["game"]), (Counter(), [0]))
        counts[untrusted.text(line["outcome"])] += 1
        seconds[0] += line["seconds"]  # in the lines' order, as sum() adds them
    late = set(untrusted.strings_made_safe(log.late_copies))  # as the ids of the lines below are made
    grouped: dict[str, list[ScenarioLine]] = {}
    if len(suites) > SUITES_PASSED_OVER:
        for line in log.scenarios:
            grouped.setdefault(untrusted.text(line["game"]), []).append(line)
    out.write('<?xml version="1.0" encoding="utf-8"?>\n')
    if not suites:
        out.write('<testsuites name="trickspec" />\n')
        return
    out.write('<testsuites name="trickspec">')
    for game, (counts, seconds) in sorted(suites.items()):
        suite = ET.Element(
            "testsuite",
            name=game,
            tests=str(counts.total()),
            failures=str(sum(counts[k] for k in _JUNIT_FAILURE)),
            errors=str(sum(counts[k] for k in _JUNIT_ERROR)),
            skipped=str(sum(counts[k] for k in _JUNIT_SKIPPED)),
            time=f"{seconds[0]:.6f}",
        )
        out.write("\n  " + ET.tostring(suite, encoding="unicode").removesuffix(" />") + ">")
        cases = grouped[game] if grouped else (line for line in log.scenarios if untrusted.text(line["game"]) == game)
        for line in cases:
            case = _junit_case(cast(ScenarioLine, untrusted.strings_made_safe(line)), late)
            ET.indent(case, level=2)
            out.write("\n    " + ET.tostring(case, encoding="unicode"))
        out.write("\n  </testsuite>")
    out.write("\n</testsuites>\n")


def _junit_case(line: ScenarioLine, late: set[str]) -> ET.Element:
    """A scenario's test case; every string of ``line`` safe text already: XML holds no control character, and a
    log is a file anyone may have written."""
    case = ET.Element(
        "testcase",
        classname=line["variant"],
        name=line["id"],
        file=line["file"],
        line=str(line["line"]),
        time=f"{line['seconds']:.6f}",
    )
    outcome = line["outcome"]
    if outcome in _JUNIT_FAILURE:
        every = "\n".join(differences(line)) or _detail(line)
        ET.SubElement(case, "failure", message=_detail(line)[:500], type=outcome).text = every
    elif outcome in _JUNIT_ERROR:
        ET.SubElement(case, "error", message=_detail(line)[:500], type=outcome).text = _detail(line)
    elif outcome in _JUNIT_SKIPPED:
        ET.SubElement(case, "skipped", message=f"{outcome}: {_detail(line)}".rstrip(": "))
    props = ET.SubElement(case, "properties")
    for clause in line["clauses"]:
        ET.SubElement(props, "property", name="clause", value=clause)
    if line["id"] in late:
        ET.SubElement(case, "system-err").text = late_copy_warning(line["id"])
    return case


def badge(data: Json) -> Json:
    """Passed over run: unsupported and skipped scenarios count in neither number, and are named."""
    counts = data["counts"]
    ran = sum(counts.get(k, 0) for k in RAN)
    failed = sum(counts.get(k, 0) for k in FAILING)
    message = f"{counts.get(Outcome.PASS, 0)}/{ran} passed"
    if counts.get(Outcome.ENGINE_UNAVAILABLE):
        message += f", {counts[Outcome.ENGINE_UNAVAILABLE]} {Outcome.ENGINE_UNAVAILABLE}"
    left_out = [f"{counts[k]} {k}" for k in (Outcome.UNSUPPORTED, Outcome.SKIPPED) if counts.get(k)]
    if left_out:
        message += " (" + ", ".join(left_out) + ")"
    if not data["complete"]:
        message += ", run incomplete"
    if not ran:
        color = "lightgrey"
    elif failed:
        color = "red"
    elif counts.get(Outcome.XFAIL):
        color = "yellow"
    else:
        color = "brightgreen"
    return {"schemaVersion": 1, "label": "trickspec", "message": message, "color": color}


def write(log: Log, fmt: str, out: TextSink, data: Json | None = None) -> None:
    """``render``, written to ``out``: JUnit XML a case at a time; the others from ``data``, the log's summary, where
    the caller has made it once for several."""
    if fmt == "junit":
        write_junit(log, out)
    else:
        out.write(render_summary(data if data is not None else summary(log), fmt))


def render(log: Log, fmt: str) -> str:
    return render_junit(log) if fmt == "junit" else render_summary(summary(log), fmt)


def render_summary(data: Json, fmt: str) -> str:
    """A report made from the log's summary: every format but JUnit."""
    if fmt == "md":
        return render_md(data)
    if fmt == "badge":
        return json.dumps(badge(data), indent=2) + "\n"
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"expected a format among {', '.join(FORMATS)}, found {fmt!r}")
