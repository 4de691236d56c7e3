"""The audit of a member's claim: a strategy (on one family) or an encoding family run against
the exact breadth-first optimum on a seeded stream of small generated levels, and reported by
what it was seen to do. It observes; it proves nothing: "consistent on N levels" is all a clean
audit can say, and one counterexample contradicts a claim to keep every optimal plan.

Each level is solvable by construction (boxes pulled off their goals). Per level: the optimum in
the family's unit (moves or pushes) from the breadth-first oracle within ``oracle_states``, then
one solve with the member within ``work`` units (reproducible, no seconds). A family that proves
its optimum must reach it; one that does not must find a plan; every plan is replayed by the
pipeline before it counts. A level whose oracle or solve runs out of budget is skipped. A
strategy is then run on larger levels against its family without it (the family's first plan
stands in for the optimum), where the oracle would run out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal

from sokoasp.asp.encodings import ENCODINGS, Encoding, get_encoding
from sokoasp.asp.strategies import Soundness, get_strategy
from sokoasp.board.level import Cell, Level
from sokoasp.config import Clock, SolveConfig
from sokoasp.errors import InputError
from sokoasp.pipeline import solve
from sokoasp.registry import is_path
from sokoasp.result import Result, Status
from sokoasp.sokoban.breadth_first import move_optimum, push_optimum, region_from
from sokoasp.tools.generate.boards import joined_blocks, rectangle
from sokoasp.tools.generate.scramble import scramble


@dataclass(frozen=True)
class AuditSettings:
    levels: int = 300  # small levels against the breadth-first optimum: about a minute on the move families
    larger: int = 100  # larger levels against the family without the strategy (strategies only)
    seed: int = 1
    work: int = 20_000  # units per solve: tiny levels need a few hundred; more is a level to skip, not wait on
    oracle_states: int = 30_000  # breadth-first states per level: most levels of the stream fit, the rest are skipped
    slack: int = 3  # a member that misses the optimum is asked again up to slack x the optimum, to tell lost from unsolvable


class Verdict(str, Enum):
    CONSISTENT = "consistent"  # a claim to keep plans, and no counterexample
    NOT_SHOWN = "not shown"  # a claim to lose solutions, and no counterexample
    AS_CLAIMED = "as claimed"  # a counterexample the claim allows
    CONTRADICTED = "contradicted"  # a counterexample the claim forbids


class Kind(str, Enum):
    OPTIMUM_LOST = "optimum lost"
    UNSOLVABLE = "solvable level made unsolvable"
    HORIZON = "the optimum's horizon refuted (a plan as short only at a longer horizon)"
    REPLAY = "a plan that fails replay"


@dataclass(frozen=True)
class Finding:
    """What the member did wrong on one level: its optimum, and the member's best (None: no plan
    up to ``slack`` x the optimum)."""

    kind: Kind
    level: Level
    number: int  # in the stream
    optimum: int
    found: int | None


@dataclass
class Audit:
    member: str
    family: str
    unit: str  # "moves" or "pushes"
    claim: str  # what the member claims, in the registry's words
    kept: int = 0  # levels where the member did what an optimal (or complete) family must
    skipped: int = 0  # levels whose oracle or solve ran out of budget
    finding: Finding | None = None
    verdict: Verdict | None = None  # set when the stream ends
    summary: str = ""  # the verdict in a sentence, with what was seen
    interrupted: bool = False  # stopped by Ctrl-C: what was seen until then

    @property
    def contradicted(self) -> bool:
        return self.verdict is Verdict.CONTRADICTED


def audit(member: str, family: str | None = None, settings: AuditSettings = AuditSettings(),
          progress: Callable[[], None] | None = None) -> Audit:
    """Audit ``member``: a strategy (name or folder) on ``family`` (default: its first family
    driven by the horizon loop), or an encoding family (name or file; ``family`` must then be
    None). Stops at the first finding; ``progress`` hears each level done. Ctrl-C ends it with
    what it saw so far (``interrupted``)."""
    chosen = subject_of(member, family)
    unit = "moves" if chosen.encoding.unit == "move" else "pushes"
    report = Audit(member, chosen.encoding.name, unit, chosen.claim)
    try:
        run_stream(report, chosen, settings, progress)
    except KeyboardInterrupt:
        report.interrupted = True
    report.verdict, report.summary = judge(report)
    return report


def run_stream(report: Audit, chosen: Subject, settings: AuditSettings, progress: Callable[[], None] | None) -> None:
    """Check the stream's levels into ``report`` until the first finding."""
    plain = replace(chosen, strategies=())
    larger = settings.larger if chosen.strategies and chosen.encoding.incremental else 0
    grow = 2 if report.unit == "pushes" else 1  # plans in moves grow fast with the board: more boxes, not more floor
    for number, (level, small) in enumerate(level_stream(settings.seed, settings.levels, larger, grow), 1):
        if progress is not None:
            progress()
        optimum = oracle(level, report.unit, settings.oracle_states) if small else baseline(level, plain, settings)
        if optimum is None:
            report.skipped += 1
            continue
        outcome = check_level(level, number, optimum, chosen, settings)
        if outcome is None:
            report.skipped += 1
        elif outcome is True:
            report.kept += 1
        else:
            report.finding = outcome
            return


@dataclass(frozen=True)
class Subject:
    """What the audit runs: the family (as a run names it), the strategies loaded, the claim."""

    name: str
    encoding: Encoding
    strategies: tuple[str, ...]
    claim: str


def subject_of(member: str, family: str | None) -> Subject:
    if member.endswith(".lp") or member in ENCODINGS:
        if family is not None:
            raise InputError(f"{member!r} is an encoding family: --family is for strategies")
        encoding = clingo_family(member)
        return Subject(member, encoding, (), "finds a shortest plan" if encoding.proves_optimum else "finds a plan when one exists")
    if not is_path(member) and not is_strategy(member):  # a folder's own errors are its loader's to say
        raise InputError(f"{member!r} is neither a strategy nor an encoding family (`sokoasp strategies`, `sokoasp encodings`) "
                         "nor the path of one of your own")
    strategy = get_strategy(member)
    chosen = family or next((name for name in strategy.encodings if get_encoding(name).incremental), strategy.encodings[0])
    if chosen not in strategy.encodings:
        raise InputError(f"strategy {strategy.name!r} does not serve family {chosen!r} (it serves {', '.join(strategy.encodings)})")
    return Subject(chosen, clingo_family(chosen), (member,), strategy.soundness.value)


def clingo_family(name: str) -> Encoding:
    encoding = get_encoding(name)
    if encoding.planner:
        raise InputError(f"{encoding.name!r} runs an external planner: the audit is for clingo families")
    return encoding


def is_strategy(member: str) -> bool:
    try:
        get_strategy(member)
    except InputError:
        return False
    return True


def level_stream(seed: int, small: int, larger: int = 0, grow: int = 2) -> Iterator[tuple[Level, bool]]:
    """``small`` small solvable levels, then ``larger`` larger ones (each with whether it is
    small), the same for the same seed: rectangles with walls inside (corridors, pillars) and
    boards of joined 2x2 blocks, one to three boxes (larger: two to four, on boards ``grow``
    times as wide and as many blocks), pulled a few to a few dozen times off their goals."""
    made = attempt = 0
    while made < small + larger:
        attempt += 1
        rng = random.Random(f"audit/{seed}/{attempt}")
        is_small = made < small
        size = 1 if is_small else grow
        floor = walled(rng, size) if rng.random() < 0.6 else joined_blocks(rng.randint(3, 6) * size, rng)
        most = min(3 + (not is_small), len(floor) // 5)
        if most < 1:
            continue
        try:
            level, _ = scramble(floor, rng.randint(1 + (not is_small), max(1 + (not is_small), most)), rng.randint(4, 40) * size, rng)
        except InputError:
            continue  # too tight for these boxes: the next attempt
        if level.boxes == level.goals:
            continue
        made += 1
        yield level.with_title(f"audit-{seed}-{made}"), is_small


def walled(rng: random.Random, size: int = 1) -> frozenset[Cell]:
    """A rectangle of 1 to 5 rows (``size`` 2: 2 to 7 rows, twice as wide) with up to a quarter
    of its squares walled, the part holding the most floor kept."""
    floor = set(rectangle(rng.randint(4, 8) * size, rng.randint(size, 5 + 2 * (size - 1))))
    floor -= set(rng.sample(sorted(floor), rng.randint(0, len(floor) // 4)))
    parts: list[frozenset[Cell]] = []
    while floor:
        part = region_from(frozenset(floor), frozenset(), [min(floor)])
        parts.append(part)
        floor -= part
    return max(parts, key=len)


def oracle(level: Level, unit: str, states: int) -> int | None:
    return move_optimum(level, states) if unit == "moves" else push_optimum(level, states)


def baseline(level: Level, plain: Subject, settings: AuditSettings) -> int | None:
    """The family's own first plan without the strategy (its optimum when it proves one), or None
    when it finds none within the work."""
    result = run(level, plain, SolveConfig.max_horizon, 2 * settings.work)
    return length(result, plain.encoding) if result.status.solved else None


def check_level(level: Level, number: int, optimum: int, subject: Subject, settings: AuditSettings) -> Finding | Literal[True] | None:
    """True when the member did what its family must on ``level``; a Finding when not; None when
    the solve ran out of work (skipped)."""
    encoding = subject.encoding
    exact = encoding.proves_optimum
    first = run(level, subject, optimum if exact else settings.slack * optimum + 2, settings.work)
    if first.status in (Status.TIMEOUT, Status.MEMORY_OUT):
        return None
    if first.status is Status.ERROR:
        return Finding(Kind.REPLAY, level, number, optimum, None)
    if first.status.solved and (not exact or length(first, encoding) == optimum):
        return True
    if not exact:
        return Finding(Kind.UNSOLVABLE, level, number, optimum, None)
    if not encoding.incremental:  # a fixed horizon: no plan at the optimum's
        return Finding(Kind.OPTIMUM_LOST, level, number, optimum, None)
    longer = run(level, subject, settings.slack * optimum + 2, settings.work)
    if longer.status in (Status.TIMEOUT, Status.MEMORY_OUT):
        return None
    if longer.status.solved:
        found = length(longer, encoding)
        return Finding(Kind.HORIZON if found == optimum else Kind.OPTIMUM_LOST, level, number, optimum, found)
    return Finding(Kind.UNSOLVABLE, level, number, optimum, None)


def run(level: Level, subject: Subject, horizon: int, work: int) -> Result:
    """One solve within ``work`` units, up to ``horizon`` (a fixed-horizon family: at it)."""
    fixed = not subject.encoding.incremental
    config = SolveConfig(encoding=subject.name, strategies=subject.strategies, max_horizon=horizon,
                         horizon=horizon if fixed else None)
    return solve(level, config, clock=Clock(until=work))


def length(result: Result, encoding: Encoding) -> int | None:
    return result.moves if encoding.unit == "move" else result.pushes


def judge(report: Audit) -> tuple[Verdict, str]:
    """The claim against what was seen, and why, in a sentence."""
    found = report.finding
    seen = f"{report.kept} level(s) checked, {report.skipped} skipped (budget)" + (", then interrupted" if report.interrupted else "")
    if found is None:
        if report.claim == Soundness.MAY_LOSE.value:
            return Verdict.NOT_SHOWN, f"not shown: no counterexample on {seen} (losing is allowed by the claim, not required)"
        return Verdict.CONSISTENT, f"consistent: no counterexample on {seen} (observed, not proven)"
    where = f"level {found.number}: {found.kind.value}"
    if report.claim == Soundness.MAY_LOSE.value:
        return Verdict.AS_CLAIMED, f"as claimed: it may lose solutions, shown on {where}"
    if report.claim == Soundness.KEEPS_SOLVABLE.value and found.kind in (Kind.OPTIMUM_LOST, Kind.HORIZON):
        return Verdict.AS_CLAIMED, f"as claimed: it keeps solvability, and its claim allows what it did on {where}"
    return Verdict.CONTRADICTED, f"contradicted: it claims it {report.claim}, but on {where}"
