"""The portfolio's members as a table: ``sokoasp portfolio``."""

from __future__ import annotations

import click

from sokoasp.asp.encodings import get_encoding
from sokoasp.asp.horizon_loops import probes_the_bound
from sokoasp.cli.options import SECONDS
from sokoasp.cli.output import table
from sokoasp.config import SolveConfig, work_text
from sokoasp.phases import staged
from sokoasp.portfolio.members import members_for


@click.command(name="portfolio")
@click.option("--time-limit", type=SECONDS, default=None,
              help="The members as they race under this limit (above 60 s their phases get larger work budgets).")
def list_portfolio(time_limit: float | None) -> None:
    """List the members `sokoasp race` runs, in order, one per core at a time.

    The members are data: sokoasp/portfolio/members.toml.

    \b
    Example:
      sokoasp portfolio --time-limit 300
    """
    rows = [("member", "encoding", "strategies", "first horizon", "phases, in order", "stages")]
    for number, member in enumerate(members_for(time_limit), start=1):
        rows.append((str(number), member.encoding, ", ".join(member.strategies) or "none", first_horizon(member),
                     ", ".join(f"{run.name} {work_text(run.work)}" for run in member.phases) or "none", stages_of(member)))
    click.echo(table(rows))


def stages_of(member: SolveConfig) -> str:
    """The push families of a member's stages ("-": it has no staged phase)."""
    families = staged.stage_families(member)
    if not families:
        return "-"
    return " and ".join(families) + (" in turn" if len(families) > 1 else "")


def first_horizon(member: SolveConfig) -> str:
    if probes_the_bound(get_encoding(member.encoding), member):
        return f"the bound (probed), {member.start_factor} x"
    return "the lower bound" if member.start_factor == 1 else f"{member.start_factor} x the lower bound"
