"""Reading and writing XSB / .sok level text, single levels and collections.

``#`` wall, `` ``/``-``/``_`` floor, ``$`` box, ``.`` goal, ``*`` box on goal, ``@`` player,
``+`` player on goal; the Sokoban File Format's letters ``p``/``P``/``b``/``B`` for ``@``/``+``/``$``/``*``.
Lines starting with ``;`` are comments; the last comment before a board is its title. A board
row may be run-length encoded (``7#``, ``3(#-)``), several rows on one line split by ``|``;
inside a board, a row of only ``-``/``_`` is an empty interior row, not the board's end.
The column of a character is its x coordinate, its row within the board its y, so the usual
outer wall sits at x = 0 / y = 0 and the floor starts at 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.level import DIRECTIONS, MAX_SIDE, Cell, Level, add
from sokoasp.errors import InputError

BOARD_CHARS = set("#@+$*.-_ pPbB")
RUN_CHARS = set("0123456789()|")  # run-length encoding: counts, groups, and the row separator
SYNONYMS = str.maketrans("pPbB-_", "@+$*  ")  # the SOK format's letters and floor marks, as XSB
MOST_RUN_TEXT = 10_000  # characters one run-length encoded line may expand to (a file is data, not a bomb)
MOST_NESTING = 20  # run-length groups nested deeper than this are refused


@dataclass(frozen=True)
class BoardText:
    """The rows of one board (in XSB characters), the file line of each, and the title."""

    rows: list[str]
    lines: list[int]
    title: str

    @property
    def first_line(self) -> int:
        return self.lines[0]


def split_collection(text: str, source: str) -> list[BoardText]:
    """Split a file into its boards; text lines between boards are titles or notes."""
    boards: list[BoardText] = []
    rows: list[str] = []
    lines: list[int] = []
    title = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        found = board_rows(line, source, number)
        if found is None and rows and is_interior_row(line):
            found = [line]
        if found is not None:
            rows += [row.translate(SYNONYMS) for row in found]
            lines += [number] * len(found)
            continue
        if rows:
            boards.append(BoardText(rows, lines, title))
            rows, lines, title = [], [], ""
        stripped = line.strip()
        if stripped.startswith(";"):
            title = stripped.lstrip(";").strip()
        elif stripped.lower().startswith("title:") and boards and not boards[-1].title:
            last = boards[-1]
            boards[-1] = BoardText(last.rows, last.lines, stripped[6:].strip())
    if rows:
        boards.append(BoardText(rows, lines, title))
    if not boards:
        raise InputError("no Sokoban board found (empty file or no '#' walls)", source)
    return boards


def board_rows(line: str, source: str, number: int) -> list[str] | None:
    """The board rows a text line holds (run-length encoding expanded), or None for a line of
    text (a title, a note, a blank line)."""
    if is_run_length_line(line):
        rows = [row.rstrip() for row in expand_runs(line, source, number).split("|")]
        return rows if any("#" in row for row in rows) else None
    if not is_board_line(line):
        return None
    bad = next((c for c in line if c not in BOARD_CHARS), None)
    if bad is not None:
        raise InputError(f"unknown character {bad!r} in column {line.index(bad) + 1}", source, number)
    return [line]


def is_run_length_line(line: str) -> bool:
    """A board line written with counts or ``|`` (a line of digits alone is a title)."""
    stripped = line.strip()
    return (any(c in RUN_CHARS for c in stripped) and set(stripped) <= BOARD_CHARS | RUN_CHARS
            and "#" in stripped)


def expand_runs(text: str, source: str, number: int) -> str:
    """``3#`` -> ``###``, ``2(#-)`` -> ``#-#-`` (groups may nest); ``|`` is kept."""
    expanded, position = expand_group(text, 0, source, number, 0)
    if position < len(text):
        raise InputError(f"run-length encoding: unmatched ')' in column {position + 1}", source, number)
    return expanded


def expand_group(text: str, position: int, source: str, number: int, depth: int) -> tuple[str, int]:
    """Expand from ``position`` to the end of the text or to a ``)``; return the text and the
    position reached."""
    if depth > MOST_NESTING:
        raise InputError(f"run-length encoding: groups nested deeper than {MOST_NESTING} at column {position}",
                         source, number)
    pieces: list[str] = []
    length = 0
    while position < len(text) and text[position] != ")":
        start = position
        while position < len(text) and "0" <= text[position] <= "9":
            position += 1
        if position - start > len(str(MOST_RUN_TEXT)):
            raise InputError(f"run-length encoding: the count in column {start + 1} is longer than any line", source, number)
        count = int(text[start:position]) if position > start else 1
        if position == len(text) or text[position] == ")":
            raise InputError(f"run-length encoding: the count in column {start + 1} repeats nothing", source, number)
        if text[position] == "(":
            piece, position = expand_group(text, position + 1, source, number, depth + 1)
            if position == len(text):
                raise InputError(f"run-length encoding: '(' in column {start + 1} is never closed", source, number)
        else:
            piece = text[position]
        length += len(piece) * count
        if length > MOST_RUN_TEXT:
            raise InputError(f"run-length encoding: the count in column {start + 1} makes the line longer than "
                             f"{MOST_RUN_TEXT} characters", source, number)
        pieces.append(piece * count)
        position += 1
    return "".join(pieces), position


def is_interior_row(line: str) -> bool:
    """An empty row inside a board, written with ``-`` or ``_`` so it does not end the board."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= set("-_")


def is_board_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped[0] == "#" or (set(stripped) <= BOARD_CHARS and "#" in stripped))


def board_to_level(board: BoardText, source: str) -> Level:
    """Turn board lines into a Level; the floor is what the player, boxes and goals can reach."""
    if len(board.rows) > MAX_SIDE or max(map(len, board.rows), default=0) > MAX_SIDE:
        raise InputError(f"the level is larger than {MAX_SIDE}x{MAX_SIDE}", source, board.first_line)
    players, boxes, goals, walls = [], set(), set(), set()
    for y, row in enumerate(board.rows):
        for x, char in enumerate(row):
            cell = (x, y)
            if char == "#":
                walls.add(cell)
            if char in "@+":
                players.append(cell)
            if char in "$*":
                boxes.add(cell)
            if char in ".*+":
                goals.add(cell)
    line_of = lambda cell: board.lines[cell[1]]  # noqa: E731
    if not players:
        raise InputError("the level has no player ('@', '+', 'p' or 'P')", source, board.first_line)
    if len(players) > 1:
        raise InputError("the level has more than one player", source, line_of(players[1]))
    floor = flood_floor([players[0], *sorted(boxes), *sorted(goals)], walls, board, source)
    try:
        return Level(frozenset(floor), frozenset(boxes), frozenset(goals), players[0], board.title)
    except InputError as error:
        raise InputError(error.problem, source, board.first_line) from None


def flood_floor(starts: list[Cell], walls: set[Cell], board: BoardText, source: str) -> set[Cell]:
    """Cells reachable from ``starts`` without crossing walls; error if the board is open."""
    height = len(board.rows)
    seen = set(starts)
    todo = list(starts)
    while todo:
        cell = todo.pop()
        x, y = cell
        if y < 0 or y >= height or x < 0 or x >= len(board.rows[y]):
            raise InputError(
                f"the board is open: the floor reaches the outside at column {x + 1}",
                source,
                board.lines[min(max(y, 0), height - 1)],
            )
        for delta in DIRECTIONS.values():
            nxt = add(cell, delta)
            if nxt not in walls and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def read_levels(text: str, source: str) -> list[Level]:
    return [board_to_level(board, source) for board in split_collection(text, source)]


def board_lines(level: Level) -> list[str]:
    """The rows y = 0 .. height+1 of a level in XSB characters (rows above the floor are empty)."""
    walls = level.walls
    lines = []
    for y in range(0, level.height + 2):
        lines.append("".join(cell_char(level, (x, y), walls) for x in range(0, level.width + 2)).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def write_level(level: Level) -> str:
    """XSB text of a level: walls drawn on every non-floor cell touching the floor."""
    # A floor that starts below row 1 leaves empty rows on top, which would end the board:
    # mark them with a lone wall so the row offset (and so every coordinate) survives.
    return "\n".join(line or "#" for line in board_lines(level)) + "\n"


def cell_char(level: Level, cell: Cell, walls: frozenset[Cell]) -> str:
    if cell in walls:
        return "#"
    if cell not in level.floor:
        return " "
    box, goal = cell in level.boxes, cell in level.goals
    if cell == level.player:
        return "+" if goal else "@"
    if box:
        return "*" if goal else "$"
    return "." if goal else " "


def write_collection(levels: list[Level]) -> str:
    parts = []
    for number, level in enumerate(levels, start=1):
        parts.append(f"; {level.title or number}\n{write_level(level)}")
    return "\n".join(parts)
