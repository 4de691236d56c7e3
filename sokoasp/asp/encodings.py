"""Registry of the encoding families: file, time-step meaning, and how they are driven. Each
family's main file says so in its header (``FAMILY_KEYS``, see ``sokoasp.asp.headers``); the
registry reads the shipped files', installed plugins' and a user's file named by path alike."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from sokoasp.asp.headers import read_header
from sokoasp.registry import Registry, of_type


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


FAMILY_KEYS = frozenset({"encoding", "summary", "source", "unit", "driven", "uses", "optimal", "horizon", "step",
                         "first-horizon", "reverse", "reads-rim"})
FIRST_HORIZONS = ("pushes", "slides", "parallel-slides", "boxes")
SHIPPED_FAMILIES = ("plain", "incremental", "split", "split-incremental", "push", "push-jump", "push-parallel", "push-macro",
                    "push-macro-parallel", "push-route", "pull-route")  # each read from its file's header, in this order
FAST_DOWNWARD = Encoding("fast-downward", (), True, "move", "IPC-style PDDL, A* with LM-cut",
                         "classical planner reference (pip install 'sokoasp[classical]'): move-optimal",
                         step="one move (PDDL action)", planner="fast-downward")


def encoding_from_file(path: Path) -> Encoding:
    """The encoding family whose main file is ``path``, from its header (``FAMILY_KEYS``): the
    shipped building blocks it ``uses`` (push-core.lp, push-slides.lp, route-core.lp) are loaded
    before it. Raises InputError naming the file and line of anything wrong."""
    header = read_header(path, FAMILY_KEYS)
    uses = header.words("uses", "")
    for name in uses:
        if "/" in name or not (encodings_dir() / name).is_file():
            raise header.error(f"uses names shipped files of encodings/ such as push-core.lp, not {name!r}", "uses")
    return Encoding(
        name=header.name("encoding"),
        files=(*uses, path.name if path.parent == encodings_dir() else str(path.resolve())),
        incremental=header.choice("driven", ("incremental", "fixed")) == "incremental",
        unit=header.choice("unit", ("move", "push")),
        source=header.text("source", "user file"),
        summary=header.text("summary"),
        jumps=header.choice("horizon", ("steps", "jumps"), "steps") == "jumps",
        proves_optimum=header.choice("optimal", ("yes", "no")) == "yes",
        step=header.text("step", ""),
        first_horizon=header.choice("first-horizon", FIRST_HORIZONS, "pushes"),
        reverse=header.flag("reverse"),
        reads_rim=header.flag("reads-rim"),
    )


def shipped_encodings() -> list[Encoding]:
    return [encoding_from_file(encodings_dir() / f"{name}.lp") for name in SHIPPED_FAMILIES] + [FAST_DOWNWARD]


ENCODINGS: Registry[Encoding] = Registry("encoding", "sokoasp.encodings", shipped_encodings, encoding_from_file,
                                         of_type(Encoding, "encoding"))


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
    """The encoding family registered as ``name``, or read from the file ``name`` spells."""
    return ENCODINGS.get_member(name)


def encoding_paths(encoding: Encoding) -> list[Path]:
    """The files of ``encoding`` in loading order (a user's file by its own path)."""
    return [encodings_dir() / name for name in encoding.files]
