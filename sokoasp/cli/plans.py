"""``sokoasp plans``: keep a record of the best replayed plan per level of a collection."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.board.level import Level
from sokoasp.board.loading import load_all
from sokoasp.config import read_work
from sokoasp.errors import InputError
from sokoasp.tools.grid.spec import select
from sokoasp.tools.grid.store import read_rows
from sokoasp.tools.record_optimize import optimized_entries
from sokoasp.tools.records import Entry, entries_from_runs, merge, read_record, write_record


@click.command(name="plans")
@click.argument("level_file", type=click.Path(path_type=Path))
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--db", "databases", multiple=True, type=click.Path(path_type=Path),
              help="A grid database (repeatable): add its best plan for each level of LEVEL_FILE that "
                   "beats the record's, and write RECORD.")
@click.option("--optimize", "optimize_work", metavar="WORK",
              help="Shorten the record's plans with `sokoasp optimize` (WORK units each, e.g. 100k; metric pareto): "
                   "a row's plan is replaced only by one that replays and is longer in neither moves nor pushes; "
                   "lower bounds the optimizer proves are written too.")
@click.option("--levels", "selection", help="With --optimize: these levels only, e.g. 1-30,45.")
def plans_command(level_file: Path, record: Path, databases: tuple[Path, ...], optimize_work: str | None,
                  selection: str | None) -> None:
    """Keep RECORD, a CSV of the best validated plan per level of LEVEL_FILE (fewest pushes,
    then moves), and replay every plan in it.

    \b
    Grids keep their plans in databases on the machine that ran them; a record is a small
    text file to commit and cite. Every plan is replayed by the simulator when RECORD is read
    and before a plan from a database goes in, so the count printed is a count anyone can
    check. An invalid row is an input error naming its line.
    \b
    Examples:
      sokoasp plans ../shared/levels/xsokoban_90.sok instances/plans/xsokoban_90.csv
      sokoasp plans ../shared/levels/xsokoban_90.sok instances/plans/xsokoban_90.csv --db run.sqlite
      sokoasp plans ../shared/levels/microban_i.sok instances/plans/microban_i.csv --optimize 100k --levels 1-20
    """
    levels = [item.level for item in load_all(level_file)]
    if not record.exists() and not databases:
        raise InputError("no such file (give --db to start a record)", str(record))
    entries = read_record(record, levels) if record.exists() else {}
    if databases:
        said = []  # said after the record is written: a reader that leaves early (| head) loses no plan
        for database in databases:
            if not database.is_file():
                raise InputError("no such results database", str(database))
            found = entries_from_runs(read_rows(database), levels, str(database))
            if not found:
                said.append(f"{database}: no solved run of a level of {level_file.name}")
            entries, taken = merge(entries, found)
            said += [f"level {entry.level}: {entry.pushes} pushes{bound_note(entry)}, {entry.moves} moves "
                     f"({entry.configuration}, {entry.seconds:.1f} s, {database.name})" for entry in taken]
        write_record(record, entries)
        if said:
            click.echo("\n".join(said))
    if optimize_work is not None:
        entries = optimize_record(record, entries, levels, read_work(optimize_work, "--optimize"),
                                  select(len(levels), selection, "--levels"))
    elif selection is not None:
        raise InputError("--levels chooses the levels --optimize shortens: give --optimize too")
    numbers = ", ".join(str(number) for number in sorted(entries))
    proven = sum(entry.proven for entry in entries.values())
    bounded = sum(not entry.proven and entry.lower_bound is not None for entry in entries.values())
    click.echo(f"{record}: {len(entries)} of {len(levels)} levels of {level_file.name} have a replayed plan"
               + (f", {proven} proven push-optimal" if proven else "")
               + (f", {bounded} more with a proven lower bound" if bounded else "") + (f": {numbers}" if numbers else ""))


def optimize_record(record: Path, entries: dict[int, Entry], levels: list[Level], work: int,
                    numbers: list[int]) -> dict[int, Entry]:
    """The record with the optimizer's shorter plans, written after each one (a stop loses none)."""
    if not entries:
        raise InputError("the record has no plans to shorten", str(record))
    for found in optimized_entries(entries, levels, numbers, work, click.echo):
        entries = {**entries, found.level: found}
        write_record(record, entries)
    return entries


def bound_note(entry: Entry) -> str:
    if entry.proven:
        return " (proven fewest)"
    return "" if entry.lower_bound is None else f" (none has fewer than {entry.lower_bound})"
