"""One way to build and check a run's configuration, for the command line, grid files and the
portfolio's members alike: ``config_from_table`` reads a table of settings (TOML, or the CLI's
options) into a ``SolveConfig`` with one default per setting (``SolveConfig``'s own), and
``check_config`` refuses a configuration that cannot run, before any work starts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields

from sokoasp.asp.clingo_options import check_clingo_args
from sokoasp.asp.encodings import ENCODINGS, Encoding, get_encoding
from sokoasp.asp.horizon_loops import DESCENDING_FAMILIES
from sokoasp.asp.strategies import check_supported, get_strategy
from sokoasp.config import SolveConfig
from sokoasp.errors import InputError
from sokoasp.phases import check_phases, checks_strategies, parse_phases
from sokoasp.registry import is_path

HORIZON_MAX = 100_000  # steps: far beyond any plan clingo grounds in memory


def whole(low: int, high: int) -> tuple[Callable[[object], bool], str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high), f"a whole number from {low} to {high}"


# A table's keys: each with its check and what it must be. Every other field of SolveConfig
# (the time limit) is set by whoever runs the configuration.
KEYS: dict[str, tuple[Callable[[object], bool], str]] = {
    "encoding": ((lambda v: isinstance(v, str)), "an encoding name (`sokoasp encodings`) or the path of your own"),
    "strategies": ((lambda v: isinstance(v, list | tuple) and all(isinstance(n, str) for n in v)),
                   "a list of strategy names (`sokoasp strategies`) or paths of your own"),
    "phases": ((lambda v: isinstance(v, list | tuple)), 'a list of phases, e.g. ["box-search=100k", "staged=300k:end-game=off"]'),
    "horizon": whole(0, HORIZON_MAX),
    "min_horizon": whole(0, HORIZON_MAX),
    "start_factor": whole(1, 1000),
    "max_horizon": whole(0, HORIZON_MAX),
    "clingo_args": ((lambda v: isinstance(v, list | tuple) and all(isinstance(a, str) for a in v)),
                    'a list of clingo options, e.g. ["--configuration=crafty"]'),
    "interleave": whole(1, 100),
    "descend": ((lambda v: isinstance(v, bool)), "true or false"),
}
assert set(KEYS) <= {item.name for item in fields(SolveConfig)}


def config_from_table(table: Mapping[str, object], source: str = "") -> SolveConfig:
    """A configuration from ``table`` (keys of ``KEYS``; a missing key keeps SolveConfig's
    default); raises InputError naming ``source``, the key and what it must be."""
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r} (known: {', '.join(KEYS)})", source or None)
    values: dict[str, object] = {}
    for key, value in table.items():
        fits, what = KEYS[key]
        if value is None and key == "horizon":
            continue
        if not fits(value):
            raise InputError(f"{key} must be {what}, not {value!r}", source or None)
        values[key] = tuple(value) if isinstance(value, list | tuple) else value  # type: ignore[arg-type]
    try:
        if "phases" in values:
            values["phases"] = parse_phases(values["phases"])  # type: ignore[arg-type]
    except InputError as error:
        raise InputError(error.problem, source or None) from None
    try:
        get_encoding(str(values.get("encoding", SolveConfig.encoding)))
        if "strategies" in values:  # a registered name in its own case; a path as given
            values["strategies"] = tuple(name if is_path(name) else get_strategy(name).name
                                         for name in values["strategies"])  # type: ignore[attr-defined]
    except InputError as error:
        raise error if error.source else InputError(error.problem, source or None) from None
    return SolveConfig(**values)  # type: ignore[arg-type]


def check_config(config: SolveConfig) -> Encoding:
    """Refuse a configuration that cannot run (raises InputError), before any work starts."""
    encoding = get_encoding(config.encoding)
    if not encoding.incremental and config.horizon is None:
        raise InputError(f"encoding {encoding.name!r} needs a horizon: give --horizon N or #const horizon in the file")
    if config.interleave > 1 and not encoding.jumps:
        raise InputError(f"--interleave needs a jump family (its horizon h admits every plan of up to h steps: "
                         f"{', '.join(e.name for e in ENCODINGS.values() if e.jumps)}), not {encoding.name!r}")
    if config.descend and encoding.name not in DESCENDING_FAMILIES:
        raise InputError(f"--descend needs a family whose horizon h admits every plan of up to h of its unit "
                         f"({', '.join(DESCENDING_FAMILIES)}), not {encoding.name!r}")
    if not checks_strategies(config):
        check_supported(config.strategies, encoding.name)
    check_phases(config)
    check_clingo_args(config.clingo_args)
    return encoding
