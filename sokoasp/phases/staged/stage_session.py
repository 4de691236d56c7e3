"""The clingo sessions of staged solving (sokoasp/phases/staged/search.py): one grounding serves every stage,
the start state, the goal count, the goal order and the careful tries' preferences switched by
external atoms, and one control for each band of horizons (``sokoasp.asp.bands``)."""

from __future__ import annotations

import clingo

from sokoasp.asp.bands import Bands
from sokoasp.asp.encodings import Encoding, encodings_dir, get_encoding
from sokoasp.asp.level_facts import program_facts
from sokoasp.asp.reverse_facts import reverse_facts, turned_round
from sokoasp.asp.session import Session, horizons
from sokoasp.board.level import Cell, Level
from sokoasp.config import Clock, SolveConfig
from sokoasp.phases.staged.stage_ends import StageEnds, StageGoal
from sokoasp.sokoban.push_search import GoalOrder
from sokoasp.sokoban.pushes import StagePlan
from sokoasp.sokoban.traps import Traps

Pair = tuple[Cell, Cell]  # (g, h): goal g must not be filled while goal h is empty (subgoal-order.lp)


def stage_facts(level: Level, reverse: bool) -> str:
    """The level's facts (``reverse``: turned round, ``sokoasp.asp.reverse_facts``) without its boxes and
    player (stage-start.lp takes those from externals)."""
    facts = reverse_facts(level) if reverse else program_facts(level)
    return "".join(line + "\n" for line in facts.splitlines() if not line.startswith("init(at("))


class StageControl:
    """One clingo control of a stage session: the level's facts (stage_facts) and the stage
    programs, grounded step by step, with the start state, the goal count, the goal order and
    the careful tries' preferences as external atoms (stage-start.lp, subgoal.lp,
    subgoal-live.lp, subgoal-order.lp; subgoal-pull.lp backwards)."""

    def __init__(self, level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, facts: str) -> None:
        self.session = Session(level, encoding, config, clock, facts=facts, stepwise=True)
        self.session.control.configuration.solve.models = 0  # type: ignore[union-attr]  # StageEnds stops
        names = ["stage-start.lp", "subgoal.lp", "subgoal-live.lp", "subgoal-order.lp"]
        for name in names + (["subgoal-pull.lp"] if encoding.reverse else []):
            self.session.control.load(str(encodings_dir() / name))
        self.session.ground_base()
        self.start = StartExternals(self.session.control, level.floor)
        self.order = PairExternals(self.session.control)
        self.goal_count = len(level.goals)

    def switch(self, state: Level, goal: StageGoal, pairs: frozenset[Pair] = frozenset()) -> None:
        control = self.session.control
        self.start.switch(state.boxes, None if goal.player_anywhere else state.player)
        self.order.switch(pairs)
        for count in range(1, self.goal_count + 1):
            control.assign_external(clingo.Function("need", [clingo.Number(count)]), count == goal.need)
        control.assign_external(clingo.Function("keep_live"), goal.keep_live)
        control.assign_external(clingo.Function("keep_order"), goal.keep_order)


class StageSession:
    """The clingo sessions of every stage of a staged search, so that the steps grounded for one
    stage serve the later ones, and what clasp learnt stays valid: one control
    (``StageControl``) for each band of horizons (``sokoasp.asp.bands``), as every grounded step
    weighs on every solve call and most stage plans are short. A reverse family's session plans
    backwards (subgoal-pull.lp): its states are those of the level turned round."""

    def __init__(self, level: Level, config: SolveConfig, clock: Clock) -> None:
        self.level, self.config = level, config
        self.encoding = get_encoding(config.encoding)
        self.reverse = self.encoding.reverse
        self.max_horizon = config.max_horizon
        self.facts = stage_facts(level, self.reverse)
        self.bands = Bands(lambda clock: StageControl(level, self.encoding, config, clock, self.facts), clock)
        self.ran_out = False  # the last plan() gave up for time, not after its last horizon
        self.test_seconds = 0.0  # spent testing end states (StageEnds) in every plan() so far
        self.stopped_at = 1  # the horizon where the last plan() found its plan or ran out of time
        start = turned_round(level) if self.reverse else level
        self.traps = Traps(start, pulls=self.reverse, charge=clock.charge)  # kept across passes
        self.order = GoalOrder(start, pulls=self.reverse)

    @property
    def lean(self) -> StageControl:
        """The control of the shortest horizons, made with the session."""
        return self.bands.first

    def plan(self, state: Level, goal: StageGoal, clock: Clock, start: int = 1) -> tuple[StagePlan, Level] | None:
        """The first plan from ``state`` that reaches ``goal`` and the state it ends in, or None
        when no horizon of the schedule from ``start`` up to the maximum has one or the clock
        runs out (``ran_out``); ``stopped_at`` is the horizon asked last."""
        ends = StageEnds(state, goal, self.reverse, self.traps)
        pairs = frozenset(self.order.order(state))
        self.bands.new_question()
        self.ran_out = False
        try:
            for t in horizons(1, self.max_horizon, self.encoding.jumps):
                if t < start:
                    continue
                ends.horizon = self.stopped_at = t
                outcome = None if clock.expired() else self.ask(t, state, goal, pairs, ends, clock)
                if outcome is None:  # no answer in time (clingo's wait may return a hair before the clock expires)
                    self.ran_out = True
                    return None
                if outcome:
                    return ends.kept
            return None
        finally:
            self.test_seconds += ends.seconds

    def ask(self, horizon: int, state: Level, goal: StageGoal, pairs: frozenset[Pair], ends: StageEnds,
            clock: Clock) -> bool | None:
        """Ask ``horizon`` in the control of its band, switched to ``state``, ``goal`` and the
        goal order ``pairs``."""
        def switch(control: StageControl) -> None:
            control.switch(state, goal, pairs)
            control.session.extractor, control.session.clock = ends, clock

        return self.bands.control(horizon, clock, switch).session.ask(horizon)


class StartExternals:
    """stage-start.lp's externals in one control, switched to a stage's start state where they
    change: a stage moves a few boxes of hundreds of squares, and each assignment by symbol
    costs clingo a lookup, which adds up over hundreds of assignments a stage.
    Made after the base part is grounded, which holds the externals."""

    def __init__(self, control: clingo.Control, floor: frozenset[Cell]) -> None:
        self.control = control
        self.literals = {cell: (literal(control, "start_box", cell), literal(control, "start_player", cell)) for cell in floor}
        self.boxes: frozenset[Cell] | None = None  # the state switched on last (None: none yet)
        self.player: Cell | None = None

    def switch(self, boxes: frozenset[Cell], player: Cell | None) -> None:
        """Switch to ``boxes`` and ``player`` (None: the player anywhere)."""
        if self.boxes is None:
            cells: set[Cell] = set(self.literals)
        else:
            cells = set(boxes ^ self.boxes) | {cell for cell in (self.player, player) if cell is not None}
        for cell in cells:
            box, stand = self.literals[cell]
            self.control.assign_external(box, cell in boxes)
            self.control.assign_external(stand, cell == player)
        self.boxes, self.player = boxes, player


class PairExternals:
    """subgoal-order.lp's externals ``blocks(GX,GY,HX,HY)`` in one control, switched to a
    stage's goal order (``push_search.GoalOrder``) where it changes."""

    def __init__(self, control: clingo.Control) -> None:
        self.control = control
        self.literals: dict[Pair, int] = {}
        for atom in control.symbolic_atoms.by_signature("blocks", 4):
            gx, gy, hx, hy = (argument.number for argument in atom.symbol.arguments)
            self.literals[(gx, gy), (hx, hy)] = atom.literal
        self.on: frozenset[Pair] = frozenset()  # externals are false until switched on

    def switch(self, pairs: frozenset[Pair]) -> None:
        for pair in pairs ^ self.on:
            self.control.assign_external(self.literals[pair], pair in pairs)
        self.on = pairs


def literal(control: clingo.Control, name: str, cell: Cell) -> int:
    """The program literal of the grounded atom ``name(X,Y)`` for ``cell``."""
    atom = control.symbolic_atoms[clingo.Function(name, [clingo.Number(c) for c in cell])]
    if atom is None:
        raise RuntimeError(f"{name}{cell} was not grounded")
    return atom.literal


def plan_stage(state: Level, goal: StageGoal, config: SolveConfig, clock: Clock) -> str | None:
    """The LURD moves of one forward stage in a session of its own."""
    found = StageSession(state, config, clock).plan(state, goal, clock)
    return None if found is None else found[0].moves
