"""A grid declaration (a TOML file, or options): instances x encodings x strategy sets x clingo
options x start factors x phase lists (each phase with its own settings) x interleave widths,
with per-run limits. docs/grid.md lists the keys with an example.

``read_spec`` checks the whole file before any run (an unknown key, phase, strategy or encoding,
or a value of the wrong type, is an input error naming the file); ``GridSpec.runs`` expands the
matrix, skipping the combinations the configuration checker (``sokoasp.configure``) refuses, and
saying why. The
pseudo-encodings ``portfolio``, ``portfolio-prove``, ``portfolio-optimize`` and ``record-prove`` race the portfolio,
prove its plan, or prove a record's plan; they take no strategy sets, options or phases. A run's
``key`` identifies it in the results database, so a grid resumes where it stopped."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from sokoasp.asp.clingo_options import check_clingo_args
from sokoasp.asp.encodings import encoding_paths, get_encoding
from sokoasp.asp.strategies import get_strategy
from sokoasp.board.facts import digest
from sokoasp.board.level import Level
from sokoasp.board.loading import load_all
from sokoasp.config import TIME_LIMIT_MAX, PhaseRun, SolveConfig, changed_settings, work_text
from sokoasp.configure import check_config
from sokoasp.errors import InputError
from sokoasp.phases import parse_phases
from sokoasp.portfolio import prove
from sokoasp.portfolio import race as portfolio
from sokoasp.registry import is_path
from sokoasp.tools.grid.report import portable
from sokoasp.tools.records import read_record
from sokoasp.tools.schema import Either, ListOf, Number, Said, Table, Text, read_toml

LEVEL_SUFFIXES = {".lp", ".sok", ".xsb", ".txt"}
PORTFOLIO = "portfolio"  # a grid "encoding" that races the default portfolio
PROVED_PORTFOLIO = "portfolio-prove"  # ... and then spends the time left proving its plan push-optimal (sokoasp.portfolio.prove)
OPTIMIZED_PORTFOLIO = "portfolio-optimize"  # ... and then shortens its plan with the time left (sokoasp.optimizer)
PORTFOLIOS = (PORTFOLIO, PROVED_PORTFOLIO, OPTIMIZED_PORTFOLIO)
PROVED_RECORD = "record-prove"  # a grid "encoding" that proves the plan of the instance's record (sokoasp.portfolio.prove)
OWN_CONFIGURATIONS = (*PORTFOLIOS, PROVED_RECORD)  # they take no strategies, options or phases of the grid


@dataclass(frozen=True)
class Instance:
    name: str  # file[#level]
    instance_class: str
    level: Level
    digest: str  # hash of the level's canonical facts
    plan: str = ""  # the plan its collection's record holds, if one was given ("": none)


@dataclass(frozen=True)
class Run:
    instance: Instance
    encoding: str
    strategies: tuple[str, ...]
    clingo_options: tuple[str, ...]
    time_limit: float
    memory_limit: int | None
    max_horizon: int
    start_factor: int = 1
    phases: tuple[PhaseRun, ...] = ()  # before the horizon loop, in order (sokoasp.phases)
    interleave: int = 1  # jump families: horizons asked in turn (1: one after another)

    @property
    def configuration(self) -> str:
        """A short label: encoding+strategy+... [clingo options] [start Nx] [phases] [interleave N]."""
        return configuration_label(self.encoding, self.strategies, self.clingo_options, self.start_factor, self.phases,
                                   self.interleave)

    def config(self) -> SolveConfig:
        """The run's configuration (not for the pseudo-encodings of ``OWN_CONFIGURATIONS``)."""
        return combination_config(self.max_horizon, self.encoding, self.strategies, self.clingo_options, self.start_factor,
                                  self.phases, self.interleave)

    @property
    def key(self) -> str:
        parts = [self.instance.digest, self.encoding, ",".join(self.strategies), " ".join(self.clingo_options),
                 str(self.time_limit), str(self.memory_limit), str(self.max_horizon)]
        if self.start_factor != 1:  # runs from before start factors existed keep their keys
            parts.append(f"start={self.start_factor}")
        parts += [str(run) for run in self.phases]
        if self.interleave != 1:
            parts.append(f"interleave={self.interleave}")
        if self.encoding in PORTFOLIOS:  # new members make a new configuration, never a stale "done"
            parts.append(repr(portfolio.members_for(self.time_limit)))
        if self.encoding == PROVED_RECORD:  # so do new provers, and a new plan in the record
            parts += [repr(prove.provers(1)), self.instance.plan]
        own = [(self.encoding, False)] + [(name, True) for name in self.strategies]
        parts += [own_files_digest(name, strategy) for name, strategy in own if is_path(name)]  # an edit: a new run
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:24]


@dataclass
class GridSpec:
    instances: list[Instance]
    encodings: list[str]
    strategy_sets: list[tuple[str, ...]] = field(default_factory=lambda: [()])
    clingo_options: list[tuple[str, ...]] = field(default_factory=lambda: [()])
    time_limit: float = 60.0
    memory_limit: int | None = None
    max_horizon: int = SolveConfig.max_horizon
    start_factors: list[int] = field(default_factory=lambda: [1])
    phases: list[tuple[PhaseRun, ...]] = field(default_factory=lambda: [()])
    interleave: list[int] = field(default_factory=lambda: [1])

    def runs(self) -> tuple[list[Run], list[str]]:
        """Every run of the matrix, and notes on combinations skipped as unsupported. The runs of
        one instance come together, so its configurations run side by side (at the same load of
        a shared machine) rather than one configuration's levels after another's."""
        configurations: list[tuple] = []
        skipped = []
        matrix = itertools.product(self.encodings, self.strategy_sets, self.clingo_options, self.start_factors,
                                   self.phases, self.interleave)
        for configuration in matrix:
            problem = self.refusal(*configuration)
            if problem:
                skipped.append(f"{configuration_label(*configuration)}: {problem}")
            elif configuration not in configurations:
                configurations.append(configuration)
        runs = [Run(instance, encoding, strategies, options, self.time_limit, self.memory_limit, self.max_horizon,
                    factor, phases, interleave)
                for instance in self.instances
                for encoding, strategies, options, factor, phases, interleave in configurations
                if encoding != PROVED_RECORD or instance.plan]
        unplanned = [i.name for i in self.instances if not i.plan]
        if PROVED_RECORD in self.encodings and unplanned:
            skipped.append(f"{PROVED_RECORD} on {len(unplanned)} instance(s) without a plan in a record, "
                           f"such as {unplanned[0]}")
        return runs, sorted(set(skipped))

    def refusal(self, encoding: str, strategies: tuple[str, ...], options: tuple[str, ...], factor: int,
                phases: tuple[PhaseRun, ...], interleave: int) -> str:
        """Why a combination of the matrix cannot run ("" if it can): the configuration checker's
        word, or, for a pseudo-encoding, that it chooses its own configuration."""
        if encoding in OWN_CONFIGURATIONS:
            chosen = strategies or options or factor != 1 or phases or interleave != 1
            return "it chooses its own" if chosen else ""
        config = combination_config(self.max_horizon, encoding, strategies, options, factor, phases, interleave)
        try:  # a grid gives no horizon: a fixed-horizon run is left to fail as it runs, as before the checker
            check_config(replace(config, horizon=None if get_encoding(encoding).incremental else 0))
        except InputError as error:
            return error.problem
        return ""


def combination_config(max_horizon: int, encoding: str, strategies: tuple[str, ...], options: tuple[str, ...], factor: int,
                       phases: tuple[PhaseRun, ...], interleave: int) -> SolveConfig:
    """The configuration of one combination of the matrix."""
    return SolveConfig(encoding=encoding, strategies=strategies, clingo_args=options, start_factor=factor, phases=phases,
                       interleave=interleave, max_horizon=max_horizon)


@cache
def own_files_digest(name: str, strategy: bool) -> str:
    """A digest of the files of the user's strategy folder or encoding file at path ``name``
    (read once a process: a grid asks for it on every run)."""
    paths = [file.path for file in get_strategy(name).files] if strategy else encoding_paths(get_encoding(name))
    return hashlib.sha256(b"".join(path.read_bytes() for path in paths)).hexdigest()[:16]


def member_label(name: str, strategy: bool = True) -> str:
    """A member's name in a label: a user's file or folder by the name its header gives."""
    if not is_path(name):
        return name
    return get_strategy(name).name if strategy else get_encoding(name).name


def configuration_label(encoding: str, strategies: tuple[str, ...], options: tuple[str, ...], factor: int,
                        phases: tuple[PhaseRun, ...], interleave: int) -> str:
    """encoding+strategy+... [clingo options] [start Nx] [phase WORK (settings), ...] [interleave N]."""
    label = "+".join((member_label(encoding, strategy=False), *map(member_label, strategies)))
    label += f" [{' '.join(options)}]" if options else ""
    label += f" [start {factor}x]" if factor != 1 else ""
    label += f" [{', '.join(phase_label(run) for run in phases)}]" if phases else ""
    return label + (f" [interleave {interleave}]" if interleave != 1 else "")


def phase_label(run: PhaseRun) -> str:
    """``staged 250k (families=push-macro+pull-route)``: the work budget, and the settings changed."""
    knobs = ", ".join(f"{key}={value}" for key, value in changed_settings(run.settings))
    return f"{run.name} {work_text(run.work)}" + (f" ({knobs})" if knobs else "")


def select(count: int, levels: str | None, source: str) -> list[int]:
    """1-based level numbers from a selection like "1-3,7"."""
    if not levels:
        return list(range(1, count + 1))
    chosen: list[int] = []
    for part in str(levels).split(","):
        low, _, high = part.strip().partition("-")
        if not all(text.isascii() and text.isdigit() and len(text) <= 9 for text in (low, high or low)):
            raise InputError(f"bad level selection {str(levels)[:40]!r} (expected e.g. 1-3,7)", source)
        first, last = int(low), int(high or low)
        bad = next((n for n in (first, last) if not 1 <= n <= count), None)
        if bad is not None:
            raise InputError(f"level {bad} is out of range 1..{count}", source)
        chosen += range(first, last + 1)
    return chosen


def load_instances(path: Path, instance_class: str | None = None, levels: str | None = None,
                   record: Path | None = None) -> list[Instance]:
    """A file (all its levels, or a selection) or a folder of level files; with ``record``, the
    plan record of the file, whose plans the instances carry (replayed on reading)."""
    if record is not None and path.is_dir():
        raise InputError("a record belongs to one level file, not to a folder", str(path))
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in LEVEL_SUFFIXES)
        if not files:
            raise InputError("no level files (.lp, .sok, .xsb) in this folder", str(path))
        unique: dict[str, Instance] = {}  # a level kept as both .sok and .lp is one instance
        for found in (i for f in files for i in load_instances(f, instance_class or f.parent.name)):
            unique.setdefault(found.digest, found)
        return list(unique.values())
    loaded = load_all(path)
    default_class = instance_class or (path.parent.name if len(loaded) == 1 else path.stem)
    chosen = select(len(loaded), levels, str(path))
    recorded = read_record(record, [item.level for item in loaded]) if record is not None else {}
    name = portable(str(path))
    return [
        Instance(f"{name}#{n}" if len(loaded) > 1 else name, default_class, loaded[n - 1].level,
                 digest(loaded[n - 1].level), recorded[n].plan if n in recorded else "")
        for n in chosen
    ]


GRID = Table({
    "time_limit": Said(Number(0.01, TIME_LIMIT_MAX), f"seconds above 0 (a number, at most {TIME_LIMIT_MAX:g})"),
    "memory_limit": Said(Number(1, 10**7, whole=True), "MB, a whole number from 1"),
    "max_horizon": Number(0, 100_000, whole=True),
    "encodings": Said(ListOf(Text(64)), 'a list of encoding names, e.g. ["push"]'),
    "strategies": Said(ListOf(ListOf(Text(64), least=0)), 'a list of strategy sets, e.g. [[], ["dead"]]'),
    "clingo_options": Said(ListOf(ListOf(Text(200), least=0)), 'a list of option lists, e.g. [[], ["--configuration=crafty"]]'),
    "start_factors": Said(ListOf(Number(1, 1000, whole=True)), "whole numbers >= 1 (1 to 1000), e.g. [1, 3]"),
    "phases": Said(ListOf(ListOf(Either(Text(200), Table(open=True)), least=0)),
                   'a list of phase lists, e.g. [[], ["box-search=100k"], ["goal-room=60k", "staged=300k"]]'),
    "interleave": Said(ListOf(Number(1, 1000, whole=True)), "whole numbers >= 1 (1: horizons one after another)"),
    "instances": ListOf(Table({"path": Text(), "class": Text(64), "levels": Either(Text(20_000), Number(1, 10**9, whole=True)),
                               "record": Text()}, required=frozenset({"path"}))),
})  # a grid file, checked whole before any level is read


def read_spec(path: Path) -> GridSpec:
    source = str(path)
    data, _ = read_toml(path, GRID)
    instances = []
    for entry in data.get("instances", []):
        record = entry.get("record")
        levels = entry.get("levels")
        instances += load_instances(beside(path, entry["path"]), entry.get("class"), None if levels is None else str(levels),
                                    beside(path, record) if record is not None else None)
    return build_spec(
        instances,
        [member_beside(path, name) for name in data.get("encodings", ["incremental"])],
        [tuple(member_beside(path, name) for name in s) for s in data.get("strategies", [[]])],
        [tuple(o) for o in data.get("clingo_options", [[]])],
        float(data.get("time_limit", 60)),
        data.get("memory_limit"),
        int(data.get("max_horizon", SolveConfig.max_horizon)),
        source,
        data.get("start_factors", [1]),
        phase_lists(data.get("phases", [[]]), source),
        data.get("interleave", [1]),
    )


def phase_lists(value: list[list[str | dict[str, Any]]], source: str) -> list[tuple[PhaseRun, ...]]:
    """The ``phases`` axis (its shape checked by ``GRID``): each phase a "NAME[=WORK][:KEY=VALUE,...]"
    string or a table with ``name``, ``work`` and the phase's settings."""
    try:
        return [parse_phases(runs) for runs in value]
    except InputError as error:
        raise InputError(error.problem, source) from None


def member_beside(spec: Path, named: str) -> str:
    """An encoding or strategy named in the grid file ``spec``: a registered name as it is, a
    user's file or folder relative to the grid file's folder."""
    return str(beside(spec, named)) if is_path(named) else named


def beside(spec: Path, named: str) -> Path:
    """A path named in the grid file ``spec``: relative to the file's folder unless absolute."""
    return Path(named) if Path(named).is_absolute() else (spec.parent / named).resolve()


def build_spec(
    instances: list[Instance],
    encodings: list[str],
    strategy_sets: list[tuple[str, ...]],
    clingo_options: list[tuple[str, ...]],
    time_limit: float,
    memory_limit: int | None,
    max_horizon: int,
    source: str = "<grid>",
    start_factors: list[int] | None = None,
    phases: list[tuple[PhaseRun, ...]] | None = None,
    interleave: list[int] | None = None,
) -> GridSpec:
    if not instances:
        raise InputError("the grid has no instances", source)
    try:
        for name in encodings:
            if name not in OWN_CONFIGURATIONS:
                get_encoding(name)
        for strategies in strategy_sets:
            for name in strategies:
                get_strategy(name)
    except InputError as error:
        raise error if error.source else InputError(error.problem, source) from None
    if time_limit <= 0:
        raise InputError("time_limit must be > 0", source)
    for options in clingo_options:
        check_clingo_args(options, source)
    factors = start_factors or [1]
    if not whole_numbers_from_one(factors):
        raise InputError(f"start_factors must be whole numbers >= 1, not {factors!r}", source)
    widths = interleave or [1]
    if not whole_numbers_from_one(widths):
        raise InputError(f"interleave must list whole numbers >= 1 (1: horizons one after another), not {widths!r}", source)
    return GridSpec(instances, list(encodings), strategy_sets or [()], clingo_options or [()], time_limit,
                    memory_limit, max_horizon, factors, phases or [()], widths)


def whole_numbers_from_one(values: Sequence[object]) -> bool:
    """TOML integers >= 1 (not booleans, which Python counts as integers)."""
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)
