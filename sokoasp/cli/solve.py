"""``sokoasp solve``: one level, one configuration."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import click

from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.cli.options import Member, level_argument, limits, output
from sokoasp.cli.output import EXIT_CODES_HELP, render
from sokoasp.config import PhaseRun, SolveConfig
from sokoasp.configure import HORIZON_MAX, config_from_table
from sokoasp.errors import InputError
from sokoasp.phases import parse_phases
from sokoasp.pipeline import solve
from sokoasp.result import Result


def phase_runs(context: click.Context, parameter: click.Parameter, texts: tuple[str, ...]) -> tuple[PhaseRun, ...]:
    """The ``--phase`` options as phase runs; a bad one is a usage error naming the option."""
    try:
        return parse_phases(texts)
    except InputError as error:
        raise click.BadParameter(error.problem, context, parameter) from None


@click.command(epilog=EXIT_CODES_HELP)
@level_argument
@click.option("--encoding", "-e", type=Member("encoding"), default="incremental", show_default=True,
              help="Encoding family (`sokoasp encodings`), or your own file: -e my-family.lp.")
@click.option("--strategy", "-s", "strategies", multiple=True, type=Member("strategy"),
              help="Strategy module (`sokoasp strategies`), or your own folder: -s ./my-strategy/; repeat to combine.")
@click.option("--phase", "-p", "phases", multiple=True, metavar="NAME[=WORK][:KEY=VALUE,...]", callback=phase_runs,
              help="A phase before the horizon loop, in the order given, with its budget in work "
                   "units and its own settings, e.g. staged=300k:families=push-macro+pull-route,end-game=off "
                   "(`sokoasp phases`).")
@click.option("--horizon", type=click.IntRange(0, HORIZON_MAX), help="Fixed-horizon encodings: the plan length (default: the file's).")
@click.option("--min-horizon", type=click.IntRange(0, HORIZON_MAX), default=0, help="First horizon asked (above the bound: not optimal).")
@click.option("--start-factor", type=click.IntRange(1, 1000), default=1,
              help="First horizon = N x the proven lower bound (above 1: not optimal).")
@click.option("--max-horizon", type=click.IntRange(0, HORIZON_MAX), default=SolveConfig.max_horizon, show_default=True,
              help="Give up after this horizon.")
@click.option("--interleave", type=click.IntRange(1, 100), default=1, metavar="N",
              help="Jump families: ask N horizons in turn, in time slices.")
@click.option("--descend", is_flag=True, help="push-jump: from --max-horizon down to a refutation.")
@click.option("--clingo-arg", "clingo_args", multiple=True, help="A clingo option, e.g. --clingo-arg=--configuration=crafty.")
@limits
@output
def solve_command(level_file: Path, which: str | None, encoding: str, strategies: tuple[str, ...], phases: tuple[PhaseRun, ...],
                  horizon: int | None, min_horizon: int, start_factor: int, max_horizon: int, interleave: int,
                  descend: bool, clingo_args: tuple[str, ...],
                  time_limit: float | None, memory_limit: int | None, as_json: bool, verbose: bool) -> None:
    """Solve one level (.lp facts, or .sok/.xsb text) and print a plan the simulator replayed.

    A plan is a LURD string: l/u/r/d walk, L/U/R/D push. The phases run first, in order;
    the first plan wins; the horizon loop runs with the time they leave. A plan is called
    optimal only when the loop proved it and every strategy keeps optimal plans.

    \b
    Examples:
      sokoasp solve instances/thesis_example.lp                 (thesis: move-optimal)
      sokoasp solve -e plain --horizon 23 instances/thesis_example.lp
      sokoasp solve -e incremental -s clutter instances/thesis_example.lp
      sokoasp solve -e push -s dead -s freeze -s bound -l 3 instances/microban_1-5.sok
                                                                 (push-optimal)
      sokoasp solve -e push-macro -s dead -s freeze -s bound --start-factor 3 --time-limit 60 LEVEL
                                                                 (long plans: one slide a step)
      sokoasp solve -e push-macro -s dead -s freeze -p box-search=100k -p staged=300k --time-limit 60 LEVEL
                                                                 (Python search, then stages)
      sokoasp solve -e push-route -s dead -p staged=300k:families=push-macro+pull-route,end-game=off LEVEL
                                                                 (stages both ways, all by clingo)
      sokoasp solve -e push-jump -s dead -s freeze -s bound --max-horizon 40 --descend LEVEL
    To race the portfolio or prove a plan push-optimal: `sokoasp race --help`.
    """
    loaded = load_level(level_file, which)
    config = replace(config_from_table({
        "encoding": encoding, "strategies": strategies, "horizon": horizon if horizon is not None else loaded.horizon,
        "min_horizon": min_horizon, "start_factor": start_factor, "max_horizon": max_horizon, "clingo_args": clingo_args,
        "interleave": interleave, "descend": descend,
    }), phases=phases)  # the phases, parsed by the same reader already (``phase_runs``)
    progress = (lambda line: click.echo(line, err=True)) if verbose else None
    try:
        if time_limit is not None or memory_limit is not None:
            from sokoasp.worker import solve_isolated  # a worker process only where there are limits to enforce

            result = solve_isolated(loaded.level, config, time_limit, memory_limit, progress)
        else:
            result = solve(loaded.level, config, progress)
    except InputError as error:
        raise error.at(loaded.source) from None
    print_result(loaded.source, loaded.level, result, as_json)


def print_result(source: str, level: Level, result: Result, as_json: bool, exit_code: int | None = None) -> None:
    """Print ``result`` as text or JSON and exit with its status's code (or ``exit_code``)."""
    click.echo(json.dumps(result.to_dict(), indent=2) if as_json else render(source, level, result))
    sys.exit(result.status.exit_code if exit_code is None else exit_code)
