"""The two provers of `--prove` on the same task, side by side (one core each): show that no
plan has fewer pushes than the plan in a plan record, for each chosen level. From below, the
push family's horizon loop refutes every horizon from the lower bound up to one push fewer; from
above (`--descend`), push-jump asked for one push fewer than the plan (a plan it finds there
is shorter: it then asks one fewer than that, and so on). Both with dead, freeze, bound and
pairs, one clasp thread each. Prints each level's times and the speed-up (below / above, an
unproven run counted as the limit) and writes a CSV.

    python generators/proof_directions.py ../shared/levels/microban_i.sok \
        instances/plans/microban_i.csv --levels 59,65,72,77,83,85,87,92,97,100,120,147
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import click

from sokoasp.board.level import Level
from sokoasp.board.loading import load_all
from sokoasp.cli import run
from sokoasp.portfolio.prove import decisive, provers
from sokoasp.result import Result
from sokoasp.tools.records import read_record
from sokoasp.worker import deadline_of, start_worker


def side_by_side(level: Level, pushes: int, limit: float) -> list[Result]:
    workers = [start_worker(level, config, limit, None) for config in provers(pushes)]
    results = []
    for worker in workers:
        result = worker.wait_until(deadline_of(worker.began, limit))
        results.append(result if result is not None else worker.timed_out(limit))
    return results


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.argument("record", type=click.Path(exists=True, path_type=Path))
@click.option("--levels", required=True, help="Level numbers, e.g. 59,65,72.")
@click.option("--time-limit", type=float, default=60.0, show_default=True)
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=Path("proof-directions.csv"), show_default=True)
def main(level_file: Path, record: Path, levels: str, time_limit: float, csv_path: Path) -> None:
    collection = [loaded.level for loaded in load_all(level_file)]
    plans = read_record(record, collection)
    rows, ratios = [], []
    print("level  pushes  below (s)  above (s)  speed-up")
    for number in (int(n) for n in levels.split(",")):
        pushes = plans[number].pushes
        below, above = side_by_side(collection[number - 1], pushes, time_limit)
        times = [r.times.get("total", time_limit) if decisive(r, pushes) else time_limit for r in (below, above)]
        ratio = times[0] / times[1]
        ratios.append(ratio)
        marks = ["" if decisive(r, pushes) else " (not proven)" for r in (below, above)]
        print(f"{number:5}  {pushes:6}  {times[0]:6.1f}{marks[0]}  {times[1]:6.1f}{marks[1]}  {ratio:.2f}x", flush=True)
        rows.append({"level": number, "pushes": pushes, "below_s": times[0], "below": below.status.value,
                     "above_s": times[1], "above": above.status.value, "above_pushes": above.pushes})
    with csv_path.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    geometric = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"geometric mean speed-up (below / above): {geometric:.2f}x; wrote {csv_path}")


if __name__ == "__main__":
    run(main)
