"""Shorter plans for a plan record: each chosen level's plan through the optimizer, kept only when
the new plan replays and is better in the record's order (fewer pushes, then fewer moves)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes
from sokoasp.optimizer import optimize
from sokoasp.tools.records import Entry, checked_entry

RECORD_METRIC = "pushes,moves"  # the record's own order
MARK = " [optimized pushes,moves]"  # added once to the configuration of a plan the optimizer shortened


def optimized_entries(entries: dict[int, Entry], levels: list[Level], numbers: list[int], work: int,
                      say: Callable[[str], None]) -> Iterator[Entry]:
    """For each level of ``numbers`` with an entry, the entry with a shorter plan when the optimizer
    finds one in ``work`` units (replayed by ``checked_entry``, its lower bound kept, raised to its
    pushes when the whole plan is proven push-optimal), yielded as found so a caller can keep it at once."""
    for number in numbers:
        entry = entries.get(number)
        if entry is None:
            continue
        began = time.perf_counter()
        outcome = optimize(levels[number - 1], entry.plan, RECORD_METRIC, work=work)
        bound = entry.lower_bound
        if outcome.whole_proven:
            bound = max(bound or 0, count_pushes(outcome.plan))
        found = checked_entry(levels, number, outcome.plan, entry.configuration.removesuffix(MARK) + MARK,
                              round(entry.seconds + time.perf_counter() - began, 2), False, bound)
        if found.better_than(entry) or (found.proven and not entry.proven):
            say(f"level {number}: {entry.pushes} -> {found.pushes} pushes, {entry.moves} -> {found.moves} moves"
                + (" (proven push-optimal)" if found.proven else ""))
            yield found
        else:
            say(f"level {number}: {entry.pushes} pushes, {entry.moves} moves: no shorter plan found "
                f"({outcome.windows_tried} windows, {outcome.stopped})")
