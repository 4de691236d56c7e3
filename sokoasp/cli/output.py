"""What the commands print: a result as text, tables, and the exit codes' legend."""

from __future__ import annotations

from collections.abc import Sequence

from sokoasp.board.level import Level
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import board_lines
from sokoasp.errors import ExitCode
from sokoasp.result import Result

EXIT_CODES_HELP = "\b\nExit codes:\n" + "\n".join(
    f"  {code.value}  {code.name.lower().replace('_', ' ')}" for code in ExitCode
)
LABEL = 12  # the width of a report line's label
WHO = {"staged": "the stages", "goal-room": "the room stages"}  # who reached a phase's farthest state


def render(source: str, level: Level, result: Result) -> str:
    """A result as the lines ``solve`` and ``race`` print."""
    config = result.config
    lines = [
        f"level:      {source}" + (f" ({level.title})" if level.title else ""),
        f"encoding:   {config.get('encoding')}   strategies: {', '.join(config.get('strategies', [])) or 'none'}",
        f"status:     {status_text(result)}",
    ]
    if result.plan is not None:
        lines.append(f"plan:       {result.plan or '(empty: the level is already solved)'}")
        lines.append(f"moves:      {result.moves}   pushes: {result.pushes}   horizon: {'-' if result.horizon is None else result.horizon}")
        if result.found_by:
            claim = "never called optimal" if result.optimal_for is None else f"optimal in {result.optimal_for}"
            lines.append(f"found by:   the phase {result.found_by} (`sokoasp phases`; {claim})")
    lines.append("times:      " + "   ".join(f"{k} {v:.3f} s" for k, v in result.times.items()))
    for report in result.phases:
        if report.phase != result.found_by:  # the status line holds the finding phase's note
            lines.append(labelled(report.phase, report.note))
        if report.farthest:
            lines += farthest_lines(level, report.farthest, WHO.get(report.phase, f"the {report.phase}"))
        if report.home:
            lines.append("backwards:  the backward stages' state nearest the start (the boxes pulled off the goals so far)")
            lines += indented_board(report.home.splitlines())
    stats = {key: value for key, value in result.stats.items() if key not in ("proof", "work", "optimized")}
    if "proof" in result.stats:
        lines.append(labelled("proof", str(result.stats["proof"])))
    if "work" in result.stats:
        lines.append(labelled("work", f"{result.stats['work']} units (states searched, clasp conflicts and calls, rules / 100)"))
    if "optimized" in result.stats:
        done = result.stats["optimized"]
        lines.append(labelled("optimized", f"{done['moves_before']} -> {result.moves} moves, {done['pushes_before']} -> "
                                           f"{result.pushes} pushes ({done['metric']}; {done['windows_improved']} windows "
                                           f"improved, {done['work']} units)" + bound_text(done)))
    if stats:
        lines.append("clingo:     " + "   ".join(f"{k} {v}" for k, v in stats.items()))
    return "\n".join(lines)


def bound_text(done: dict) -> str:
    """What the optimizer's whole-level search proved, when it ran."""
    if done.get("lower_bound") is None:
        return ""
    found = "; its pushes found by the Python A*" if done.get("found_by_search") else ""
    return f"; no plan has fewer than {done['lower_bound']} pushes{found}"


def status_text(result: Result) -> str:
    """The status and what it means, once: a message that opens with the status stands alone."""
    status = result.status.value + (f" in {result.optimal_for}" if result.optimal_for else "")
    if not result.message:
        return status
    return result.message if result.message.startswith(result.status.value) else f"{status}: {result.message}"


def labelled(label: str, text: str) -> str:
    """A report line: the label and a colon, padded to the labels' width."""
    return f"{label}:".ljust(LABEL - 1) + " " + text


def farthest_lines(level: Level, moves: str, who: str) -> list[str]:
    """The state the moves ``moves`` of the phase ``who`` lead to, replayed from the start and
    drawn: where a failed search got (``sokoasp show LEVEL --plan MOVES`` plays them)."""
    reached = replay(level, moves)
    if reached.steps_done != len(moves):
        return [f"farthest:   {who}' moves do not replay ({reached.problem})"]
    state = Level(level.floor, reached.boxes, level.goals, reached.player)
    head = (f"farthest:   {who} got {len(reached.boxes & level.goals)} of {len(level.goals)} boxes on goals "
            f"in {len(moves)} moves (replayed; `sokoasp show --plan MOVES` plays them)")
    return [head, *indented_board(board_lines(state)), f"            moves: {moves}"]


def indented_board(rows: list[str]) -> list[str]:
    """A board's rows under the report's labels (rows above the floor left out)."""
    return [" " * LABEL + row for row in rows if row]


def table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)
