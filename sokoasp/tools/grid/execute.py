"""Executors: run grid runs locally (worker processes, one per core by default) or on a
Dask cluster, and hand each finished result back as soon as it is ready."""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace

from sokoasp.errors import InputError, Interrupted
from sokoasp.optimizer import DEFAULT_WORK, optimize_result
from sokoasp.pipeline import solve
from sokoasp.portfolio.prove import prove_plan, race_and_prove
from sokoasp.portfolio.race import race
from sokoasp.result import Result, Status
from sokoasp.tools.grid.spec import OPTIMIZED_PORTFOLIO, OWN_CONFIGURATIONS, PROVED_PORTFOLIO, PROVED_RECORD, Run
from sokoasp.worker import solve_isolated, stop_all


def run_one(run: Run) -> Result:
    """One run with its limits. In a daemonic process (a Dask worker) no child can be forked:
    there the time limit is soft (solving is interrupted, grounding is not)."""
    if run.encoding in OWN_CONFIGURATIONS:
        if mp.current_process().daemon:
            raise InputError(f"{run.encoding} runs start their own solver processes: use the local executor")
        if run.encoding == PROVED_RECORD:
            return prove_plan(run.instance.level, run.instance.plan, "plan record", run.time_limit, run.memory_limit)
        run_race = race_and_prove if run.encoding == PROVED_PORTFOLIO else race
        result = run_race(run.instance.level, time_limit=run.time_limit, memory_mb=run.memory_limit)
        if run.encoding == OPTIMIZED_PORTFOLIO:  # the optimizer's budget is work; the time left only caps it
            left = max(0.1, run.time_limit - result.times.get("total", run.time_limit))
            result = optimize_result(run.instance.level, result, DEFAULT_WORK, left)
        return result
    if mp.current_process().daemon:
        return solve(run.instance.level, replace(run.config(), time_limit=run.time_limit))
    return solve_isolated(run.instance.level, run.config(), run.time_limit, run.memory_limit)


def safely(run: Run) -> Result | None:
    """The run's result; None if its solver was stopped from outside (nothing to record)."""
    try:
        return run_one(run)
    except Interrupted:
        return None
    except Exception as error:  # one broken run must not stop the grid
        return Result(Status.ERROR, message=f"{type(error).__name__}: {error}")


def run_local(runs: list[Run], workers: int | None = None) -> Iterator[tuple[Run, Result | None]]:
    """Each run in its own solver process; ``workers`` at a time (default: the cores)."""
    workers = workers or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[Result | None], Run] = {}
        queue = iter(runs)
        try:
            for run in queue:
                pending[pool.submit(safely, run)] = run
                if len(pending) >= workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield pending.pop(future), future.result()
                    following = next(queue, None)
                    if following is not None:
                        pending[pool.submit(safely, following)] = following
        finally:  # interrupted: stop the solvers in flight, so the threads waiting on them end at once
            stop_all()


def run_dask(runs: list[Run], address: str) -> Iterator[tuple[Run, Result | None]]:
    """Runs on a Dask cluster: ``dask://host:port``, or ``dask-local`` for an in-process one."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("the Dask executor needs the 'distributed' package: pip install 'sokoasp[dask]'") from None
    if address == "dask-local":
        cluster = LocalCluster(n_workers=1, threads_per_worker=os.cpu_count() or 1, processes=False,
                               dashboard_address=None)
        client = Client(cluster)
    elif address.startswith("dask://"):
        cluster, client = None, Client(address.removeprefix("dask://"))
    else:
        raise InputError(f"unknown executor {address!r}: use local, dask-local or dask://host:port")
    try:
        futures = {client.submit(safely, run, pure=False): run for run in runs}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
