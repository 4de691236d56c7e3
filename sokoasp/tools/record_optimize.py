"""Shorter plans for a plan record: each chosen level's plan through the optimizer, kept only when
the new plan replays and is no longer in pushes nor in moves and shorter in one (``pareto``: a
record's plan is cited for both); a lower bound or proof the optimizer finds is kept either way."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes
from sokoasp.optimizer import optimize
from sokoasp.tools.records import Entry, checked_entry

RECORD_METRIC = "pareto"  # a plan replaced is no longer in either unit
MARK = f" [optimized {RECORD_METRIC}]"  # the configuration of a plan the optimizer shortened ends with it


def optimized_entries(entries: dict[int, Entry], levels: list[Level], numbers: list[int], work: int,
                      say: Callable[[str], None]) -> Iterator[Entry]:
    """For each level of ``numbers`` with an entry, the entry with a shorter plan or a higher lower
    bound when the optimizer finds one in ``work`` units (replayed by ``checked_entry``; a plan
    whose pushes equal the bound is proven), yielded as found so a caller can keep it at once."""
    for number in numbers:
        entry = entries.get(number)
        if entry is None:
            continue
        began = time.perf_counter()
        outcome = optimize(levels[number - 1], entry.plan, RECORD_METRIC, work=work)
        bound = max([known for known in (entry.lower_bound, outcome.lower_bound) if known is not None], default=None)
        if outcome.whole_proven:
            bound = max(bound or 0, count_pushes(outcome.plan))
        shorter = outcome.plan != entry.plan
        configuration = entry.configuration.split(" [optimized ")[0] + MARK if shorter else entry.configuration
        found = checked_entry(levels, number, outcome.plan, configuration,
                              round(entry.seconds + time.perf_counter() - began, 2) if shorter else entry.seconds,
                              False, bound)
        if shorter or found.proven != entry.proven or found.lower_bound != entry.lower_bound:
            say(f"level {number}: {entry.pushes} -> {found.pushes} pushes, {entry.moves} -> {found.moves} moves"
                + (" (proven push-optimal)" if found.proven else
                   f" (none has fewer than {found.lower_bound})" if found.lower_bound is not None else ""))
            yield found
        else:
            say(f"level {number}: {entry.pushes} pushes, {entry.moves} moves: no shorter plan found "
                f"({outcome.windows_tried} windows, {outcome.stopped})")
