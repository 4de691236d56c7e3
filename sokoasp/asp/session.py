"""One clingo session: the configuration of a run, its clock, and a Control loaded with an
encoding, strategy files and a level's facts, asked for plans horizon by horizon.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import clingo

from sokoasp.asp.clingo_options import check_clingo_args
from sokoasp.asp.encodings import Encoding, encoding_paths, encodings_dir
from sokoasp.asp.level_facts import program_facts
from sokoasp.asp.models import PlanExtractor
from sokoasp.asp.reverse_facts import reverse_facts
from sokoasp.asp.strategies import strategy_clingo_args, strategy_facts, strategy_paths
from sokoasp.board.level import Level
from sokoasp.config import CONFLICT_UNITS, RULES_PER_UNIT, SOLVE_CALL_UNITS, Clock, SolveConfig
from sokoasp.errors import InputError
from sokoasp.sokoban.obstacles import rim_facts

MOST_ERRORS = 20  # clingo's error messages kept: the first is reported
CLINGO_WHERE = re.compile(r"(?P<file>[^:]+):(?P<line>\d+):[\d:-]+: (?P<problem>.*)")  # file:line:col: error: ...


class Session:
    """One clingo Control loaded with an encoding, strategies and a level. ``facts`` replaces
    the level's facts. A ``revisiting`` session may be asked any horizon again, shorter ones
    too: its query/1 atoms are switched off, not released, and the steps past the horizon asked
    are kept idle (idle.lp). A ``stepwise`` one also grounds step by step, checking its clock
    in between (staged solving)."""

    def __init__(self, level: Level, encoding: Encoding, config: SolveConfig, clock: Clock,
                 facts: str | None = None, revisiting: bool = False, stepwise: bool = False) -> None:
        self.level = level
        self.encoding = encoding
        self.clock = clock
        args = ["--stats", *strategy_clingo_args(config.strategies), *config.clingo_args]
        if not encoding.incremental:
            args += ["-c", f"horizon={config.horizon}"]
        check_clingo_args(config.clingo_args)
        self.errors: list[str] = []  # clingo's error messages, for a program that does not parse or ground
        self.control = clingo.Control(args, logger=self.log)
        with self.program_errors():
            for path in encoding_paths(encoding):
                self.control.load(str(path))
            for path in strategy_paths(config.strategies, encoding.name):
                self.control.load(str(path))
        self.revisiting = revisiting or stepwise
        self.stepwise = stepwise
        if self.revisiting:
            self.control.load(str(encodings_dir() / "idle.lp"))
        if facts is None:
            facts = reverse_facts(level) if encoding.reverse else program_facts(level)
        if encoding.reads_rim:
            facts += rim_facts(level)
        self.control.add("base", [], facts + strategy_facts(config.strategies, encoding.name, level))
        self.checked: set[int] = set()  # horizons whose check(t) part is grounded
        self.rules = 0
        self.new_rules = False  # grounded since the last solve: the statistics' lp rules are new ones
        self.extractor = PlanExtractor()
        self.steps = -1  # step(1..steps) are grounded (base too once this is 0 or more)
        self.asked: int | None = None  # the horizon whose query/1 is on
        self.own_limit = str(self.solve_settings().solve_limit)  # --solve-limit as given (umax: none)

    def log(self, code: clingo.MessageCode, message: str) -> None:
        if code is clingo.MessageCode.RuntimeError and len(self.errors) < MOST_ERRORS:
            self.errors.append(message.strip())

    @contextmanager
    def program_errors(self) -> Iterator[None]:
        """A program that clingo cannot parse or ground (a user's encoding or strategy file) is an
        input error with clingo's first message: its file, line and column, and what is wrong."""
        try:
            yield
        except RuntimeError:
            if not self.errors:
                raise
            first = " ".join(line.strip() for line in self.errors[0].splitlines())[:300]
            where = CLINGO_WHERE.match(first)
            if where is None:
                raise InputError(first) from None
            raise InputError(where["problem"].removeprefix("error: "), where["file"], int(where["line"])) from None

    def ask(self, horizon: int, budget: int | None = None) -> bool | None:
        """Ground the steps up to ``horizon`` (base first, once) and ask for a plan of exactly
        this horizon (the multi-shot loop: query/1 is the external that switches the goal on).
        None when the clock (or ``budget`` more work units) runs out (a stepwise session also
        checks the clock between steps)."""
        if not self.ground_up_to(horizon):
            return None
        if self.asked is not None:
            previous = clingo.Function("query", [clingo.Number(self.asked)])
            if self.revisiting:
                self.control.assign_external(previous, False)
            else:
                self.control.release_external(previous)
        if self.revisiting:
            for step in range(1, self.steps + 1):
                self.control.assign_external(clingo.Function("idle", [clingo.Number(step)]), step > horizon)
        self.control.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
        self.asked = horizon
        return self.solve(budget)

    def ground_up_to(self, horizon: int) -> bool:
        """Ground base, steps and check(horizon) where not done yet; False if the clock ran out.
        A one-off session grounds them in one call: grounding step by step changes the order
        clasp sees the program in, which can make solving far slower. A stepwise session (staged
        solving) grounds step by step and stops in time."""
        steps = [("step", [clingo.Number(k)]) for k in range(max(self.steps, 0) + 1, horizon + 1)]
        check = [] if horizon in self.checked else [("check", [clingo.Number(horizon)])]
        if not self.stepwise:
            self.ground(([("base", [])] if self.steps < 0 else []) + steps + check)
        else:
            self.ground_base()
            for step in steps:
                if self.clock.expired():
                    return False
                self.ground([step])
                self.steps += 1
            if check:
                self.ground(check)
        self.steps = max(self.steps, horizon)
        self.checked.add(horizon)
        return True

    def ground_base(self) -> None:
        if self.steps < 0:
            self.ground([("base", [])])
            self.steps = 0

    def ground(self, parts: list[tuple[str, list[clingo.Symbol]]]) -> None:
        if not parts:
            return
        began = time.perf_counter()
        with self.program_errors():
            self.control.ground(parts)
        self.clock.ground += time.perf_counter() - began
        self.new_rules = True

    def solve(self, budget: int | None = None) -> bool | None:
        """True: model found; False: unsatisfiable; None: no answer (the time limit, the clock's
        work budget or ``budget`` more work units, or a search limit). The call's conflicts and
        the rules grounded since the last call are charged to the clock's meter."""
        began = time.perf_counter()
        self.extractor.reset()
        left = self.clock.remaining()
        work = self.clock.work_left()
        if budget is not None:
            work = budget if work is None else min(work, budget)
        if (left is not None and left <= 0) or work == 0:
            return None  # clingo would read a negative wait as "wait until done"
        self.solve_settings().solve_limit = solve_limit(self.own_limit, None if work is None else work // CONFLICT_UNITS)
        with self.control.solve(on_model=self.extractor.on_model, async_=True) as handle:
            finished = handle.wait(left)
            if not finished:
                handle.cancel()
            outcome = handle.get()
        self.clock.solve += time.perf_counter() - began
        statistics = self.control.statistics
        self.clock.charge(SOLVE_CALL_UNITS + CONFLICT_UNITS * int(statistics["solving"]["solvers"]["conflicts"]))
        if self.new_rules:  # clingo reports the last grounding's rules again at every solve
            rules = int(statistics["problem"]["lp"]["rules"])
            self.rules += rules
            self.clock.charge(rules // RULES_PER_UNIT)
            self.new_rules = False
        if self.extractor.found:
            return True
        if not finished or outcome.unknown:  # interrupted, or a search limit (--solve-limit, the work budget) hit
            return None
        return False

    def solve_settings(self) -> clingo.Configuration:
        """clasp's solve options (``--solve-limit``, ``--models``) of this control."""
        solve = self.control.configuration.solve
        assert isinstance(solve, clingo.Configuration)
        return solve

    def stats(self) -> dict[str, object]:
        statistics = self.control.statistics
        accu = statistics.get("accu", statistics)["solving"]["solvers"]
        return {
            "rules": self.rules,
            "choices": int(accu["choices"]),
            "conflicts": int(accu["conflicts"]),
            "atoms": int(self.control.statistics["problem"]["lp"]["atoms"]),
        }


def solve_limit(own: str, conflicts: int | None) -> str:
    """clasp's ``solve_limit`` for one call: the run's own (``--solve-limit``), its conflicts
    capped by ``conflicts`` (the work left, in conflicts)."""
    if conflicts is None:
        return own
    given, comma, restarts = own.partition(",")
    return f"{min(conflicts, int(given)) if given.isdigit() else conflicts}{comma}{restarts}"


def horizons(start: int, stop: int, jumps: bool) -> list[int]:
    """The horizons the loop asks for: every one, or growing by half for jump families."""
    if not jumps or start > stop:
        return list(range(start, stop + 1))
    result = [start]
    while result[-1] < stop:
        result.append(min(stop, max(result[-1] + 1, (result[-1] * 3 + 1) // 2)))
    return result
