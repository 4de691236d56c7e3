"""Open a level file of either format and pick one level from it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sokoasp.board.facts import read_facts
from sokoasp.board.level import Level
from sokoasp.board.xsb import read_levels
from sokoasp.errors import InputError

FACT_SUFFIXES = {".lp", ".asp"}
MAX_FILE_BYTES = 20_000_000


@dataclass(frozen=True)
class LoadedLevel:
    level: Level
    source: str
    horizon: int | None = None  # the file's #const horizon, if any


def read_text(path: Path) -> str:
    """The text of an input file (a level, a recipe, a grid file, a runs CSV): a regular file of at
    most ``MAX_FILE_BYTES`` bytes of UTF-8 (a byte-order mark is dropped); devices, pipes and
    folders are refused before anything is read."""
    source = str(path)
    if not path.exists():
        raise InputError("no such file", source)
    if path.is_dir():
        raise InputError("is a directory, expected a file", source)
    if not path.is_file():
        raise InputError("not a regular file (a device or a pipe?): give a file", source)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot be read: {error.strerror}", source) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"file larger than {MAX_FILE_BYTES} bytes", source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", source) from None
    if not text.strip():
        raise InputError("the file is empty", source)
    return text


def is_fact_format(path: Path, text: str) -> bool:
    if path.suffix.lower() in FACT_SUFFIXES:
        return True
    if path.suffix.lower() in {".sok", ".xsb", ".txt"}:
        return False
    return "init(" in text


def load_all(path: Path | str) -> list[LoadedLevel]:
    """Every level in a file (a fact file holds exactly one)."""
    path = Path(path)
    text = read_text(path)
    source = str(path)
    if is_fact_format(path, text):
        facts = read_facts(text, source)
        return [LoadedLevel(facts.level.with_title(path.stem), source, facts.horizon)]
    return [LoadedLevel(level, source) for level in read_levels(text, source)]


def load_level(path: Path | str, which: str | None = None) -> LoadedLevel:
    """One level: the only one, or the ``which``-th (1-based) / the one titled ``which``."""
    levels = load_all(path)
    if which is None:
        if len(levels) > 1:
            raise InputError(
                f"the file holds {len(levels)} levels: choose one with --level N (1..{len(levels)}) or a title",
                str(path),
            )
        return levels[0]
    if which.isascii() and which.isdigit():  # other scripts' digits are a title's
        index = int(which) if len(which) <= 9 else 0  # no collection holds a billion levels
        if not 1 <= index <= len(levels):
            shown = which if len(which) <= 12 else which[:12] + "..."
            raise InputError(f"--level {shown} is out of range 1..{len(levels)}", str(path))
        return levels[index - 1]
    for loaded in levels:
        if loaded.level.title == which or loaded.level.title.endswith(f" {which}"):
            return loaded
    raise InputError(f"no level titled {which!r}", str(path))
