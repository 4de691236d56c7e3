"""``sokoasp convert`` and ``sokoasp export``: levels between formats, and out to other planners."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.board.facts import write_facts
from sokoasp.board.loading import load_all, load_level
from sokoasp.board.pddl import DOMAIN
from sokoasp.board.pddl import problem as pddl_problem
from sokoasp.board.xsb import write_collection, write_level
from sokoasp.errors import InputError
from sokoasp.tools.files import new_folder, writable, write_new


@click.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--level", "-l", "which", help="Convert only this level of a collection (number or title).")
@click.option("--horizon", type=click.IntRange(0), help="Write #const horizon = N into a .lp file.")
def convert(source: Path, target: Path, which: str | None, horizon: int | None) -> None:
    """Convert a level between XSB/.sok text and the thesis fact format (.lp).

    The format is chosen by TARGET's suffix (.lp for facts, anything else XSB). A .lp file
    holds one level; a collection needs --level, or an XSB target to keep them all.
    """
    loaded = [load_level(source, which)] if which else load_all(source)
    if target.suffix.lower() == ".lp":
        if len(loaded) > 1:
            raise InputError(f"holds {len(loaded)} levels; a .lp file takes one: choose with --level", str(source))
        keep = horizon if horizon is not None else loaded[0].horizon
        text = write_facts(loaded[0].level, keep)
    elif len(loaded) == 1:
        text = write_level(loaded[0].level)
    else:
        text = write_collection([item.level for item in loaded])
    writable(target).write_text(text, encoding="utf-8")
    click.echo(f"wrote {target} ({len(loaded)} level{'s' if len(loaded) > 1 else ''})")


@click.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--pddl", is_flag=True, required=True, help="Write IPC-style Sokoban PDDL (domain.pddl, one problem per level).")
@click.option("--level", "-l", "which", help="Export only this level of a collection (number or title).")
def export(source: Path, folder: Path, pddl: bool, which: str | None) -> None:
    """Export levels for other planners: FOLDER/domain.pddl and FOLDER/<level>.pddl.

    The domain has unit-cost move and push actions, so a cost-optimal plan is move-optimal.
    """
    loaded = [load_level(source, which)] if which else load_all(source)
    new_folder(folder)
    write_new(folder / "domain.pddl", DOMAIN)
    for number, item in enumerate(loaded, start=1):
        name = item.level.title or (source.stem if len(loaded) == 1 else f"{source.stem}-{number}")
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)
        write_new(folder / f"{stem}.pddl", pddl_problem(item.level, name))
    click.echo(f"wrote {folder / 'domain.pddl'} and {len(loaded)} problem file(s)")
