"""Plan optimization by windows: a stretch of the plan between two of its states is re-solved
exactly by clingo in the metric's families and spliced in when shorter; windows slide along the
plan and grow until none improves or the work budget is spent.

When the metric counts pushes first, the whole level is searched first for fewer pushes
(``whole.py``, A* with the plan as the upper bound), which proves the plan push-optimal, finds
one that is, or proves a lower bound.

Sound: every plan returned replays (checked after each splice) and is never longer in the metric
than the plan given. A window's proof ("no shorter stretch between these two states") says
nothing about the whole plan, unless the window is the whole plan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from sokoasp.asp.encodings import encodings_dir, get_encoding
from sokoasp.asp.horizon_loops import run_incremental
from sokoasp.asp.level_facts import program_facts
from sokoasp.asp.session import Session
from sokoasp.board.level import Cell, Level
from sokoasp.board.simulator import apply_step, replay
from sokoasp.config import Clock, SolveConfig
from sokoasp.errors import InputError, Stopped
from sokoasp.optimizer.metric import Family, Metric, cost_in
from sokoasp.optimizer.whole import WHOLE_SHARE, fewest_push_plan
from sokoasp.result import Status
from sokoasp.sokoban.pushes import walk

FIRST_WIDTH = 2  # pushes in the first windows: small enough to prove in a few clasp conflicts
WINDOW_WORK = 50_000  # work units (about 10 s) one window's solve may spend: a long window is skipped, not waited for
State = tuple[frozenset[Cell], Cell]  # the boxes and the player


@dataclass(frozen=True)
class Optimized:
    """The outcome: the shortest plan found (replayed), the plan given, and what was tried."""

    plan: str
    given: str
    metric: str
    windows_tried: int
    windows_improved: int
    windows_proven: int  # windows shown to have no shorter stretch (each on its own)
    whole_proven: bool  # the whole plan is proven optimal in the metric's first unit
    work: int
    stopped: str  # why it ended: "no window improves", "work budget spent", "time limit", "interrupted"
    lower_bound: int | None  # no plan has fewer pushes (None: the whole level was not searched)
    found_by_search: bool  # the plan's pushes come from the Python A* (``whole.py``), not the plan given


@dataclass(frozen=True)
class Window:
    """The stretch ``plan[begin:end]``, from state ``start`` to state ``end_state``."""

    begin: int
    end: int
    start: State
    end_state: State
    last: bool  # ends the plan: where the player ends does not matter


@dataclass(frozen=True)
class Answer:
    stretch: str | None  # a replacement no longer than asked for, or None
    proven: bool  # the stretch (or the window's own, when None) is optimal in the family's unit


@dataclass
class Tally:
    """What the sweeps did: the best plan so far, windows asked, improved and proven; whether a
    window spanning the plan was proven in the metric's first unit."""

    plan: str
    tried: int = 0
    improved: int = 0
    proven: int = 0
    whole_proven: bool = False
    lower_bound: int | None = None
    found_by_search: bool = False

    def push_optimal(self) -> bool:
        return self.lower_bound is not None and cost_in("pushes", self.plan) <= self.lower_bound


def optimize_plan(level: Level, plan: str, metric: Metric, clock: Clock, window_work: int = WINDOW_WORK,
                  progress: Callable[[str], None] | None = None) -> Optimized:
    """Shorten ``plan`` (which must solve ``level``) in ``metric`` within ``clock``'s budget: the
    windows of each family of the metric in turn (its first unit first), each family given an
    equal share of the work left; with pushes first, the whole level's search before them."""
    given = replay(level, plan)
    if not given.ok:
        raise InputError(f"the plan does not solve the level: {given.problem}")
    straight = straightened(level, plan)
    tally = Tally(min(plan, straight, key=metric.cost) if replay(level, straight).ok else plan)
    try:
        if metric.units[0] == "pushes":
            search_whole(level, metric, clock, window_work, tally)
        for index, family in enumerate(metric.families):
            if family.unit == "pushes" and tally.push_optimal():
                continue  # no window can have fewer pushes
            sweep(level, metric, family, clock.share(len(metric.families) - index), window_work, tally, progress)
    except (KeyboardInterrupt, Stopped):  # the best plan so far is kept: the caller says it was stopped
        stopped = "interrupted"
    else:
        stopped = "no window improves" if not clock.expired() else \
            "work budget spent" if clock.work_left() == 0 else "time limit"
    proven = tally.whole_proven or (metric.units[0] == "pushes" and tally.push_optimal())
    return Optimized(tally.plan, plan, metric.name, tally.tried, tally.improved, tally.proven, proven,
                     clock.worked(), stopped, tally.lower_bound, tally.found_by_search)


def search_whole(level: Level, metric: Metric, clock: Clock, window_work: int, tally: Tally) -> None:
    """The whole level searched for fewer pushes than ``tally.plan`` with a share of the work
    (``WHOLE_SHARE``); a plan found is taken when it is better in ``metric``, or (``pareto``)
    after its moves are shortened by windows, if that makes it better."""
    whole = fewest_push_plan(level, tally.plan, clock.share(WHOLE_SHARE))
    tally.lower_bound = whole.lower_bound
    if whole.plan is None:
        return
    candidate = Tally(whole.plan)
    if metric.pareto and not metric.better(whole.plan, tally.plan):
        fewest_first = Metric(("pushes", "moves"))
        sweep(level, fewest_first, fewest_first.families[1], clock.share(2), window_work, candidate, None)
    if metric.better(candidate.plan, tally.plan):
        tally.plan, tally.found_by_search = candidate.plan, True
        tally.improved += 1


def sweep(level: Level, metric: Metric, family: Family, clock: Clock, window_work: int, tally: Tally,
          progress: Callable[[str], None] | None) -> None:
    """Shorten ``tally.plan`` by windows of ``family`` (``FIRST_WIDTH`` pushes wide, doubling after
    a sweep that improves nothing) until one spans the plan or ``clock`` expires. Each window is
    asked once, whatever is spliced around it."""
    plan = tally.plan
    answers: dict[tuple[State, State, bool, int], Answer] = {}
    width = FIRST_WIDTH
    while not clock.expired():
        changed = False
        for window in windows(level, plan, width):
            if clock.expired():
                break
            key = (window.start, window.end_state, window.last, window.end - window.begin)
            if key not in answers:
                answers[key] = solve_window(level, plan[window.begin:window.end], window, family, clock.within(window_work))
                tally.tried += 1
                tally.proven += answers[key].proven
                if window.begin == 0 and window.last and family == metric.families[0]:
                    tally.whole_proven = answers[key].proven  # the plan's cost, or the stretch's that replaces it
            stretch = answers[key].stretch
            candidate = plan if stretch is None else plan[:window.begin] + stretch + plan[window.end:]
            if metric.better(candidate, plan) and replay(level, candidate).ok:
                plan, changed = candidate, True
                tally.plan = plan
                tally.improved += 1
                if progress:
                    progress(f"{family.unit} window of {width} pushes at move {window.begin}: {metric.name} "
                             f"now {metric.cost(plan)}")
                break
        if not changed:
            if width >= cost_in("pushes", plan):
                break
            width *= 2


def straightened(level: Level, plan: str) -> str:
    """``plan`` with each walk between two pushes (and the walk before the first) replaced by a
    shortest walk between the same squares: the same pushes, never more moves. A walk after the
    last push is dropped."""
    player, boxes = level.player, set(level.boxes)
    pieces: list[str] = []
    start = player
    for letter in plan:
        if letter.isupper():
            pieces.append(walk(level, boxes, start, player) or "")
            pieces.append(letter)
            player, _ = apply_step(player, boxes, letter)
            start = player
        else:
            player, _ = apply_step(player, boxes, letter)
    return "".join(pieces)


def windows(level: Level, plan: str, width: int) -> list[Window]:
    """Windows of ``width`` pushes (and the walks around them), every half width along the plan:
    each begins just after a push (or at the start) and ends just after a push (or at the end)."""
    states: list[State] = [(level.boxes, level.player)]
    cuts = [0]
    player, boxes = level.player, set(level.boxes)
    for index, letter in enumerate(plan):
        player, pushed = apply_step(player, boxes, letter)
        states.append((frozenset(boxes), player))
        if pushed:
            cuts.append(index + 1)
    if cuts[-1] != len(plan):
        cuts.append(len(plan))
    found = []
    for first in range(0, max(1, len(cuts) - 1), max(1, width // 2)):
        last = min(first + width, len(cuts) - 1)
        begin, end = cuts[first], cuts[last]
        if end > begin:
            found.append(Window(begin, end, states[begin], states[end], end == len(plan)))
        if last == len(cuts) - 1:
            break
    return found


def solve_window(level: Level, stretch: str, window: Window, family: Family, clock: Clock) -> Answer:
    """A stretch from the window's start to its end state shorter than ``stretch`` in the family's
    unit (found by clingo, the player ending where the window does: ``window-end.lp``; optimal
    there), or None, proven when no shorter one exists."""
    (boxes, player), (end_boxes, end_player) = window.start, window.end_state
    if boxes == end_boxes:  # only walking: the shortest walk, or staying put at the plan's end
        shortest = "" if window.last else walk(level, set(boxes), player, end_player)
        return Answer(shortest if shortest is not None and len(shortest) < len(stretch) else None, True)
    bound = cost_in(family.unit, stretch) - 1
    part = Level(level.floor, boxes, end_boxes, player)
    config = SolveConfig(encoding=family.encoding, strategies=family.strategies, max_horizon=max(bound, 0))
    end = "" if window.last else f"player_end({end_player[0]},{end_player[1]}).\nwindow_unit({family.unit}).\n"
    session = Session(part, get_encoding(family.encoding), config, clock, facts=program_facts(part) + end + window_end())
    result = run_incremental(session, config, lambda line: None)
    if result.status is Status.NO_PLAN_UP_TO_HORIZON:
        return Answer(None, True)
    if result.plan is None:
        return Answer(None, False)
    played = replay(part, result.plan)
    if not played.ok:
        return Answer(None, False)
    home = "" if window.last else walk(level, set(end_boxes), played.player, end_player)
    if home is None:
        return Answer(None, False)
    return Answer(result.plan + home, result.status is Status.SOLVED_OPTIMAL)


@cache
def window_end() -> str:
    """The text of ``window-end.lp``, read once, when the first window is solved."""
    return (encodings_dir() / "window-end.lp").read_text()
