"""Reading and writing the thesis fact format (listing 4.1) with a parser of our own.

Accepted statements, one or more per line, ``%`` and ``%* *%`` comments allowed::

    #const dimX = 5.   #const dimY = 4.   #const horizon = 23.
    init(field(1..5, 1..4)).      % pools or single numbers
    init(at(0, 1, 2)).            % the player
    init(at(3, 3, 1)).            % box 3
    init(target(1, 4)).

Anything else (rules, ``#script``, ``#include``, other predicates) is rejected with the
file, line and reason. A user's file is never handed to clingo.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from sokoasp.board.level import DIRECTIONS, MAX_SIDE, Cell, Level, add
from sokoasp.errors import InputError

CONSTANTS = ("dimX", "dimY", "horizon")
NUMBER = r"-?[0-9]+"  # ASCII digits only, as clingo reads them
MOST_DIGITS = 6  # no coordinate, object number or horizon of a level needs more
MOST_HORIZON = 100_000
MOST_POOL_CELLS = 4 * MAX_SIDE * MAX_SIDE  # cells all pools of a file may name: a level's floor and goals, twice over
RANGE = rf"(?:{NUMBER})(?:\s*\.\.\s*(?:{NUMBER}))?"
STATEMENT = re.compile(r"((?:[^.]|\.\.)+?)\.(?!\.)", re.S)  # a statement and its period (not a pool's ``..``)
STATEMENTS = {
    "const": re.compile(rf"#const\s+(\w+)\s*=\s*({NUMBER})"),
    "field": re.compile(rf"init\(\s*field\(\s*({RANGE})\s*,\s*({RANGE})\s*\)\s*\)"),
    "target": re.compile(rf"init\(\s*target\(\s*({RANGE})\s*,\s*({RANGE})\s*\)\s*\)"),
    "at": re.compile(rf"init\(\s*at\(\s*({NUMBER})\s*,\s*({NUMBER})\s*,\s*({NUMBER})\s*\)\s*\)"),
}


@dataclass(frozen=True)
class FactFile:
    """A level read from the fact format, with the constants the file gave."""

    level: Level
    horizon: int | None


def strip_comments(text: str, source: str) -> str:
    """Blank out comments, keeping newlines so line numbers stay right."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = re.sub(r"%\*.*?\*%", blank, text, flags=re.S)
    if "%*" in text:
        raise InputError("unterminated block comment '%*'", source, text[: text.index("%*")].count("\n") + 1)
    return re.sub(r"%[^\n]*", blank, text)


def statements(text: str, source: str) -> Iterator[tuple[int, str]]:
    """The ``(line, statement)`` pairs in order; every statement must end with a period. Lines
    are counted as the text is walked, so a parse is linear in the file."""
    position, line = 0, 1
    for match in STATEMENT.finditer(text):
        gap = text[position : match.start()]
        if gap.strip():
            break
        body = match.group(1)
        line += text.count("\n", position, match.start() + len(body) - len(body.lstrip()))
        yield line, " ".join(body.split())
        line += body.count("\n", len(body) - len(body.lstrip()))
        position = match.end()
    rest = text[position:]
    if rest.strip():
        line += text.count("\n", position, position + len(rest) - len(rest.lstrip()))
        raise InputError(f"statement not ended by a period: {rest.strip()[:40]!r}", source, line)


def number(text: str, source: str, line: int) -> int:
    """A number of the file, refused when it has more digits than any level needs."""
    if len(text.lstrip("-")) > MOST_DIGITS:
        raise InputError(f"the number {text[:12]}... has more than {MOST_DIGITS} digits", source, line)
    return int(text)


def coordinate(text: str, source: str, line: int) -> int:
    value = number(text, source, line)
    if not 1 <= value <= MAX_SIDE:
        raise InputError(f"coordinate {value} lies outside 1..{MAX_SIDE}", source, line)
    return value


def expand(pool: str, source: str, line: int) -> range:
    """The numbers of a pool ``L..H`` (or one number), checked before any is made."""
    low, _, high = pool.partition("..")
    return range(coordinate(low, source, line), coordinate(high or low, source, line) + 1)


def read_facts(text: str, source: str) -> FactFile:
    """The level and constants of a fact file; its pools together may name at most ``MOST_POOL_CELLS``
    cells, so a parse costs at most a few times a full board's cells."""
    constants: dict[str, int] = {}
    fields: set[Cell] = set()
    targets: set[Cell] = set()
    objects: dict[int, tuple[Cell, int]] = {}
    named = 0
    for line, statement in statements(strip_comments(text, source), source):
        kind, match = classify(statement, source, line)
        if kind == "const":
            name, value = match.group(1), number(match.group(2), source, line)
            if name not in CONSTANTS:
                raise InputError(f"unknown constant {name!r} (expected one of {', '.join(CONSTANTS)})", source, line)
            if name in constants:
                raise InputError(f"#const {name} is given twice", source, line)
            top = MOST_HORIZON if name == "horizon" else MAX_SIDE
            if not (0 if name == "horizon" else 1) <= value <= top:
                raise InputError(f"#const {name} = {value} lies outside {0 if name == 'horizon' else 1}..{top}", source, line)
            constants[name] = value
        elif kind in ("field", "target"):
            xs, ys = expand(match.group(1), source, line), expand(match.group(2), source, line)
            named += len(xs) * len(ys)
            if named > MOST_POOL_CELLS:
                raise InputError(f"the pools up to here name more than {MOST_POOL_CELLS} cells (a level has at most "
                                 f"{MAX_SIDE}x{MAX_SIDE})", source, line)
            cells = {(x, y) for x in xs for y in ys}
            (fields if kind == "field" else targets).update(cells)
        else:
            ident = number(match.group(1), source, line)
            cell = (coordinate(match.group(2), source, line), coordinate(match.group(3), source, line))
            if ident < 0:
                raise InputError(f"object numbers must be >= 0, got {ident}", source, line)
            if ident in objects:
                raise InputError(f"object {ident} is placed twice (first on line {objects[ident][1]})", source, line)
            objects[ident] = (cell, line)
    return build(constants, fields, targets, objects, source)


def classify(statement: str, source: str, line: int) -> tuple[str, re.Match[str]]:
    for kind, pattern in STATEMENTS.items():
        match = pattern.fullmatch(statement)
        if match:
            return kind, match
    if ":-" in statement:
        reason = "rules are not allowed in a level file"
    elif statement.startswith("#"):
        reason = f"directive {statement.split()[0]!r} is not allowed in a level file"
    else:
        reason = "expected #const dimX/dimY/horizon or init(field/at/target(...)) fact"
    raise InputError(f"{reason}: {statement[:60]!r}", source, line)


def build(
    constants: dict[str, int],
    fields: set[Cell],
    targets: set[Cell],
    objects: dict[int, tuple[Cell, int]],
    source: str,
) -> FactFile:
    if not fields:
        raise InputError("no init(field(X,Y)) facts", source)
    if 0 not in objects:
        raise InputError("no player: expected init(at(0,X,Y))", source)
    width = constants.get("dimX", max(x for x, _ in fields))
    height = constants.get("dimY", max(y for _, y in fields))
    for ident, (cell, line) in objects.items():
        if cell not in fields:
            raise InputError(f"object {ident} at {cell} is not on a field", source, line)
    bad = [c for c in fields | targets if not (1 <= c[0] <= width and 1 <= c[1] <= height)]
    if bad:
        raise InputError(f"cell {min(bad)} lies outside 1..dimX x 1..dimY ({width}x{height})", source)
    cells = [cell for cell, _ in objects.values()]
    if len(set(cells)) != len(cells):
        raise InputError("two objects share one cell", source)
    boxes = frozenset(cell for ident, (cell, _) in objects.items() if ident > 0)
    floor = connected(frozenset(fields), [objects[0][0], *sorted(boxes), *sorted(targets)])
    try:
        level = Level(floor, boxes, frozenset(targets), objects[0][0])
    except InputError as error:
        raise error.at(source) from None
    horizon = constants.get("horizon")
    if horizon is not None and horizon < 0:
        raise InputError("#const horizon must be >= 0", source)
    return FactFile(level, horizon)


def connected(fields: frozenset[Cell], starts: list[Cell]) -> frozenset[Cell]:
    """The fields the player, a box or a goal can reach: floor no one can enter is no part of the
    level (the XSB reader floods from the same squares, so both formats give the same level)."""
    seen, todo = set(starts), list(starts)
    while todo:
        cell = todo.pop()
        for delta in DIRECTIONS.values():
            near = add(cell, delta)
            if near in fields and near not in seen:
                seen.add(near)
                todo.append(near)
    return frozenset(seen)


def write_facts(level: Level, horizon: int | None = None) -> str:
    """The fact format of a level; rectangular runs of fields are written as pools."""
    lines = []
    if level.title:  # a line comment that cannot open a block comment or end early
        lines.append("% " + " ".join(level.title.replace("%*", "% *").replace("*%", "* %").split()))
    if horizon is not None:
        lines.append(f"#const horizon = {horizon}.")
    lines += [f"#const dimX = {level.width}.", f"#const dimY = {level.height}."]
    lines += [f"init(field({pools}))." for pools in field_pools(level.floor)]
    lines.append(f"init(at(0,{level.player[0]},{level.player[1]})).")
    for number, (x, y) in enumerate(sorted(level.boxes, key=lambda c: (c[1], c[0])), start=1):
        lines.append(f"init(at({number},{x},{y})).")
    for x, y in sorted(level.goals, key=lambda c: (c[1], c[0])):
        lines.append(f"init(target({x},{y})).")
    return "\n".join(lines) + "\n"


def field_pools(floor: frozenset[Cell]) -> list[str]:
    """Row runs ``X1..X2,Y``, with a single pool ``1..W,1..H`` for full rectangles."""
    xs = sorted({x for x, _ in floor})
    ys = sorted({y for _, y in floor})
    full = {(x, y) for x in range(xs[0], xs[-1] + 1) for y in range(ys[0], ys[-1] + 1)}
    if floor == full:
        return [f"{pool(xs[0], xs[-1])},{pool(ys[0], ys[-1])}"]
    pools = []
    for y in ys:
        row = sorted(x for x, yy in floor if yy == y)
        start = row[0]
        for previous, x in zip(row, [*row[1:], None], strict=True):
            if x is None or x != previous + 1:
                pools.append(f"{pool(start, previous)},{y}")
                start = x if x is not None else start
    return pools


def pool(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


def digest(level: Level) -> str:
    """A short hash of the level's canonical facts (its title left out): the same level, wherever
    its file is, has the same digest (grid databases and plan records match levels by it)."""
    import hashlib  # here: a solve needs no digest

    return hashlib.sha256(write_facts(level.with_title("")).encode()).hexdigest()[:16]
