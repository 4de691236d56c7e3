"""``sokoasp show``: look at a level, or at a plan played on it."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.asp.encodings import get_encoding
from sokoasp.board.loading import load_level
from sokoasp.cli.options import SECONDS, Member
from sokoasp.cli.output import status_text
from sokoasp.config import SolveConfig
from sokoasp.errors import InputError
from sokoasp.tools.files import writable
from sokoasp.tools.records import recorded_plan
from sokoasp.tools.show.frames import play
from sokoasp.tools.show.html import html_page
from sokoasp.tools.show.text import ascii_playback
from sokoasp.worker import solve_isolated

SUFFIXES = {".png", ".svg", ".gif", ".mp4", ".html"}


@click.command()
@click.argument("level_file", type=click.Path(path_type=Path))
@click.option("--level", "-l", "which", help="Which level of a collection (number or title).")
@click.option("--plan", help="A LURD plan to play (l/u/r/d walk, L/U/R/D push).")
@click.option("--solve", "solve_with", type=Member("encoding"), help="Solve first with this encoding (e.g. push, or my-family.lp) "
              "and show its plan.")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="With --solve: seconds for the solver.")
@click.option("--record", type=click.Path(path_type=Path),
              help="Play the level's plan from a plan record (see `sokoasp plans`), e.g. instances/plans/xsokoban_90.csv.")
@click.option("--out", "-o", "outputs", multiple=True, type=click.Path(path_type=Path),
              help="Write .png/.svg (picture of the end state), .gif/.mp4 (animation) or .html (player); repeatable.")
@click.option("--every", type=click.Choice(["move", "push"]), default="move", show_default=True,
              help="Animation frames: one per move or one per push.")
@click.option("--dead", is_flag=True, help="Shade dead squares (a box there can never reach a goal).")
@click.option("--ascii", "as_ascii", is_flag=True, help="Print every frame as text (default: first and last).")
def show(level_file: Path, which: str | None, plan: str | None, solve_with: str | None, time_limit: float, record: Path | None,
         outputs: tuple[Path, ...], every: str, dead: bool, as_ascii: bool) -> None:
    """Show a level and a plan: text in the terminal, pictures, animations, an HTML player.

    \b
    Examples:
      sokoasp show instances/thesis_example.lp
      sokoasp show -l 2 --solve push -o plan.gif -o plan.html instances/microban_1-5.sok
      sokoasp show --plan RddrRuLrru --dead -o end.png instances/thesis_example.lp
      sokoasp show -l 76 --record instances/plans/xsokoban_90.csv -o plan.html ../shared/levels/xsokoban_90.sok
    An illegal plan is shown up to its first illegal move, which is highlighted (exit code 7).
    """
    loaded = load_level(level_file, which)
    if sum(1 for given in (plan, solve_with, record) if given) > 1:
        raise InputError("give one of --plan, --solve and --record")
    if record:
        plan = recorded_plan(level_file, loaded.level, record)
    if solve_with:
        config = SolveConfig(encoding=solve_with, strategies=("dead",), horizon=loaded.horizon)
        if not get_encoding(solve_with).incremental and loaded.horizon is None:
            raise InputError(f"--solve {solve_with}: a fixed-horizon encoding needs #const horizon in the level file; "
                             "or solve with an incremental one, such as push", loaded.source)
        result = solve_isolated(loaded.level, config, time_limit)
        if result.plan is None:
            raise InputError(f"no plan to show: {status_text(result)}", loaded.source)
        plan = result.plan
    playback = play(loaded.level, plan or "", every)
    click.echo(ascii_playback(playback, as_ascii))
    for path in outputs:
        from sokoasp.tools.show.picture import animate, picture  # matplotlib takes a third of a second to import: only when drawing

        suffix = writable(path).suffix.lower()
        if suffix not in SUFFIXES:
            raise InputError(f"unknown output type {suffix or '(none)'}: use {', '.join(sorted(SUFFIXES))}", str(path))
        if suffix in {".png", ".svg"}:
            picture(playback, path, dead)
        elif suffix == ".html":
            path.write_text(html_page(playback), encoding="utf-8")
        else:
            animate(playback, path, dead)
        click.echo(f"wrote {path}")
    if playback.problem:
        raise InputError(f"the plan is illegal at {playback.problem}", loaded.source)
