"""Run a grid: skip what the store already holds, record each run the moment it ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from sokoasp.result import Status
from sokoasp.tools.grid.execute import run_dask, run_local
from sokoasp.tools.grid.spec import GridSpec
from sokoasp.tools.grid.store import Store


@dataclass
class GridSummary:
    total: int
    skipped_done: int
    ran: int
    solved: int
    unsupported: list[str]
    failed: int = 0  # runs that ended in an error (not a timeout or a refutation)


def run_grid(
    spec: GridSpec,
    database: Path,
    executor: str = "local",
    workers: int | None = None,
    show_progress: bool = True,
    note: Callable[[str], None] = print,
) -> GridSummary:
    runs, unsupported = spec.runs()
    for line in unsupported:
        note(f"skipped (unsupported): {line}")
    store = Store(database, writer=True)
    try:
        done = store.done_keys()
        todo = [run for run in runs if run.key not in done]
        note(f"{len(runs)} runs in the grid, {len(runs) - len(todo)} already in {database}, {len(todo)} to run")
        results = run_local(todo, workers) if executor == "local" else run_dask(todo, executor)
        solved = failed = 0
        with tqdm(total=len(todo), disable=not show_progress or not todo, unit="run", dynamic_ncols=True) as bar:
            for run, result in results:
                if result is None:  # stopped from outside: left for the next run of the grid
                    bar.update()
                    continue
                store.record(run, result)
                solved += result.status.solved
                failed += result.status is Status.ERROR
                bar.set_postfix(solved=solved, last=result.status.value[:12])
                bar.update()
    finally:
        store.close()
    return GridSummary(len(runs), len(runs) - len(todo), len(todo), solved, unsupported, failed)
