"""The registries as tables: ``sokoasp encodings``, ``strategies`` and ``phases``."""

from __future__ import annotations

from dataclasses import fields

import click

from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.cli.output import table
from sokoasp.config import setting_key, setting_text, work_text
from sokoasp.phases import PHASES


@click.command(name="encodings")
def list_encodings() -> None:
    """List the encoding families, what one time step means and where each comes from.

    A family comes from sokoasp or from an installed package's entry point; a file of your own
    is named by its path (`solve -e my-family.lp`, docs/extending.md)."""
    rows = [("name", "driven", "time step", "source", "from", "summary")]
    for e in ENCODINGS.values():
        driven = "external planner" if e.planner else "incremental" if e.incremental else "fixed horizon"
        rows.append((e.name, driven, e.step_text, e.source, ENCODINGS.origin(e.name), e.summary))
    click.echo(table(rows))


@click.command(name="strategies")
def list_strategies() -> None:
    """List the strategy modules: thesis name, soundness, supported encodings, origin.

    The soundness is what each strategy's files claim; `sokoasp audit` checks a claim against
    the exact optimum. A folder of your own is named by its path (`solve -s ./my-strategy/`)."""
    rows = [("name", "thesis", "soundness", "encodings", "from", "what it prunes")]
    for s in STRATEGIES.values():
        summary = s.summary + (" [reconstruction]" if s.reconstruction else "")
        rows.append((s.name, s.thesis_name or "-", s.soundness.value, ",".join(s.encodings), STRATEGIES.origin(s.name), summary))
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
      sokoasp solve -e push-route -p goal-room=60k -p staged=300k:families=push-macro+pull-route LEVEL
    """
    rows = [("name", "kind", "soundness", "default work", "settings (default)", "from", "what it does")]
    for phase in PHASES.values():
        kind = "Python" if phase.kind == "python" else "ASP"
        settings = ", ".join(f"{setting_key(item.name)}={setting_text(item.default) or '-'}" for item in fields(phase.settings))
        rows.append((phase.name, kind, phase.soundness, work_text(phase.default_work), settings or "-", PHASES.origin(phase.name),
                     phase.summary))
    click.echo(table(rows))
