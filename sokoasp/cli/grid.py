"""``sokoasp grid run|report`` and ``sokoasp bench``: the grid's command line."""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.cli.options import SECONDS, Member
from sokoasp.config import SolveConfig
from sokoasp.configure import HORIZON_MAX
from sokoasp.errors import InputError, SokoaspError
from sokoasp.portfolio.suggest import choose_members
from sokoasp.tools.files import new_folder, writable, write_new
from sokoasp.tools.grid.report import (
    AGGREGATES,
    csv_table,
    length_table,
    markdown_table,
    ratio_table,
    read_runs_csv,
    runs_csv,
    thesis_tables,
)
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import PORTFOLIOS, GridSpec, build_spec, load_instances, read_spec
from sokoasp.tools.grid.store import read_rows


def parse_configuration(text: str) -> tuple[str, tuple[str, ...]]:
    """``push+dead+freeze`` -> ("push", ("dead", "freeze"))."""
    encoding, *strategies = [part.strip() for part in text.split("+") if part.strip()]
    return encoding, tuple(strategies)


def spec_from_options(instances: tuple[Path, ...], encodings: tuple[str, ...], strategy_sets: tuple[str, ...],
                      time_limit: float, memory_limit: int | None, max_horizon: int,
                      start_factors: tuple[int, ...] = ()) -> GridSpec:
    loaded = [i for path in instances for i in load_instances(path)]
    sets = [tuple(s for s in text.split(",") if s and s != "none") for text in strategy_sets] or [()]
    return build_spec(loaded, list(encodings) or ["incremental"], sets, [()], time_limit, memory_limit, max_horizon,
                      "<options>", list(start_factors))


@click.group()
def grid() -> None:
    """Compare encodings x strategy sets x clingo options on instance portfolios.

    \b
    Results go to a SQLite database, one row per run, written the moment the run ends:
    a killed grid loses nothing and rerunning the same command resumes it.
    \b
    Examples:
      sokoasp grid run benchmarks/grids/example-grid.toml --db results.sqlite
      sokoasp grid run -i instances/microban_1-5.sok -e incremental -e push -s none -s dead --time-limit 20
      sokoasp grid report --db results.sqlite --out report/
    """


@grid.command(name="run")
@click.argument("grid_file", required=False, type=click.Path(path_type=Path))
@click.option("--db", "database", type=click.Path(path_type=Path), default=Path("results.sqlite"), show_default=True,
              help="Results database (created if missing; finished runs are skipped).")
@click.option("--instance", "-i", "instances", multiple=True, type=click.Path(path_type=Path),
              help="Without GRID_FILE: a level file, collection or folder (repeatable).")
@click.option("--encoding", "-e", "encodings", multiple=True, type=Member("encoding", tuple(PORTFOLIOS)),
              help="Without GRID_FILE: an encoding (repeatable); 'portfolio' races the portfolio as `sokoasp race` does, "
                   "'portfolio-prove' as `sokoasp race --prove`, 'portfolio-optimize' as `race --optimize` "
                   "with the time left (use --workers 1 for all three).")
@click.option("--strategies", "-s", "strategy_sets", multiple=True,
              help="Without GRID_FILE: a strategy set, comma-separated, 'none' for none (repeatable).")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds per run.")
@click.option("--memory-limit", type=click.IntRange(1, 10**7), help="MB per run.")
@click.option("--max-horizon", type=click.IntRange(0, HORIZON_MAX), default=SolveConfig.max_horizon, show_default=True)
@click.option("--start-factor", "start_factors", multiple=True, type=click.IntRange(1),
              help="Without GRID_FILE: first horizon = N x the proven lower bound (repeatable; default 1).")
@click.option("--executor", default="local", show_default=True,
              help="'local' (worker processes), 'dask://host:port', or 'dask-local' (an in-process Dask cluster).")
@click.option("--workers", type=click.IntRange(1), help="Local runs at a time (default: the cores).")
def grid_run(grid_file: Path | None, database: Path, instances: tuple[Path, ...], encodings: tuple[str, ...],
             strategy_sets: tuple[str, ...], time_limit: float, memory_limit: int | None, max_horizon: int,
             start_factors: tuple[int, ...], executor: str, workers: int | None) -> None:
    """Run a grid from GRID_FILE (TOML) or from options; resume where a previous run stopped."""
    if grid_file is not None:
        spec = read_spec(grid_file)
    elif instances:
        spec = spec_from_options(instances, encodings, strategy_sets, time_limit, memory_limit, max_horizon,
                                 start_factors)
    else:
        raise InputError("give a GRID_FILE or at least one --instance")
    summary = run_grid(spec, database, executor, workers, note=lambda line: click.echo(line, err=True))
    click.echo(f"{summary.ran} runs done ({summary.solved} solved), {summary.skipped_done} were already done; "
               f"results in {database}")
    if summary.ran and summary.failed == summary.ran:
        raise SokoaspError(f"every run of the grid ended in an error: see the messages in {database}")


@grid.command(name="report")
@click.option("--db", "database", type=click.Path(path_type=Path), default=Path("results.sqlite"), show_default=True)
@click.option("--runs", "runs_path", type=click.Path(path_type=Path),
              help="Read the runs from a CSV of `grid export` instead of a database.")
@click.option("--out", type=click.Path(path_type=Path), help="Folder for table.md, table.csv and plots.")
@click.option("--statistic", type=click.Choice(list(AGGREGATES)), default="median", show_default=True)
@click.option("--compare", nargs=2, help="Two configurations for a per-instance scatter plot.")
@click.option("--baseline", help="A configuration to report speed-ups against (with --out: a speed-up heatmap).")
@click.option("--suggest-portfolio", "portfolio_size", type=click.IntRange(1),
              help="Choose K configurations for a portfolio from these runs (greedy set cover).")
@click.option("--examples", type=click.IntRange(0), default=3, show_default=True,
              help="With --out: pictures and GIFs of this many solved plans (the longest).")
@click.option("--thesis", is_flag=True, help="The thesis's layout for a grid over a generated portfolio "
              "(generators/thesis.toml): rectangular, non-rectangular and zone tables, columns by size and boxes.")
def grid_report(database: Path, runs_path: Path | None, out: Path | None, statistic: str,
                compare: tuple[str, str] | None, baseline: str | None, portfolio_size: int | None, examples: int,
                thesis: bool) -> None:
    """The thesis-style table (rows: configurations, columns: instance classes) and plots.

    \b
    Example (the thesis reproduction, from its committed CSV):
      sokoasp grid report --runs benchmarks/thesis/runs.csv --thesis --statistic mean --baseline incremental
    """
    rows = read_runs_csv(runs_path) if runs_path is not None else stored_rows(database)
    if not rows:
        raise InputError("no finished runs", str(runs_path or database))
    table = thesis_tables(rows, statistic) if thesis else markdown_table(rows, statistic)
    click.echo(table)
    click.echo("\n" + length_table(rows))
    if baseline:
        click.echo("\n" + ratios(rows, baseline))
    if portfolio_size:
        click.echo("\nportfolio (greedy set cover): " + " | ".join(choose_members(rows, portfolio_size)))
    if out is not None:
        from sokoasp.tools.grid.examples import example_images  # these import matplotlib (a third of a second): only when drawing
        from sokoasp.tools.grid.plots import cactus, heatmap, scatter, speedup

        new_folder(out)
        write_new(out / "table.md", table + "\n")
        write_new(out / "table.csv", csv_table(rows, statistic))
        written = cactus(rows, out / "cactus") + heatmap(rows, out / "heatmap", statistic, thesis)
        if baseline:
            written += speedup(rows, baseline, out / "speedup", statistic, thesis)
        if compare:
            written += scatter(rows, compare[0], compare[1], out / "scatter")
        written += example_images(rows, out, examples)
        click.echo(f"\nwrote {out / 'table.md'}, {out / 'table.csv'}, " + ", ".join(p.name for p in written))


def stored_rows(database: Path) -> list[dict]:
    if not database.is_file():
        raise InputError("no such results database (give --db, or --runs with a CSV)", str(database))
    return read_rows(database)


def ratios(rows: list[dict], baseline: str) -> str:
    try:
        return ratio_table(rows, baseline)
    except KeyError:
        known = ", ".join(sorted({r["configuration"] for r in rows}))
        raise InputError(f"no runs of baseline {baseline!r} (configurations: {known})") from None


@click.command()
@click.argument("levels", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--baseline", default="incremental", show_default=True,
              help="The configuration to compare against, as ENCODING+STRATEGY+...")
@click.option("--config", "-c", "configurations", multiple=True, default=["push+dead+freeze+bound"],
              show_default=True, help="A configuration to measure (repeatable), as ENCODING+STRATEGY+...")
@click.option("--levels", "selection", help="Which levels of a collection, e.g. 1-20,31.")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds per run.")
@click.option("--memory-limit", type=click.IntRange(1, 10**7), default=8000, show_default=True, help="MB per run.")
@click.option("--max-horizon", type=click.IntRange(0, HORIZON_MAX), default=SolveConfig.max_horizon, show_default=True)
@click.option("--db", "database", type=click.Path(path_type=Path), default=Path("bench.sqlite"), show_default=True,
              help="Results database; rerunning resumes.")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=Path("bench.csv"), show_default=True)
@click.option("--workers", type=click.IntRange(1), help="Runs at a time (default: the cores).")
def bench(levels: tuple[Path, ...], baseline: str, configurations: tuple[str, ...], selection: str | None,
          time_limit: float, memory_limit: int, max_horizon: int, database: Path, csv_path: Path,
          workers: int | None) -> None:
    """Measure configurations against a baseline run in the same benchmark.

    Prints solved counts, median times and per-instance speed-up ratios (baseline time /
    configuration time, unsolved runs counted as the limit), and writes every run to a CSV.
    """
    instances = [i for path in levels for i in load_instances(path, levels=selection)]
    for label in (baseline, *configurations):
        encoding, strategies = parse_configuration(label)
        spec = build_spec(instances, [encoding], [strategies], [()], time_limit, memory_limit, max_horizon, label)
        run_grid(spec, database, "local", workers, note=lambda line: click.echo(line, err=True))
    wanted = {parse_label(label) for label in (baseline, *configurations)}
    digests = {i.digest for i in instances}
    rows = [r for r in read_rows(database) if r["configuration"] in wanted and r["instance_hash"] in digests
            and r["time_limit"] == time_limit]
    writable(csv_path).write_text(runs_csv(rows), encoding="utf-8")
    click.echo(ratios(rows, parse_label(baseline)))
    click.echo(f"\n{len(rows)} runs; every run in {csv_path}")


def parse_label(text: str) -> str:
    encoding, strategies = parse_configuration(text)
    return "+".join((encoding, *strategies))


@grid.command(name="export")
@click.option("--db", "database", type=click.Path(path_type=Path, exists=True, dir_okay=False),
              default=Path("results.sqlite"), show_default=True)
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), required=True, help="The CSV file to write.")
def grid_export(database: Path, csv_path: Path) -> None:
    """Write every run of a results database as one CSV row: level and its digest, class,
    configuration, status, times, moves, pushes, horizon, limits, versions, the phase that found
    the plan, and the plan (`grid report --runs` reads it back).

    \b
    Example:
      sokoasp grid export --db results.sqlite --csv runs.csv
    """
    rows = read_rows(database)
    writable(csv_path).write_text(runs_csv(rows), encoding="utf-8")
    click.echo(f"wrote {len(rows)} runs to {csv_path}")
