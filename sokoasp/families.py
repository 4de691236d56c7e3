"""Registry of the encoding families: file, time-step meaning, and how they are driven."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import InputError


@dataclass(frozen=True)
class Encoding:
    name: str
    file: str
    incremental: bool  # driven by the multi-shot loop (base/step/check) or a fixed horizon
    unit: str  # what one time step is: "move" or "push"
    source: str  # where it comes from
    summary: str


ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in [
        Encoding("plain", "plain.lp", False, "move", "thesis listing 4.2",
                 "one player step per time point, fixed horizon"),
        Encoding("incremental", "incremental.lp", True, "move", "thesis listing 4.3",
                 "grows the horizon: a shortest plan in moves"),
        Encoding("split", "split.lp", False, "move", "thesis listing 4.4",
                 "x/y in separate atoms, fixed horizon"),
        Encoding("split-incremental", "split-incremental.lp", True, "move", "thesis listing 4.4 + 4.3",
                 "x/y in separate atoms, shortest plan in moves"),
    ]
}


def encodings_dir() -> Path:
    return Path(str(resources.files("sokoasp.encodings")))


def get_encoding(name: str) -> Encoding:
    try:
        return ENCODINGS[name]
    except KeyError:
        raise InputError(f"unknown encoding {name!r}; choose from {', '.join(ENCODINGS)}") from None


def encoding_path(encoding: Encoding) -> Path:
    return encodings_dir() / encoding.file
