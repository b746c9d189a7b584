"""What ``trickspec check-trace`` says on the terminal: each distinct divergence once, the fields
the trace reported, a table by variant and the closing line, all from the run's log and groups."""

from __future__ import annotations

from conformance.run import kit_faults, reports
from conformance.run.kit_faults import NOT_THE_ENGINE
from conformance.run.worker_ends import WorkerKilled
from conformance.suite.observing import LEGAL
from conformance.text import untrusted
from conformance.traces.checking import Checked, Group, game_id

FIELDS_SHOWN = 30  # fields named in the line of what the trace reported; the rest are counted


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _scenario(group: Group) -> str:
    if group.written is None:
        return f"no scenario written: {group.problem or 'this divergence was written by another worker'}"
    where = str(group.path) if group.path is not None else f"{group.written.file_name} (add --out DIR to write it)"
    return f"{where} ({_plural(group.written.actions, 'action')})"


def divergence_lines(group: Group) -> list[str]:
    first = group.first
    variant, field, clauses = group.key
    return [
        f"{first.outcome.upper()} {variant} {field} (first at {game_id(first)}; {_plural(group.games, 'game')})",
        f"  clauses: {', '.join(clauses) or '(none named)'}",
        f"  {first.detail}",
        *([f"  {first.unjudged}"] if first.unjudged else []),
        f"  scenario: {_scenario(group)}",
    ]


def where_raised(checked: Checked) -> str:
    """Where the kit raised, once for the run: in the first game it failed to judge, or in a worker outside any game;
    what a report of the fault needs with the trace's line (the summary names the games). "" where it did not."""
    return kit_faults.where_raised(checked.faults, checked.worker_failed)


def _some(names: list[str]) -> str:
    extra = len(names) - FIELDS_SHOWN
    return ", ".join(untrusted.text(n, 100) for n in names[:FIELDS_SHOWN]) + (f" and {extra} more" if extra > 0 else "")


def render(checked: Checked, *, shard: tuple[int, int], jobs: int) -> str:
    lines: list[str] = [str(problem) for problem in checked.problems]
    if checked.problems.more:
        least = "" if checked.problems.counted else "at least "
        lines.append(f"and {least}{_plural(checked.problems.more, 'problem')} more, not listed")
    for group in checked.groups.values():
        lines += divergence_lines(group)
    lines += checked.faults.summary("game")
    if lines:
        lines.append("")
    given = checked.given
    fields = sorted(set(given.reported) - {LEGAL})
    if not checked.games:
        lines.append("no game was judged" + (": each line read has a problem, above" if checked.problems else ""))
    else:
        said = "; ".join(part for part in (_some(fields), "the legal actions" if LEGAL in given.reported else "") if part)
        lines.append(f"fields the trace reported: {said or 'none (only whether each action was accepted is compared)'}")
    never = sorted(checked.declared - given.declared)
    if never and checked.games:  # declared, and so judged wherever given: given nowhere, it was judged nowhere
        lines.append(f"note: the header declares fields no game gives: {_some(never)}")
    if given.unjudged:  # given, and judged nowhere: the header leaves them out
        unjudged = ["the legal actions" if f == LEGAL else f for f in sorted(given.unjudged)]
        lines.append(f"note: the games give fields the header does not declare, judged nowhere: {_some(unjudged)}")
    if checked.unfinished:
        one = checked.unfinished == 1
        games = f"{_plural(checked.unfinished, 'game')} {'stops' if one else 'stop'}"
        lines.append(f"note: {games} before the deal is over (the first at {checked.first_unfinished}), judged as far as"
                     f" {'it goes' if one else 'they go'}: a trace cut short, or an engine that stopped")
    data = reports.summary(checked.log)
    if "judged_in_part" in data:
        lines.append(f"note: {reports.in_part_sentence(data['judged_in_part'])}")
    lines.append(reports.table("variant", data["by_variant"]))
    lines.append("")
    rate = checked.games / checked.seconds if checked.seconds else 0.0
    k, n = shard
    lines.append(
        f"engine: {checked.engine.get('name')} {checked.engine.get('version', '')}".rstrip()
        + f" · spec {checked.log.header['spec_version']}"
        + (f" · shard {k}/{n}" if n > 1 else "")
        + f" · {_plural(jobs, 'job')} · {_plural(checked.games, 'game')} in {checked.seconds:.2f}s ({rate:,.0f} games/s)"
    )
    if len(checked.engines) > 1:  # the log has one engine: the first file's
        named = ", ".join(checked.engines[:FIELDS_SHOWN]) + (" and more" if len(checked.engines) > FIELDS_SHOWN else "")
        lines.append(f"note: the traces' headers name {len(checked.engines)} engines ({named}); the run log names the first")
    if checked.interrupted:
        lines.append(f"interrupted after {_plural(checked.games, 'game')}")
    if checked.worker_failed:
        stopped = f"stopped after {_plural(checked.games, 'game')}: {checked.worker_failed}"
        if not isinstance(checked.worker_failed, WorkerKilled):  # a crash of its own, or a raise outside any game
            judging = f" judging the lines {checked.unanswered}" if checked.unanswered else ""
            stopped += f"{judging}, {NOT_THE_ENGINE}: please report it with {'those lines' if judging else 'the trace'}"
        lines.append(stopped)
    lines.append(_plural(len(checked.groups), "distinct divergence"))
    lines.append(reports.closing_line(data["counts"]))
    return "\n".join(lines)
