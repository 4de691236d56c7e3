"""The registries as tables: ``sokoasp encodings``, ``strategies``, ``phases`` and ``portfolio``."""

from __future__ import annotations

from dataclasses import fields

import click

from sokoasp.asp.encodings import ENCODINGS, get_encoding
from sokoasp.asp.horizon_loops import probes_the_bound
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.cli.options import SECONDS
from sokoasp.cli.output import table
from sokoasp.config import SolveConfig, setting_key, setting_text, work_text
from sokoasp.phases import PHASES, staged
from sokoasp.portfolio.members import members_for


@click.command(name="encodings")
def list_encodings() -> None:
    """List the encoding families and what one time step means."""
    rows = [("name", "driven", "time step", "source", "summary")]
    for e in ENCODINGS.values():
        driven = "external planner" if e.planner else "incremental" if e.incremental else "fixed horizon"
        rows.append((e.name, driven, e.step_text, e.source, e.summary))
    click.echo(table(rows))


@click.command(name="strategies")
def list_strategies() -> None:
    """List the strategy modules: thesis name, soundness, supported encodings."""
    rows = [("name", "thesis", "soundness", "encodings", "what it prunes")]
    for s in STRATEGIES.values():
        summary = s.summary + (" [reconstruction]" if s.reconstruction else "")
        rows.append((s.name, s.thesis_name or "-", s.soundness.value, ",".join(s.encodings), summary))
    click.echo(table(rows))


@click.command(name="phases")
def list_phases() -> None:
    """List the phases that may run before the horizon loop, with their settings and defaults.

    A phase is given as NAME[=WORK][:KEY=VALUE,...], in `solve --phase`, grid files and
    members.toml alike. WORK is its budget in work units (states searched, clasp conflicts,
    ground rules / 100; about 10k a second), such as 100k or 2M: the same run does the same work
    anywhere, so it finds the same plan. No phase calls its plan optimal; a plan found by a
    Python phase says so.

    \b
    Example:
      sokoasp solve -e push-route -p goal-room=100k -p staged=250k:families=push-macro+pull-route LEVEL
    """
    rows = [("name", "kind", "soundness", "default work", "settings (default)", "what it does")]
    for phase in PHASES.values():
        kind = "Python" if phase.kind == "python" else "ASP"
        settings = ", ".join(f"{setting_key(item.name)}={setting_text(item.default) or '-'}" for item in fields(phase.settings))
        rows.append((phase.name, kind, phase.soundness, work_text(phase.default_work), settings or "-", phase.summary))
    click.echo(table(rows))


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
