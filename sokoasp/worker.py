"""Hard limits: run one solve in a worker process, killed at the time limit, with an
address-space cap for memory. The result says which limit was hit."""

from __future__ import annotations

import multiprocessing as mp
import resource
import time
from multiprocessing.connection import Connection

from .driver import SolveConfig, check_config, solve, validate
from .errors import SokoaspError
from .level import Level
from .result import Result, Status

GRACE_SECONDS = 2.0


def child(level: Level, config: SolveConfig, memory_mb: int | None, pipe: Connection) -> None:
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        result = solve(level, config)
    except MemoryError:
        result = Result(Status.MEMORY_OUT, message=f"memory limit of {memory_mb} MB exceeded")
    except SokoaspError as error:
        result = Result(Status.ERROR, message=str(error))
    except RuntimeError as error:  # clingo reports std::bad_alloc as a RuntimeError
        memory = "bad_alloc" in str(error) or "memory" in str(error).lower()
        result = Result(Status.MEMORY_OUT if memory else Status.ERROR, message=str(error))
    result.stats["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    pipe.send(result.to_dict())
    pipe.close()


def solve_isolated(
    level: Level, config: SolveConfig, time_limit: float | None = None, memory_mb: int | None = None
) -> Result:
    """Solve in a child process; grounding that outlives the limit is killed."""
    check_config(config)
    context = mp.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    soft = SolveConfig(**{**config.__dict__, "time_limit": time_limit})
    process = context.Process(target=child, args=(level, soft, memory_mb, sender), daemon=True)
    began = time.perf_counter()
    process.start()
    sender.close()
    deadline = None if time_limit is None else time_limit + GRACE_SECONDS
    ready = receiver.poll(deadline)
    elapsed = round(time.perf_counter() - began, 4)
    if ready:
        try:
            data = receiver.recv()
        except EOFError:
            data = None
    else:
        data = None
    process.join(0.5)
    if process.is_alive():
        process.kill()
        process.join()
    if data is not None:
        result = validate(level, Result.from_dict(data))  # replayed again, in this process
    elif not ready:
        result = Result(Status.TIMEOUT, message=f"killed after {time_limit} s (grounding or solving)")
    elif memory_mb:
        result = Result(Status.MEMORY_OUT, message=f"worker died (exit {process.exitcode}) under a {memory_mb} MB limit")
    else:
        result = Result(Status.ERROR, message=f"worker died (exit {process.exitcode})")
    result.config = result.config or config.describe()
    result.times.setdefault("total", elapsed)
    return result
