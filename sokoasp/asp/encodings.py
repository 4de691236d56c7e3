"""Registry of the encoding families: file, time-step meaning, and how they are driven."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from sokoasp.errors import InputError


@dataclass(frozen=True)
class Encoding:
    name: str
    files: tuple[str, ...]
    incremental: bool  # driven by the multi-shot loop (base/step/check) or a fixed horizon
    unit: str  # what one time step is: "move" or "push"
    source: str  # where it comes from
    summary: str
    jumps: bool = False  # horizon h admits all plans up to h: grow h geometrically
    proves_optimum: bool = True  # is the first plan of the horizon loop always optimal in its unit?
    step: str = ""  # what one time step is, for people (default: one <unit>)
    planner: str = ""  # an external planner instead of clingo ("fast-downward")
    first_horizon: str = "pushes"  # proven lower bound the loop starts at: "pushes", "slides", "parallel-slides" or "boxes"
    reverse: bool = False  # plans backwards from the goals (sokoasp.asp.reverse_facts gives the facts)
    reads_rim: bool = False  # reads the walls' parts, rim/3 (sokoasp.sokoban.obstacles)

    @property
    def step_text(self) -> str:
        return self.step or f"one {self.unit}"


ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in [
        Encoding("plain", ("plain.lp",), False, "move", "thesis listing 4.2",
                 "one player step per time point, fixed horizon"),
        Encoding("incremental", ("incremental.lp",), True, "move", "thesis listing 4.3",
                 "grows the horizon: a shortest plan in moves"),
        Encoding("split", ("split.lp",), False, "move", "thesis listing 4.4",
                 "x/y in separate atoms, fixed horizon"),
        Encoding("split-incremental", ("split-incremental.lp",), True, "move", "thesis listing 4.4 + 4.3",
                 "x/y in separate atoms, shortest plan in moves"),
        Encoding("push", ("push-core.lp", "push.lp"), True, "push", "beyond the thesis",
                 "one push per step, player walks between: a push-optimal plan"),
        Encoding("push-jump", ("push-core.lp", "push-jump.lp"), True, "push", "beyond the thesis",
                 "at most one push per step, horizon grown x1.5: fast, not optimal", jumps=True,
                 proves_optimum=False, step="at most one push"),
        Encoding("push-parallel", ("push-core.lp", "push-parallel.lp"), True, "push", "beyond the thesis",
                 "sets of independent pushes per step: short horizons, not push-optimal",
                 proves_optimum=False, step="a set of independent pushes"),
        Encoding("push-macro", ("push-core.lp", "push-slides.lp", "push-macro.lp"), True, "push", "beyond the thesis",
                 "one box pushed any distance in a line per step, horizon grown x1.5: fast, not optimal",
                 jumps=True, proves_optimum=False, step="at most one straight slide of one box",
                 first_horizon="slides"),
        Encoding("push-macro-parallel", ("push-core.lp", "push-slides.lp", "push-macro-parallel.lp"), True, "push", "beyond the thesis",
                 "sets of independent slides per step, horizon grown x1.5: shortest horizons, not optimal",
                 jumps=True, proves_optimum=False, step="a set of independent straight slides",
                 first_horizon="parallel-slides"),
        Encoding("push-route", ("push-core.lp", "route-core.lp", "push-route.lp"), True, "push", "beyond the thesis",
                 "one box moved along any route per step, horizon grown x1.5: fewest box moves, not optimal",
                 jumps=True, proves_optimum=False, step="at most one box moved along a route of pushes",
                 first_horizon="boxes", reads_rim=True),
        Encoding("pull-route", ("push-core.lp", "route-core.lp", "pull-route.lp"), True, "push", "beyond the thesis",
                 "push-route backwards: boxes pulled from the goals to their start squares; fewest box moves, not optimal",
                 jumps=True, proves_optimum=False, step="at most one box pulled along a route (played back as pushes)",
                 first_horizon="boxes", reverse=True, reads_rim=True),
        Encoding("fast-downward", (), True, "move", "IPC-style PDDL, A* with LM-cut",
                 "classical planner reference (pip install 'sokoasp[classical]'): move-optimal",
                 step="one move (PDDL action)", planner="fast-downward"),
    ]
}


def optimises(encoding: Encoding) -> str:
    """What a first plan of the horizon loop is optimal for: "moves" or "pushes"."""
    return {"move": "moves", "push": "pushes"}[encoding.unit]


def encodings_dir() -> Path:
    """The installed encodings, or a checkout's encodings/ folder when run from the source tree
    (found by the import system's spec: importlib.resources takes a tenth of a solve's start-up)."""
    spec = importlib.util.find_spec("sokoasp.encodings")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parents[2] / "encodings"


def get_encoding(name: str) -> Encoding:
    try:
        return ENCODINGS[name]
    except KeyError:
        raise InputError(f"unknown encoding {name!r}; choose from {', '.join(ENCODINGS)}") from None


def encoding_paths(encoding: Encoding) -> list[Path]:
    return [encodings_dir() / name for name in encoding.files]
