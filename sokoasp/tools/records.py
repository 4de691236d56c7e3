"""A record of validated plans for a level collection (``sokoasp plans``): a CSV file with one
row per level, the plan with the fewest pushes (then moves) that any run found, where it came
from, how long that run took, and whether a run proved that many pushes the fewest possible
(``proven``: a claim with its provenance, which reading a record cannot check again).

Grids keep their plans in databases that stay on the machine that ran them; a record is a
small text file that can be committed, cited and checked. Every plan is replayed by the
simulator when a record is read and before a plan from a database is added, so the number of
levels a record holds plans for is a count anyone can check again.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sokoasp.board.facts import digest
from sokoasp.board.level import Level
from sokoasp.board.loading import load_all
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.errors import InputError
from sokoasp.tools.files import write_new

FIELDS = ("level", "title", "pushes", "moves", "proven", "lower_bound", "configuration", "seconds", "plan")
OPTIONAL = {"proven", "lower_bound"}  # records written before these columns have none
PROVEN = "push-optimal"


@dataclass(frozen=True)
class Entry:
    """The best plan known for one level of a collection (``level``: its 1-based number)."""

    level: int
    title: str
    pushes: int
    moves: int
    configuration: str
    seconds: float
    plan: str
    lower_bound: int | None = None  # some run proved that no plan has fewer pushes than this (None: unknown)

    @property
    def proven(self) -> bool:
        """Some run proved that no plan has fewer pushes than this one."""
        return self.lower_bound == self.pushes

    def better_than(self, other: Entry | None) -> bool:
        return other is None or (self.pushes, self.moves) < (other.pushes, other.moves)

    def row(self) -> dict[str, str]:
        return {"level": str(self.level), "title": self.title, "pushes": str(self.pushes), "moves": str(self.moves),
                "proven": PROVEN if self.proven else "",
                "lower_bound": "" if self.lower_bound is None else str(self.lower_bound), "configuration": self.configuration,
                "seconds": f"{self.seconds:.2f}", "plan": self.plan}


def checked_entry(levels: list[Level], number: int, plan: str, configuration: str, seconds: float,
                  proven: bool = False, lower_bound: int | None = None) -> Entry:
    """An entry for level ``number`` whose plan solves it and has no fewer pushes than
    ``lower_bound``, or ValueError saying why not."""
    if not 1 <= number <= len(levels):
        raise ValueError(f"level {number} is not in the collection (1..{len(levels)})")
    level = levels[number - 1]
    outcome = replay(level, plan)
    if not outcome.ok:
        raise ValueError(f"the plan of level {number} fails replay: {outcome.problem}")
    pushes = count_pushes(plan)
    if lower_bound is not None and lower_bound > pushes:
        raise ValueError(f"the plan of level {number} has {pushes} pushes, fewer than its lower bound {lower_bound}")
    return Entry(number, level.title, pushes, len(plan), configuration, seconds, plan, pushes if proven else lower_bound)


def recorded_plan(level_file: Path, level: Level, record: Path) -> str:
    """The plan ``record`` holds for ``level``, a level of ``level_file`` (replayed on reading)."""
    levels = [item.level for item in load_all(level_file)]
    number = levels.index(level) + 1
    entry = read_record(record, levels).get(number)
    if entry is None:
        raise InputError(f"the record has no plan for level {number} of {level_file.name}", str(record))
    return entry.plan


def read_record(path: Path, levels: list[Level]) -> dict[int, Entry]:
    """The entries of a record file, every plan replayed against its level."""
    source = str(path)
    if not path.is_file():
        raise InputError("no such plan record", source)
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            missing = [name for name in FIELDS if name not in (reader.fieldnames or []) and name not in OPTIONAL]
            if missing:
                raise InputError(f"not a plan record: no column {', '.join(missing)} (columns: {', '.join(FIELDS)})",
                                 source, 1)
            return entries_of(reader, levels, source)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise InputError(f"cannot read the plan record: {error}", source) from None


def entries_of(reader: csv.DictReader[str], levels: list[Level], source: str) -> dict[int, Entry]:
    entries: dict[int, Entry] = {}
    for row in reader:
        line = reader.line_num
        if any(row.get(name) is None for name in FIELDS if name not in OPTIONAL) or None in row:
            names = reader.fieldnames or FIELDS
            raise InputError(f"expected {len(names)} fields ({', '.join(names)})", source, line)
        try:
            if not whole_number(row["level"]):
                raise ValueError(f"level: {row['level']!r} is not a level number")
            bound, is_proven = lower_bound(row), proven(row)
            if is_proven and bound is not None and row["pushes"] != str(bound):
                raise ValueError(f"proven: the row says its {row['pushes']} pushes are push-optimal and that no plan "
                                 f"has fewer than {bound}: one of the two is wrong")
            entry = checked_entry(levels, int(row["level"]), row["plan"], row["configuration"], seconds(row),
                                  is_proven, bound)
        except ValueError as error:
            raise InputError(str(error), source, line) from None
        if (str(entry.pushes), str(entry.moves)) != (row["pushes"], row["moves"]):
            raise InputError(f"level {entry.level}: the plan has {entry.pushes} pushes and {entry.moves} moves, "
                             f"the row says {row['pushes']} and {row['moves']}", source, line)
        if row["title"] != entry.title:
            raise InputError(f"level {entry.level}: the row's title {row['title'][:40]!r} is not the level's "
                             f"{entry.title[:40]!r} (a record of another collection?)", source, line)
        if entry.level in entries:
            raise InputError(f"level {entry.level} has a row already", source, line)
        entries[entry.level] = entry
    return entries


def proven(row: dict[str, str]) -> bool:
    value = row.get("proven") or ""
    if value not in ("", PROVEN):
        raise ValueError(f"proven: {value!r} is neither empty nor {PROVEN!r}")
    return value == PROVEN


def lower_bound(row: dict[str, str]) -> int | None:
    value = row.get("lower_bound") or ""
    if value and not whole_number(value):
        raise ValueError(f"lower_bound: {value!r} is not a number of pushes")
    return int(value) if value else None


def seconds(row: dict[str, str]) -> float:
    try:
        value = float(row["seconds"])
    except ValueError:
        raise ValueError(f"seconds: {row['seconds']!r} is not a number") from None
    if not 0 <= value < math.inf:  # refuses nan too
        raise ValueError(f"seconds: {row['seconds']!r} is not a time (a finite number, at least 0)")
    return value


def whole_number(text: str) -> bool:
    """ASCII digits, at most nine of them (no level, push count or bound needs more)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def write_record(path: Path, entries: dict[int, Entry]) -> None:
    """Write the record, one row per level in level order (whole or not at all, never through a link)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for number in sorted(entries):
        writer.writerow(entries[number].row())
    write_new(path, buffer.getvalue())


def entries_from_runs(rows: list[dict[str, Any]], levels: list[Level], source: str) -> dict[int, Entry]:
    """The best solved run of each level among a grid database's rows (matched by the
    level's digest, wherever the level file was when the grid ran), its plan replayed; proven
    when a run proved its pushes the fewest."""
    numbers = {digest(level): number for number, level in enumerate(levels, start=1)}
    best: dict[int, Entry] = {}
    for row in rows:
        number = numbers.get(row["instance_hash"])
        if number is None or not row["solved"] or not row["plan"]:
            continue
        try:
            entry = checked_entry(levels, number, row["plan"], row["configuration"], float(row["total_time"] or 0),
                                  row["optimal_for"] == "pushes", json.loads(row["stats"] or "{}").get("push_lower_bound"))
        except ValueError as error:
            raise InputError(f"run {row['key']} ({row['instance']}): {error}", source) from None
        best[number] = better(best.get(number), entry)
    return best


def better(old: Entry | None, new: Entry) -> Entry:
    """The better of two entries for a level: fewer pushes, then fewer moves, with the higher of
    their lower bounds; proven when that bound meets its pushes. A replayed plan with fewer
    pushes than a proven bound means that proof was wrong: an input error, never a quiet record."""
    if old is None or new.better_than(old):
        kept, other = new, old
    else:
        kept, other = old, new
    if other is None or other.lower_bound is None or (kept.lower_bound or 0) >= other.lower_bound:
        return kept
    if kept.pushes < other.lower_bound:
        claim = "proved the fewest" if other.proven else "proved no plan goes under"
        raise InputError(f"level {kept.level}: a replayed plan has {kept.pushes} pushes, fewer than the "
                         f"{other.lower_bound} that {other.configuration!r} {claim}: that proof is wrong")
    return replace(kept, lower_bound=other.lower_bound)


def merge(old: dict[int, Entry], new: dict[int, Entry]) -> tuple[dict[int, Entry], list[Entry]]:
    """The record with each new entry that beats the old one (or is the first for its level, or
    proves the old one's pushes the fewest), and the entries that changed."""
    merged, taken = dict(old), []
    for number, entry in sorted(new.items()):
        kept = better(merged.get(number), entry)
        if kept != merged.get(number):
            merged[number] = kept
            taken.append(kept)
    return merged, taken
