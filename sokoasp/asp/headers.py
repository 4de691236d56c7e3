"""Member headers: the ``%!`` lines an encoding or strategy file opens with, read into a typed
table. The registries are built from them, the shipped files' as a user's, so what a member is,
which families it serves and the soundness it claims are written once, in its file.

A header is the run of ``%! key: value`` lines among the comments before the file's first rule;
each key at most once, each value on its line. The rest of the file is the program, read by
clingo as the program it is (``sokoasp.asp.session``); level data never goes this way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sokoasp.errors import InputError

MARK = "%!"
MOST_BYTES = 1_000_000  # a member file: far above the largest shipped one (12 KB), bounds reading a wrong path
LINE = re.compile(r"%!\s*([a-z][a-z-]*)\s*:\s*(.*?)\s*$")
NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")  # a member's name: what a command line or grid file spells


@dataclass(frozen=True)
class Header:
    """The header of ``path``: each key's value and line."""

    path: Path
    values: dict[str, str]
    lines: dict[str, int]

    def error(self, problem: str, key: str | None = None) -> InputError:
        return InputError(problem, str(self.path), self.lines.get(key) if key else None)

    def text(self, key: str, default: str | None = None) -> str:
        """The value of ``key``; without a default, a missing key is an error."""
        if key in self.values:
            return self.values[key]
        if default is None:
            raise self.error(f"the header has no {key!r} line (`{MARK} {key}: ...`); see docs/extending.md")
        return default

    def words(self, key: str, default: str | None = None) -> tuple[str, ...]:
        return tuple(self.text(key, default).replace(",", " ").split())

    def choice(self, key: str, choices: tuple[str, ...], default: str | None = None) -> str:
        value = self.text(key, default)
        if value not in choices:
            raise self.error(f"{key} must be one of {', '.join(choices)}, not {value!r}", key)
        return value

    def flag(self, key: str) -> bool:
        return self.choice(key, ("yes", "no"), "no") == "yes"

    def name(self, key: str) -> str:
        value = self.text(key)
        if not NAME.fullmatch(value):
            raise self.error(f"{key} must be a name of lower-case letters, digits and dashes, not {value!r}", key)
        return value


def read_header(path: Path, keys: frozenset[str]) -> Header:
    """The header of the member file ``path``, whose keys must be among ``keys``; raises
    InputError naming the file and line of anything wrong (no header, an unknown or repeated key,
    a file too large or not UTF-8)."""
    text = read_member_text(path)
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            break  # the program starts: the header is over
        if not stripped.startswith(MARK):
            continue
        match = LINE.fullmatch(stripped)
        if not match:
            raise InputError(f"a header line is `{MARK} key: value`, not {stripped[:60]!r}", str(path), number)
        key, value = match.groups()
        if key not in keys:
            raise InputError(f"unknown header key {key!r} (known: {', '.join(sorted(keys))})", str(path), number)
        if key in values:
            raise InputError(f"header key {key!r} is given twice (first on line {lines[key]})", str(path), number)
        values[key], lines[key] = value, number
    if not values:
        raise InputError(f"the file has no header: it must open with `{MARK} key: value` lines saying what it is "
                         "(see docs/extending.md)", str(path))
    return Header(path, values, lines)


def read_member_text(path: Path) -> str:
    """The text of a member file, bounded and decoded; an InputError names what is wrong."""
    try:
        if not path.is_file():
            raise InputError("no such file" if not path.exists() else "not a regular file", str(path))
        with path.open("rb") as handle:
            data = handle.read(MOST_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", str(path)) from None
    if len(data) > MOST_BYTES:
        raise InputError(f"larger than {MOST_BYTES:,} bytes: not a member file", str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", str(path)) from None
