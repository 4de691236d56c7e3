"""``sokoasp optimize``: a shorter plan for a level, by windows re-solved exactly with clingo."""

from __future__ import annotations

import json
import signal
import sys
from dataclasses import asdict
from pathlib import Path

import click

from sokoasp.board.loading import load_level
from sokoasp.cli.options import SECONDS, level_argument
from sokoasp.config import read_work, work_text
from sokoasp.errors import InputError
from sokoasp.optimizer import DEFAULT_WORK, Optimized, optimize
from sokoasp.optimizer.metric import METRICS, cost_in
from sokoasp.tools.records import recorded_plan


@click.command(name="optimize")
@level_argument
@click.option("--plan", help="The plan to shorten, in LURD letters.")
@click.option("--record", type=click.Path(path_type=Path), help="Take the level's plan from this plan record.")
@click.option("--metric", type=click.Choice(METRICS), default="pushes,moves", show_default=True,
              help="What shorter means: a unit, two (the first decides, the second breaks ties), or pareto "
                   "(shorter in one, longer in neither).")
@click.option("--work", "work_given", default=work_text(DEFAULT_WORK), show_default=True,
              help="Work units to spend (states, clasp conflicts; about 5k a second): the same budget gives the same plan.")
@click.option("--time-limit", type=SECONDS, help="Seconds at most, whatever work is left (the outer cap).")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.option("--verbose", "-v", is_flag=True, help="Say each improvement as it is found (on stderr).")
def optimize_command(level_file: Path, which: str | None, plan: str | None, record: Path | None, metric: str,
                     work_given: str, time_limit: float | None, as_json: bool, verbose: bool) -> None:
    """Shorten a plan: windows of it are re-solved by clingo for the fewest moves or pushes and spliced in when shorter.

    A window is the stretch between two states of the plan; windows slide and grow until none
    improves or the work is spent. The plan printed is replayed and never longer.

    With pushes first (and pareto), the whole level is first searched for fewer pushes (A* in
    Python, the plan as the upper bound, a third of the work): it proves the plan push-optimal,
    finds one that is, or proves a lower bound. A window proven optimal says nothing about the
    whole plan.

    \b
    Examples:
      sokoasp optimize --metric moves --plan dlUrrrdLullddrUluRuulDrddrruLdlUU -l 1 instances/microban_1-5.sok
      sokoasp optimize --record instances/plans/microban_i.csv --metric moves -l 93 ../shared/levels/microban_i.sok
    """
    if (plan is None) == (record is None):
        raise InputError("give the plan to shorten: --plan LURD or --record CSV (one of them)")
    loaded = load_level(level_file, which)
    given = plan if plan is not None else recorded_plan(level_file, loaded.level, record)  # type: ignore[arg-type]
    say = (lambda line: click.echo(line, err=True)) if verbose else None
    try:
        outcome = optimize(loaded.level, given.strip(), metric, time_limit, read_work(work_given, "--work"), progress=say)
    except InputError as error:
        raise error.at(loaded.source) from None
    click.echo(json.dumps(asdict(outcome), indent=2) if as_json else render(loaded.source, outcome))
    if outcome.stopped == "interrupted":  # the best plan so far is printed above
        sys.exit(128 + signal.SIGINT)


def render(source: str, outcome: Optimized) -> str:
    before = f"{cost_in('moves', outcome.given)} moves, {cost_in('pushes', outcome.given)} pushes"
    after = f"{cost_in('moves', outcome.plan)} moves, {cost_in('pushes', outcome.plan)} pushes"
    first = "pushes" if outcome.metric == "pareto" else outcome.metric.split(",")[0]
    bound = "not searched" if outcome.lower_bound is None else f"no plan has fewer than {outcome.lower_bound} pushes"
    return "\n".join([
        f"level:      {source}",
        f"metric:     {outcome.metric}",
        f"before:     {before}",
        f"after:      {after} (replayed)",
        f"windows:    {outcome.windows_tried} tried, {outcome.windows_improved} improved, {outcome.windows_proven} "
        "proven optimal on their own (which says nothing of the whole plan)",
        f"whole plan: {'proven optimal in ' + first if outcome.whole_proven else 'not proven optimal'}",
        f"A* search:  {bound}" + ("; the plan's pushes are the search's (Python)" if outcome.found_by_search else ""),
        f"stopped:    {outcome.stopped} ({work_text(outcome.work)} units of work)",
        f"plan:       {outcome.plan}",
    ])
