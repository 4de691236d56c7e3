"""TOML input files (grid files, recipes) read and checked whole against one schema each, before
any value is used: every key known, every value of its kind and within its bounds, every text
free of NUL and bounded. An error names the file, the line where the key is, the key's place
(``instances[2].levels``), what it must be, and (shortened) what it holds."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sokoasp.board.loading import read_text
from sokoasp.errors import InputError

MOST_ITEMS = 10_000  # items of one list: far beyond any grid axis or recipe


class Schema:
    """What a value must be: ``fits`` says whether it is, ``what`` says it to the user."""

    what = "a value"

    def fits(self, value: object) -> bool:
        raise NotImplementedError

    def inner(self, value: Any) -> list[tuple[str, Schema, Any]]:
        """The parts of a fitting value to check in turn: (place suffix, schema, value)."""
        return []


@dataclass(frozen=True)
class Number(Schema):
    low: float
    high: float
    whole: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} from {self.low:g} to {self.high:g}"

    def fits(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float) or (self.whole and not isinstance(value, int)):
            return False
        return math.isfinite(value) and self.low <= value <= self.high


@dataclass(frozen=True)
class Text(Schema):
    most: int = 4096
    what: str = "a text"

    def fits(self, value: object) -> bool:
        return isinstance(value, str) and len(value) <= self.most and "\0" not in value


@dataclass(frozen=True)
class Flag(Schema):
    what: str = "true or false"

    def fits(self, value: object) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True)
class ListOf(Schema):
    item: Schema
    least: int = 1

    @property
    def what(self) -> str:  # type: ignore[override]
        return f"a list of {self.least} to {MOST_ITEMS} items, each {self.item.what}"

    def fits(self, value: object) -> bool:
        return isinstance(value, list) and self.least <= len(value) <= MOST_ITEMS

    def inner(self, value: Any) -> list[tuple[str, Schema, Any]]:
        return [(f"[{index + 1}]", self.item, item) for index, item in enumerate(value)]


@dataclass(frozen=True)
class Either(Schema):
    first: Schema
    second: Schema

    @property
    def what(self) -> str:  # type: ignore[override]
        return f"{self.first.what}, or {self.second.what}"

    def fits(self, value: object) -> bool:
        return self.first.fits(value) or self.second.fits(value)

    def inner(self, value: Any) -> list[tuple[str, Schema, Any]]:
        return [("", self.first if self.first.fits(value) else self.second, value)]


@dataclass(frozen=True)
class Table(Schema):
    """A TOML table with these keys (``required`` ones must be there); ``open``: any key of
    letters, digits and ``_``/``-`` with a scalar value (a phase's settings)."""

    keys: dict[str, Schema] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    open: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        if self.open:
            return "a table of names and plain values"
        needed = f" (needs {', '.join(sorted(self.required))})" if self.required else ""
        return f"a table with the keys {', '.join(self.keys)}{needed}"

    def fits(self, value: object) -> bool:
        if not isinstance(value, dict) or not self.required <= set(value):
            return False
        if self.open:
            return all(re.fullmatch(r"[\w-]{1,64}", key, re.A) and SCALAR.fits(item) for key, item in value.items())
        return set(value) <= set(self.keys)

    def inner(self, value: Any) -> list[tuple[str, Schema, Any]]:
        return [] if self.open else [(f".{key}", self.keys[key], item) for key, item in value.items()]


@dataclass(frozen=True)
class Said(Schema):
    """``schema``, described to the user as ``what`` (an example says more than a type)."""

    schema: Schema
    what: str  # type: ignore[misc]

    def fits(self, value: object) -> bool:
        return self.schema.fits(value)

    def inner(self, value: Any) -> list[tuple[str, Schema, Any]]:
        return self.schema.inner(value)


SCALAR = Either(Either(Text(200), Flag()), Number(-1e12, 1e12))


def read_toml(path: Path, schema: Table) -> tuple[dict[str, Any], str]:
    """The file's table, checked against ``schema``, and its text."""
    source = str(path)
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", source) from None
    except ValueError:  # an integer of more digits than Python converts
        raise InputError("a number of the file has thousands of digits", source) from None
    except RecursionError:
        raise InputError("lists or tables nested too deep", source) from None
    check(schema, data, "", source, text)
    return data, text


def check(schema: Schema, value: Any, place: str, source: str, text: str) -> None:
    """Raise InputError at the first part of ``value`` (at ``place``) that ``schema`` refuses."""
    if not schema.fits(value):
        where = place.lstrip(".")
        known = schema.keys if isinstance(schema, Table) and not schema.open else {}
        unknown = sorted(set(value) - set(known)) if known and isinstance(value, dict) else []
        if unknown:
            raise InputError(f"unknown key {unknown[0]!r}" + (f" in {where}" if where else "")
                             + f" (known: {', '.join(sorted(known))})", source,
                             line_of(text, unknown[0], occurrence(place + "." + unknown[0])))
        raise InputError(f"{where or 'the file'} must be {schema.what}, not {shown(value)}", source,
                         line_of(text, leaf(place), occurrence(place)) if leaf(place) else None)
    for suffix, part, item in schema.inner(value):
        check(part, item, place + suffix, source, text)


def shown(value: object) -> str:
    """A short rendering of any TOML value (a huge integer by its size)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 64:
        return f"a number of about {int(abs(value).bit_length() * math.log10(2)) + 1} digits"
    text = repr(value) if not isinstance(value, dict | list) else f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def leaf(place: str) -> str:
    """The last key of a place (``instances[2].levels`` -> ``levels``)."""
    found = re.findall(r"\.(\w+)", place)
    return found[-1] if found else ""


def occurrence(place: str) -> int:
    """Which occurrence of its key a place is: the 0-based index of its innermost table in a list."""
    found = re.findall(r"\[(\d+)\]\.\w+$", place)
    return int(found[-1]) - 1 if found else 0


def line_of(text: str, key: str, index: int = 0) -> int | None:
    """The line of the ``index``-th ``key = ...`` of the text (the last one when there are fewer)."""
    hits = [number for number, line in enumerate(text.splitlines(), start=1) if re.match(rf"\s*{re.escape(key)}\s*=", line)]
    return hits[index] if index < len(hits) else (hits[-1] if hits else None)
