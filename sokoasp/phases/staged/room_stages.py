"""Room stages: a goal room with up to three entrances (``sokoasp.sokoban.rooms.entrances``) filled
box by box, for rooms that ``sokoasp.sokoban.rooms.packing`` cannot replace by a corridor.

Each stage is a short clingo search (``encodings/room-stage.lp``) that pushes some box in onto
the square just inside an entrance; the entry's fixed pushes then take it on to its goal. The
entries a stage may make are those after which some order of entries still fills the rest
(``next_entries``). Stages search depth first in passes with a growing stage budget, as
``sokoasp.phases.staged.search`` does. End states with a corral, group or freeze deadlock, a box shut out
of the room (``shut_out``) or boxes outside proven unable to all come in (``trapped``) are turned
away by nogoods that name only the boxes to blame (``blame``); a pass that does not fill the
room has the states on its way proven or refuted (``review``). Each horizon is asked in the
control of its band (``sokoasp.asp.bands``), the state and the entries as external atoms.

MAY LOSE SOLUTIONS, NEVER OPTIMAL: a level that needs the room for boxes outside the entries,
another order, or a box parked in the room cannot be solved this way. Every plan is replayed by
the pipeline like every other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import clingo

from sokoasp.asp.bands import Bands
from sokoasp.asp.encodings import Encoding, encodings_dir, get_encoding
from sokoasp.asp.level_facts import program_facts
from sokoasp.asp.models import PlanExtractor, push_sequence
from sokoasp.asp.session import Session, horizons
from sokoasp.board.level import Cell, Level
from sokoasp.config import Clock, SolveConfig
from sokoasp.phases.staged.schedule import ROOM_STAGES
from sokoasp.phases.staged.stage_ends import atom
from sokoasp.phases.staged.stage_session import StartExternals
from sokoasp.sokoban.pushes import Push, expand_pushes
from sokoasp.sokoban.rooms.entrances import EntranceRoom, find_entrance_room, next_entries
from sokoasp.sokoban.rooms.filling import Doom, doom, end_boxes, outside_state, play_pushes, shut_out
from sokoasp.sokoban.rooms.packing import Entry
from sokoasp.sokoban.traps import Traps

STAGE_STRATEGIES = ("dead", "freeze")  # they hold with the squares inside the entrances as the goals
PUSH_SEQUENCE_FAMILIES = ("push", "push-jump", "push-parallel", "push-macro", "push-macro-parallel")


def room_family(config: SolveConfig, families: tuple[str, ...]) -> str:
    """The family the stages run in: the first of the stage ``families`` (and then the
    configuration's own) whose models are push sequences, else push-macro."""
    for family in (*families, config.encoding):
        if family in PUSH_SEQUENCE_FAMILIES:
            return family
    return "push-macro"


def stage_facts(level: Level, room: EntranceRoom) -> str:
    """The level's facts without its boxes and player (stage-start.lp sets them) and with the
    squares inside the room's entrances as goals too, and the room's squares (room-stage.lp)."""
    goals = level.goals | room.insides
    free = sorted(level.floor - goals - level.boxes - {level.player})
    stand_in = free[: len(goals) - len(level.boxes)]  # a Level has as many boxes as goals; these lines are dropped
    outline = Level(level.floor, level.boxes | set(stand_in), goals, level.player, level.title)
    lines = [line for line in program_facts(outline).splitlines() if not line.startswith("init(at(")]
    lines += [f"room({x},{y})." for x, y in sorted(room.room)]
    lines += [f"room_inside({x},{y})." for x, y in sorted(room.insides)]
    return "".join(line + "\n" for line in lines)


class RoomControl:
    """One clingo control of the room stages: the level's facts (``stage_facts``) and
    stage-start.lp and room-stage.lp, grounded step by step, with the start state and the inside
    squares a stage may push a box in onto as external atoms."""

    def __init__(self, level: Level, room: EntranceRoom, encoding: Encoding, config: SolveConfig, clock: Clock,
                 facts: str) -> None:
        self.insides = sorted(room.insides)
        self.session = Session(level, encoding, config, clock, facts=facts, stepwise=True)
        for name in ("stage-start.lp", "room-stage.lp"):
            self.session.control.load(str(encodings_dir() / name))
        self.session.control.configuration.solve.models = 0  # type: ignore[union-attr]  # EntryEnds stops
        self.session.ground_base()
        self.start = StartExternals(self.session.control, level.floor)

    def switch(self, boxes: frozenset[Cell], player: Cell, targets: frozenset[Cell]) -> None:
        self.start.switch(boxes, player)
        for inside in self.insides:
            self.session.control.assign_external(clingo.Function("room_target", [clingo.Number(c) for c in inside]), inside in targets)


class RoomStages:
    """The stage search for one level and its room: the clingo controls of the bands of horizons
    (``RoomControl``) serve every stage (the state and the entry are external atoms). Searched
    in passes, as the staged search is: each pass starts from the level's start with twice the
    stage budget of the one before and ends after ``pass_stages`` stage budgets (``ROOM_STAGES``),
    and makes random decisions of its own (``Bands.randomize``, seeded by the pass)."""

    def __init__(self, level: Level, room: EntranceRoom, config: SolveConfig, clock: Clock, family: str) -> None:
        self.level, self.room, self.clock = level, room, clock
        self.encoding = get_encoding(family)
        stage_config = SolveConfig(encoding=self.encoding.name, strategies=STAGE_STRATEGIES, max_horizon=config.max_horizon)
        facts = stage_facts(level, room)
        self.bands = Bands(lambda clock: RoomControl(level, room, self.encoding, stage_config, clock, facts), clock)
        self.max_horizon = config.max_horizon
        self.schedule = ROOM_STAGES
        self.stage_work = self.schedule.first_stage_work
        self.pass_end = 0  # the meter's reading at which this pass ends
        self.most_in = 0  # the most boxes any pass brought into the room
        self.trail: list[list[Push]] = []  # the pushes from the start to the state searched now
        self.path: list[tuple[frozenset[Cell], Cell]] = []  # the states after those entries (boxes, player)
        self.pass_path: list[tuple[frozenset[Cell], Cell]] = []  # the states on this pass's way to its most boxes in
        self.reviewed = 0  # states of trap proofs spent in reviews, outside the stages' share
        self.farthest: list[list[Push]] = []  # the pushes of each entry from the start to a state with ``most_in`` boxes in
        self.traps: dict[frozenset[Cell], Traps] = {}  # by the boxes in the room: the states outside proven dead
        self.began = clock.worked()  # the trap proofs' share of the work is counted from here

    def run(self) -> list[Push] | None:
        """Passes until one finds the pushes that fill the room, the clock runs out, or a pass
        does no work."""
        passes = 0
        while not self.clock.expired():
            passes += 1
            if passes > 1:
                self.bands.randomize(passes)
            began = self.clock.worked()
            self.pass_end = began + self.schedule.pass_stages * self.stage_work
            self.pass_path = []
            pushes = self.search(0, frozenset(self.level.boxes), self.level.player)
            if pushes is not None:
                return pushes
            if self.clock.worked() == began:
                return None  # a pass that asked nothing (no entry to make) would repeat itself
            self.review(self.pass_path, int(self.schedule.review_share * self.schedule.pass_stages * self.stage_work))
            self.stage_work *= 2
        return None

    def search(self, k: int, boxes: frozenset[Cell], player: Cell) -> list[Push] | None:
        """Pushes from the state (``boxes``, ``player``) with ``k`` boxes in the room that fill
        it: up to ``width`` stage plans for the entries that may come next, each followed
        depth first."""
        if k > self.most_in:
            self.most_in, self.farthest = k, list(self.trail)
        if k > len(self.pass_path):
            self.pass_path = list(self.path)
        if k == len(self.room.goals):
            return []
        options = next_entries(self.room, boxes & self.room.goals)
        ends = EntryEnds(boxes, lambda pushes: self.after_entry(options, boxes, player, pushes))
        for _ in range(self.schedule.width):
            pushes = self.stage(options, boxes, player, ends)
            if pushes is None or ends.kept is None:
                return None
            entry, after = ends.kept
            way_in = pushes + list(entry.pushes[1:])
            self.trail.append(way_in)
            self.path.append(after)
            rest = self.search(k + 1, *after)
            self.trail.pop()
            self.path.pop()
            if rest is not None:
                return way_in + rest
            ends.avoid.append(end_boxes(boxes, pushes))
        return None

    def after_entry(self, options: dict[Cell, Entry], boxes: frozenset[Cell], player: Cell,
                    pushes: list[Push]) -> Entered | Refusal:
        """The entry a stage plan makes (by the square its box was pushed in onto) and the boxes
        and player after the entry's pushes; or the squares of the plan's end state that turn
        it away: the state cannot be made, or it is dead (a corral, group or freeze deadlock,
        ``doom``; a box shut out of the room, ``shut_out``; or boxes outside proven unable to
        all come in, ``trapped``). A deadlock names its boxes (``blame``), the rest the whole
        end state."""
        end = end_boxes(boxes, pushes)
        whole = Refusal.of_end(end)
        inside = next(iter((end - boxes) & frozenset(options)), None)
        if inside is None:
            return whole
        entry = options[inside]
        after = play_pushes(self.level.floor, boxes, player, pushes + list(entry.pushes[1:]))
        if after is None:
            return whole
        if after[0] == self.room.goals:
            return entry, after
        state = Level(self.level.floor, after[0], self.level.goals, after[1])
        found = doom(state) or self.box_shut_out(after[0]) or self.trapped(*after)
        if found is None:
            return entry, after
        return whole if found.player and len(entry.pushes) == 1 else self.blame(found, inside)

    def box_shut_out(self, boxes: frozenset[Cell]) -> Doom | None:
        """A box shut out of the room (``shut_out``), dead wherever the player stands."""
        shut = shut_out(self.room, boxes)
        return None if shut is None else Doom(frozenset({shut}))

    def blame(self, found: Doom, inside: Cell) -> Refusal:
        """The squares of a stage's end state that make ``found`` after the entry onto
        ``inside``: its box there, and ``found``'s squares outside the room. Sound within one
        stage question (a nogood lasts one solve call): the room's boxes after the entry are
        those of the stage's start and the entry's, and the player stands where the entry's
        last push leaves it (``after_entry`` blames the whole end state when a test asked from
        the player's side and the entry has no pushes after the one in)."""
        outside = [(cell, True) for cell in sorted(found.boxes - self.room.room)]
        empty = [(cell, False) for cell in sorted(found.empty - self.room.room)]
        return Refusal(((inside, True), *outside, *empty))

    def review(self, path: list[tuple[frozenset[Cell], Cell]], work: int) -> None:
        """Trap proofs of the states after the entries of ``path`` (a pass's way to its most
        boxes in), the first first, each with an equal share of what is left of ``work``,
        until one is proven dead: a dead end that the stages' own proofs had no time for. Kept by the
        traps, the proof turns the same entry away at once in the passes after (``trapped``)."""
        before = self.trap_states()
        end = self.clock.worked() + min(work, self.clock.spare())
        for k, (boxes, player) in enumerate(path):
            left = end - self.clock.worked()
            if left <= 0 or self.clock.expired():
                break
            share = int(left / (len(path) - k))
            state, traps = self.outside(boxes, player)
            if traps.dead_part(state, share // 2) is not None or traps.prove_dead(state, share // 2):
                break
        self.reviewed += self.trap_states() - before

    def trap_states(self) -> int:
        """The states of every trap proof so far, in the stages and in reviews."""
        return sum(traps.states for traps in self.traps.values())

    def outside(self, boxes: frozenset[Cell], player: Cell) -> tuple[Level, Traps]:
        """The boxes outside the room as a level of their own (``outside_state``) and the trap
        proofs of the levels with the same boxes in the room."""
        state = outside_state(self.level, self.room, boxes, player)
        inside = boxes & self.room.room
        traps = self.traps.get(inside)
        if traps is None:
            traps = self.traps[inside] = Traps(state, pulls=False, whole=True, charge=self.clock.charge)
        return state, traps

    def trapped(self, boxes: frozenset[Cell], player: Cell) -> Doom | None:
        """The boxes outside the room that cannot all come in, the room's boxes as walls:
        trap proofs (``traps.py``) of the level without the room's boxes, of a few boxes near
        each other first (part proofs), then of all of them (a ``whole`` proof), each half of
        the staged search's shares of the stage budget and of the search's work. A part proof
        names its boxes (dead with the player on its side);
        a whole proof all of them. None when no proof finishes within its states."""
        state, traps = self.outside(boxes, player)
        spent = self.trap_states() - self.reviewed
        spare = self.schedule.trap_time_share * (self.clock.worked() - self.began) - spent
        states = int(max(0.0, min(self.schedule.trap_share * self.stage_work, spare)))
        part = traps.dead_part(state, states // 2)
        if part is not None:
            return Doom(part, player=True)
        return Doom(state.boxes, player=True) if traps.prove_dead(state, states // 2) else None

    def stage(self, options: dict[Cell, Entry], boxes: frozenset[Cell], player: Cell, ends: EntryEnds) -> list[Push] | None:
        """The pushes of a stage plan that pushes a box in onto the inside square of one of the
        ``options`` and that ``ends`` keeps; None when none is found within the stage budget."""
        if not options:
            return None
        clock = self.clock.within(max(0, min(self.stage_work, self.pass_end - self.clock.worked())))

        def switch(control: RoomControl) -> None:
            control.switch(boxes, player, frozenset(options))
            control.session.extractor, control.session.clock = ends, clock

        self.bands.new_question()
        try:
            for t in horizons(1, self.max_horizon, self.encoding.jumps):
                ends.horizon = t
                outcome = None if clock.expired() else self.bands.control(t, clock, switch).session.ask(t)
                if outcome is None:
                    return None
                if outcome:
                    return push_sequence(ends.symbols)
            return None
        finally:
            self.clock.add(clock)


Entered = tuple[Entry, tuple[frozenset[Cell], Cell]]  # the entry made, and the boxes and player after it


@dataclass(frozen=True)
class Refusal:
    """Why a stage's end state is turned away: the squares (with a box, or without) that make
    any end state turned away in this stage question (``RoomStages.after_entry``)."""

    squares: tuple[tuple[Cell, bool], ...]

    @staticmethod
    def of_end(end: frozenset[Cell]) -> Refusal:
        """The whole end state: boxes on ``end``."""
        return Refusal(tuple((cell, True) for cell in sorted(end)))


class EntryEnds(PlanExtractor):
    """Keeps the first model that ends in none of the ``avoid`` box sets and whose pushes (from
    the boxes on ``start``) ``keeps`` makes an entry of (``kept``); every other model's
    ``Refusal`` (its whole end state for the ``avoid`` sets) becomes a nogood and clingo goes
    on."""

    def __init__(self, start: frozenset[Cell], keeps: Callable[[list[Push]], Entered | Refusal]) -> None:
        super().__init__()
        self.start, self.keeps = start, keeps
        self.avoid: list[frozenset[Cell]] = []
        self.horizon = 0
        self.kept: Entered | None = None

    def on_model(self, model: clingo.Model) -> bool:
        symbols = list(model.symbols(shown=True))
        pushes = push_sequence(symbols)
        end = end_boxes(self.start, pushes)
        verdict = Refusal.of_end(end) if end in self.avoid else self.keeps(pushes)
        if isinstance(verdict, Refusal):
            self.kept = None
            model.context.add_nogood([(atom("box", cell, self.horizon), sign) for cell, sign in verdict.squares])
            return True
        self.kept = verdict
        self.symbols, self.found = symbols, True
        return False


def solve_room_stages(level: Level, config: SolveConfig, families: tuple[str, ...], clock: Clock) -> tuple[str | None, str, str]:
    """A LURD plan for ``level`` by room stages in the first of ``families`` that fits
    (``room_family``), or None and why not; and, without a plan, the moves to a state with the
    most boxes the stages brought in (empty if none)."""
    room = find_entrance_room(level)
    if room is None:
        return None, "none that goal macros can fill", ""
    stages = RoomStages(level, room, config, clock, room_family(config, families))
    pushes = stages.run()
    entrances = ", ".join(str(cell) for cell in room.entrances)
    proofs = sum(traps.proofs for traps in stages.traps.values())
    traps = f"; {proofs} trap{'s' * (proofs != 1)} proven dead" if proofs else ""
    if pushes is None:
        farthest = expand_pushes(level, [push for pushes in stages.farthest for push in pushes]) if stages.farthest else ""
        return None, f"room stages: at best {stages.most_in} of {len(room.goals)} boxes in through {entrances}{traps}", farthest
    return expand_pushes(level, pushes), f"room stages: {len(room.goals)} boxes in through {entrances}{traps}", ""
