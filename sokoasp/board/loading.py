"""Open a level file of either format and pick one level from it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sokoasp.board.facts import read_facts
from sokoasp.board.level import Level
from sokoasp.board.xsb import board_to_level, split_collection
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
        return [fact_level(path, text)]
    return [LoadedLevel(board_to_level(board, source), source) for board in split_collection(text, source)]


def load_level(path: Path | str, which: str | None = None) -> LoadedLevel:
    """One level: the only one, or the ``which``-th (1-based) / the one titled ``which``. Only the
    chosen board of a collection is turned into a level."""
    path = Path(path)
    text = read_text(path)
    if is_fact_format(path, text):
        boards = None
        count, titles = 1, [path.stem]
    else:
        boards = split_collection(text, str(path))
        count, titles = len(boards), [board.title for board in boards]
    index = chosen(which, count, titles, str(path))
    if boards is None:
        return fact_level(path, text)
    return LoadedLevel(board_to_level(boards[index], str(path)), str(path))


def fact_level(path: Path, text: str) -> LoadedLevel:
    facts = read_facts(text, str(path))
    return LoadedLevel(facts.level.with_title(path.stem), str(path), facts.horizon)


def chosen(which: str | None, count: int, titles: list[str], source: str) -> int:
    """The 0-based index ``which`` names among ``count`` levels titled ``titles``."""
    if which is None:
        if count > 1:
            raise InputError(f"the file holds {count} levels: choose one with --level N (1..{count}) or a title", source)
        return 0
    if which.isascii() and which.isdigit():  # other scripts' digits are a title's
        index = int(which) if len(which) <= 9 else 0  # no collection holds a billion levels
        if not 1 <= index <= count:
            shown = which if len(which) <= 12 else which[:12] + "..."
            raise InputError(f"--level {shown} is out of range 1..{count}", source)
        return index - 1
    for index, title in enumerate(titles):
        if title == which or title.endswith(f" {which}"):
            return index
    raise InputError(f"no level titled {which!r}", source)
