"""The configuration of one run (encoding, strategies, horizon bounds, phases, limits) and its
clock. A configuration is a value: the pipeline, the grid and the portfolio build it, the phases
and the horizon loop read it."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from sokoasp.errors import InputError

DEFAULT_MAX_HORIZON = 200
WORK_PER_SECOND = 5_000  # the nominal rate that turns a time limit into work where a budget follows the limit (members)
MOST_WORK = 10**12  # the largest budget a phase or a run may be given, in work units
MOST_STATES = 1_000_000  # a search stops after this many states, whatever its budget (memory: ~100 bytes a state)
TIME_LIMIT_MAX = 1e6  # seconds (11.6 days): the waits on solver processes count milliseconds in 32 bits (2.1e6 s)

Progress = Callable[[str], None]


@dataclass(frozen=True)
class PhaseSettings:
    """A phase's own settings beyond its work budget. A phase that has some subclasses this (frozen),
    every field with a default of type bool, int, float, str or tuple of str, so that one
    spelling reads and writes them all (``read_settings``, ``PhaseRun.__str__``); the base has none."""


@dataclass(frozen=True, eq=False)
class PhaseRun:
    """One phase of a run (a name of ``sokoasp.phases.PHASES``), its budget in work units
    (``Meter``) and its settings (the phase's own type once parsed; the base type stands for the
    phase's defaults, and runs are equal when they spell the same)."""

    name: str
    work: int
    settings: PhaseSettings = PhaseSettings()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhaseRun) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __str__(self) -> str:
        """``NAME=WORK`` (``box-search=100k``), then ``:KEY=VALUE,...`` for each setting that is
        not its default: the spelling ``sokoasp.phases.parse_phase`` reads."""
        knobs = ",".join(f"{key}={value}" for key, value in changed_settings(self.settings))
        return f"{self.name}={work_text(self.work)}" + (f":{knobs}" if knobs else "")


WORK_SUFFIXES = {"": 1, "k": 1_000, "M": 1_000_000, "G": 1_000_000_000}


def work_text(work: int) -> str:
    """A work budget with the largest suffix that spells it whole: 100k, 2M, 1500."""
    for suffix, size in reversed(WORK_SUFFIXES.items()):
        if work >= size and work % size == 0:
            return f"{work // size}{suffix}"
    return str(work)


def nominal_work(seconds: float) -> int:
    """The work of ``seconds`` at the nominal rate (``WORK_PER_SECOND``), in whole thousands."""
    return max(1, round(seconds * WORK_PER_SECOND / 1000)) * 1000


def read_work(text: object, where: str) -> int:
    """A work budget from ``100000``, ``100k``, ``2.5M`` or a whole TOML number, from 1k to
    ``MOST_WORK`` units (raises InputError saying what it must be: a small number is likely
    seconds, which budgets are not)."""
    value: float | None = None
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and 0 < len(text.strip()) <= 20 and text.isascii():
        body = text.strip()
        size = WORK_SUFFIXES.get(body[-1], 0) if body[-1].isalpha() else 1  # 0: a suffix it does not know
        try:
            value = float(body[:-1] if body[-1].isalpha() else body) * size
        except ValueError:
            value = None
    if value is None or not math.isfinite(value) or value != int(value) or not 1_000 <= value <= MOST_WORK:
        raise InputError(f"{where}: a budget counts work units (states searched, clasp conflicts; about "
                         f"{WORK_PER_SECOND // 1000}k a second), a whole number from 1k to 10^12 such as 100k or 2M, "
                         f"not {text!r}")
    return int(value)


def changed_settings(settings: PhaseSettings) -> list[tuple[str, str]]:
    """The settings that differ from their defaults as (key, value) texts: keys with hyphens,
    booleans on/off, tuples joined by +."""
    return [(setting_key(known.name), setting_text(getattr(settings, known.name)))
            for known in fields(settings) if getattr(settings, known.name) != known.default]


def setting_key(name: str) -> str:
    """A setting's field name as it is spelled: with hyphens."""
    return name.replace("_", "-")


def setting_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return "+".join(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


SWITCHES = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}


def read_settings(kind: type[PhaseSettings], given: dict[str, object], phase: str) -> PhaseSettings:
    """Settings of type ``kind`` from ``given`` (keys with hyphens or underscores; values as
    texts, or TOML values), each converted to its default's type; raises InputError naming the
    phase and the setting."""
    known = {item.name: item for item in fields(kind)}
    values: dict[str, object] = {}
    for key, value in given.items():
        name = key.replace("-", "_")
        if name not in known:
            names = ", ".join(setting_key(n) for n in known) or "none but its budget"
            raise InputError(f"phase {phase!r} has no setting {key!r} (its settings: {names})")
        values[name] = setting_value(known[name].default, value, f"phase {phase!r}, setting {key!r}")
    return kind(**values)


def setting_value(default: object, value: object, where: str) -> object:
    """``value`` as the type of ``default`` (raises InputError saying what it must be)."""
    if isinstance(default, bool):
        converted = SWITCHES.get(value.lower()) if isinstance(value, str) else value if isinstance(value, bool) else None
        if converted is None:
            raise InputError(f"{where} must be on or off, not {value!r}")
        return converted
    if isinstance(default, tuple):
        parts = value.split("+") if isinstance(value, str) else value
        if not isinstance(parts, list | tuple) or not all(isinstance(p, str) and p.strip() for p in parts):
            raise InputError(f"{where} must be names joined by +, not {value!r}")
        return tuple(p.strip() for p in parts)
    if isinstance(default, int | float):
        return number_setting(default, value, where)
    if not isinstance(value, str):
        raise InputError(f"{where} must be a text, not {value!r}")
    return value


def number_setting(default: int | float, value: object, where: str) -> int | float:
    """A whole number (for an int default) or a finite number, from 0 to 10^9."""
    whole = isinstance(default, int)
    what = "a whole number" if whole else "a number"
    if isinstance(value, str) and len(value) <= 20 and value.strip().isascii():
        try:
            value = int(value) if whole else float(value)
        except ValueError:
            pass
    fits = isinstance(value, int) if whole else isinstance(value, int | float)
    if isinstance(value, bool) or not fits or not 0 <= value <= 1e9:  # type: ignore[operator]
        raise InputError(f"{where} must be {what} from 0 to 10^9, not {value!r}")
    return value  # type: ignore[return-value]


@dataclass(frozen=True)
class SolveConfig:
    encoding: str = "incremental"
    strategies: tuple[str, ...] = ()
    horizon: int | None = None  # fixed-horizon encodings
    min_horizon: int = 0  # incremental encodings
    start_factor: int = 1  # incremental encodings: first horizon = start_factor x the start scale
    max_horizon: int = DEFAULT_MAX_HORIZON
    time_limit: float | None = None  # seconds; soft (solving only)
    clingo_args: tuple[str, ...] = ()
    phases: tuple[PhaseRun, ...] = ()  # run in this order before the horizon loop; the first plan wins
    interleave: int = 1  # jump families: how many horizons are asked in turn (1: one after another)
    descend: bool = False  # push-jump: max_horizon first, then one push fewer than each plan, to a refutation

    def phase(self, name: str) -> PhaseRun | None:
        """The run of phase ``name`` in this configuration, or None if it does not run."""
        return next((run for run in self.phases if run.name == name), None)

    def work(self, phase: str) -> int | None:
        """The work budget of ``phase`` in this run, or None if it does not run."""
        run = self.phase(phase)
        return None if run is None else run.work

    def describe(self) -> dict[str, object]:
        return {
            "encoding": self.encoding,
            "strategies": list(self.strategies),
            "horizon": self.horizon,
            "min_horizon": self.min_horizon,
            "start_factor": self.start_factor,
            "max_horizon": self.max_horizon,
            "time_limit": self.time_limit,
            "clingo_args": list(self.clingo_args),
            "phases": [str(run) for run in self.phases],
            "interleave": self.interleave,
            "descend": self.descend,
            **versions(),
        }


def versions() -> dict[str, str]:
    """The versions of clingo and sokoasp a result is made with."""
    import clingo  # a result is described after a run, which has clingo loaded already

    from sokoasp import __version__

    return {"clingo": clingo.__version__, "sokoasp": __version__}


@dataclass
class Meter:
    """The work one run has done, the currency of its budgets: unlike seconds, the same run does
    the same work on any machine at any load. A state a Python search takes up is one unit; clasp's
    work is ``SOLVE_CALL_UNITS`` per solve call, ``CONFLICT_UNITS`` per conflict and one unit per
    ``RULES_PER_UNIT`` rules grounded. Every clock of a run reads the same meter."""

    done: int = 0


# A unit is about 0.2 ms on a 2-core machine of 2026 (WORK_PER_SECOND) for both kinds of work;
# benchmarks/notes.md has the measurement these weights come from.
CONFLICT_UNITS = 2  # clasp meets 1,500 to 5,000 conflicts a second on the staged search's programs
SOLVE_CALL_UNITS = 20  # a solve call costs a few milliseconds even when it meets no conflict
RULES_PER_UNIT = 100  # grounding counts too: a stage that asks many horizons grounds much and conflicts little


@dataclass
class Clock:
    """Seconds since the run began, grounding and solving time and the time limit (the outer cap),
    and the work budget: ``until`` is the meter's reading at which it is spent (None: none)."""

    start: float = field(default_factory=time.perf_counter)
    ground: float = 0.0
    solve: float = 0.0
    limit: float | None = None
    meter: Meter = field(default_factory=Meter)
    until: int | None = None

    def remaining(self) -> float | None:
        if self.limit is None:
            return None
        return self.limit - (time.perf_counter() - self.start)

    def deadline(self) -> float:
        """The time limit on the clock ``time.perf_counter`` (inf: none)."""
        return float("inf") if self.limit is None else self.start + self.limit

    def work_left(self) -> int | None:
        """Work units left in the budget (None: no budget)."""
        return None if self.until is None else max(0, self.until - self.meter.done)

    def spare(self) -> float:
        """Work units this clock may still spend: inf without a work budget, 0 once it has
        expired (its time limit too)."""
        if self.expired():
            return 0
        left = self.work_left()
        return math.inf if left is None else left

    def worked(self) -> int:
        """The meter's reading: the work the run has done."""
        return self.meter.done

    def allow(self, most: int) -> int:
        """``most`` states for a search, or the work left if that is less."""
        left = self.work_left()
        return most if left is None else min(most, left)

    def charge(self, units: int) -> None:
        self.meter.done += units

    def expired(self) -> bool:
        left = self.remaining()
        return (left is not None and left <= 0) or self.work_left() == 0

    def within(self, work: int | None = None, seconds: float | None = None) -> Clock:
        """A clock for a part of the run: the same meter, at most ``work`` more units and
        ``seconds`` (and no more than this clock has left of either)."""
        until, limit = self.until, self.remaining()
        if work is not None:
            until = self.meter.done + work if until is None else min(until, self.meter.done + work)
        if seconds is not None:
            limit = seconds if limit is None else min(limit, seconds)
        return Clock(limit=limit, meter=self.meter, until=until)

    def share(self, parts: int) -> Clock:
        """A clock for one of ``parts`` equal shares of the work left (no work budget: the time left)."""
        left = self.work_left()
        return self.within(None if left is None else left // parts)

    def add(self, other: Clock) -> None:
        """Count another clock's grounding and solving time as this one's."""
        self.ground += other.ground
        self.solve += other.solve

    def times(self) -> dict[str, float]:
        total = time.perf_counter() - self.start
        return {"ground": round(self.ground, 4), "solve": round(self.solve, 4), "total": round(total, 4)}
