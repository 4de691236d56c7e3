"""``sokoasp race``: the portfolio's members race on the cores; with --prove, the plan is then
proved push-optimal or beaten; with --record, a plan record's plan is proved instead."""

from __future__ import annotations

import signal
from pathlib import Path

import click

from sokoasp.board.loading import load_level
from sokoasp.cli.options import SECONDS, level_argument, limits
from sokoasp.cli.output import EXIT_CODES_HELP
from sokoasp.cli.solve import print_result
from sokoasp.errors import InputError
from sokoasp.portfolio.prove import prove_plan, race_and_prove
from sokoasp.portfolio.race import race
from sokoasp.tools.records import recorded_plan


@click.command(epilog=EXIT_CODES_HELP)
@level_argument
@click.option("--prove", is_flag=True, help="Spend the time left after the first plan on two provers, one per core: "
              "the plan is proved push-optimal, or a shorter one is found.")
@click.option("--record", type=click.Path(path_type=Path),
              help="With --prove: prove this plan record's plan for the level (the whole time), e.g. "
                   "instances/plans/microban_i.csv.")
@click.option("--optimize", "optimize_seconds", type=SECONDS, metavar="SECONDS",
              help="Then spend this long shortening the plan (sokoasp optimize), keeping what it was proven optimal in.")
@limits
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def race_command(level_file: Path, which: str | None, prove: bool, record: Path | None, optimize_seconds: float | None,
                 time_limit: float | None, memory_limit: int | None, as_json: bool) -> None:
    """Race the portfolio's members on the cores and keep the first replayed plan.

    The members are listed by `sokoasp portfolio`; each runs in a process of its own under
    the limits, and the others are killed when one has a plan.

    \b
    Examples:
      sokoasp race --time-limit 60 -l 59 ../shared/levels/microban_i.sok
      sokoasp race --prove --time-limit 60 -l 59 ../shared/levels/microban_i.sok
      sokoasp race --optimize 20 --time-limit 60 -l 93 ../shared/levels/microban_i.sok
      sokoasp race --prove --record instances/plans/microban_i.csv --time-limit 60 -l 102 \\
          ../shared/levels/microban_i.sok
    """
    if record and not prove:
        raise InputError("--record names the plan for --prove to prove: give --prove too "
                         "(to look at a record's plan: sokoasp show --record)")
    loaded = load_level(level_file, which)
    try:
        if record:
            plan = recorded_plan(level_file, loaded.level, record)
            result = prove_plan(loaded.level, plan, str(record), time_limit, memory_limit)
        else:
            run_race = race_and_prove if prove else race
            result = run_race(loaded.level, time_limit=time_limit, memory_mb=memory_limit)
    except InputError as error:
        raise error.at(loaded.source) from None
    if optimize_seconds is not None and result.plan is not None:
        from sokoasp.config import nominal_work
        from sokoasp.optimizer import optimize_result  # clingo windows: only when asked

        result = optimize_result(loaded.level, result, nominal_work(optimize_seconds), optimize_seconds)
    interrupted = result.stats.get("optimized", {}).get("stopped") == "interrupted"  # the best plan so far, then as Ctrl-C
    print_result(loaded.source, loaded.level, result, as_json, 128 + signal.SIGINT if interrupted else None)
