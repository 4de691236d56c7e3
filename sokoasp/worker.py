"""Hard limits: run solves in worker processes, killed at the time limit, with an
address-space cap for memory. The result says which limit was hit.

The child sends each phase's report as the phase ends, then its result; a run killed later
keeps those reports."""

from __future__ import annotations

import ctypes
import math
import multiprocessing as mp
import os
import resource
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from sokoasp.board.level import Level
from sokoasp.errors import Interrupted, SokoaspError
from sokoasp.pipeline import Progress, SolveConfig, check_config, solve, validate
from sokoasp.result import PhaseReport, Result, Status

GRACE_SECONDS = 2.0  # a worker gets at most this long past its time limit to answer (grounding cannot be interrupted)
GRACE_SHARE = 0.25  # ... and at most this share of a short limit

OUTSIDE_SIGNALS = {signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
# How a worker dies in native code when an allocation fails (every Python exception of a worker is
# caught and sent as a result): clingo's terminate handler (exit 1), an abort, a fault, or glibc's
# exit 127 ("cannot allocate memory for thread-local data" when a thread starts). Under a memory
# limit such a death is read as memory out; without one it is an error.
MEMORY_DEATHS = {1, 127, -signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS}
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
LIVE: set[Worker] = set()  # the workers started and not yet stopped, for stop_all


def grace(time_limit: float) -> float:
    """How long past ``time_limit`` a worker may take to answer before it is killed."""
    return min(GRACE_SECONDS, GRACE_SHARE * time_limit)


def find_prctl() -> Callable[..., int] | None:
    """prctl(2), looked up once in the parent: a child forked from a threaded parent must not load
    libraries (the loader's lock may be held by another thread at the fork)."""
    try:
        return cast(Callable[..., int], ctypes.CDLL(None, use_errno=True).prctl)
    except (OSError, AttributeError):
        return None


PRCTL = find_prctl() if sys.platform.startswith("linux") else None


def bind_to_parent(parent: int, time_limit: float | None) -> None:
    """Make this (child) process die with its parent and within its limits: SIGKILL when the
    parent dies (Linux; strictly, when the thread that started it ends, which the grid's and the
    race's threads do only after their workers), a CPU-time limit just past the time limit, and
    Ctrl-C left to the parent, which stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):  # a supervisor's stop to the group: end quietly, the parent speaks
        signal.signal(signum, signal.SIG_DFL)
    if PRCTL is not None:  # elsewhere than Linux the parent's own stop_all is the safeguard
        PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the prctl
        os._exit(1)
    if time_limit is not None:  # CPU seconds of all its threads: every core for the whole time, and a little more
        seconds = math.ceil((time_limit + grace(time_limit)) * (os.cpu_count() or 1)) + 1
        limit(resource.RLIMIT_CPU, seconds, seconds + 5)


def limit(kind: int, soft: int, hard: int) -> None:
    """Set a resource limit within the hard limit set from outside (a batch system's or a shell's
    ``ulimit``), which a process may lower and never raise. A CPU soft limit stays a second below
    the hard one, so the process hears SIGXCPU (a time limit) rather than SIGKILL."""
    outside = resource.getrlimit(kind)[1]
    if outside != resource.RLIM_INFINITY:
        hard = min(hard, outside)
        soft = min(soft, max(hard - 1, 1) if kind == resource.RLIMIT_CPU else hard)
    resource.setrlimit(kind, (soft, hard))


def memory_limit_mb() -> int | None:
    """The address-space limit this process runs under, in MB (None: unlimited)."""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    return None if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)


def quiet_native_stderr() -> None:
    """Send what native code writes to file descriptor 2 (clingo's abort text when memory runs
    out) to /dev/null, keeping Python's ``sys.stderr`` (progress lines) on the terminal: a
    worker's outcome reaches the parent through its pipe, and the parent speaks."""
    try:
        python_stderr = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        sys.stderr = os.fdopen(python_stderr, "w", buffering=1, encoding="utf-8", errors="replace")
    except OSError:
        pass


def child(level: Level, config: SolveConfig, memory_mb: int | None, pipe: Connection, parent: int,
          progress: Progress | None = None) -> None:
    bind_to_parent(parent, config.time_limit)
    quiet_native_stderr()
    if memory_mb:
        limit(resource.RLIMIT_AS, memory_mb * 1024 * 1024, memory_mb * 1024 * 1024)

    def report(phase: PhaseReport) -> None:
        pipe.send(("report", asdict(phase)))

    try:
        result = solve(level, config, progress, report)
    except MemoryError:
        result = Result(Status.MEMORY_OUT, message=f"memory limit of {memory_limit_mb()} MB exceeded")
    except SokoaspError as error:
        result = Result(Status.ERROR, message=str(error))
    except RuntimeError as error:  # clingo reports std::bad_alloc as a RuntimeError
        memory = "bad_alloc" in str(error) or "memory" in str(error).lower()
        result = Result(Status.MEMORY_OUT if memory else Status.ERROR, message=str(error))
    except Exception as error:  # a bug: report it with its reason instead of dying silently
        result = Result(Status.ERROR, message=f"{type(error).__name__}: {error}")
    result.stats["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    pipe.send(("result", result.to_dict()))
    pipe.close()


@dataclass
class Worker:
    """One solver process and the pipe its result arrives on."""

    level: Level
    config: SolveConfig
    memory_mb: int | None
    process: mp.process.BaseProcess
    receiver: Connection
    began: float
    reports: list[PhaseReport] = field(default_factory=list)  # the phases' reports heard so far

    def take(self) -> Result | None:
        """Read what the receiver has ready: a phase's report (kept; None is returned), or the
        result (replayed here again), or the process's death."""
        try:
            message = self.receiver.recv()
        except (EOFError, OSError):
            return self.died()
        if self.kept(message):
            return None
        self.stop()
        return self.stamp(validate(self.level, Result.from_dict(message[1])))

    def kept(self, message: tuple[str, Any]) -> bool:
        """Keep a phase's report (``("report", fields)``); False for the result."""
        if message[0] != "report":
            return False
        self.reports.append(PhaseReport(**message[1]))
        return True

    def keep_reports(self) -> None:
        """Read the reports already sent, and nothing else (the worker is being given up)."""
        try:
            while self.receiver.poll(0):
                self.kept(self.receiver.recv())
        except (EOFError, OSError):
            pass

    def wait_until(self, deadline: float | None) -> Result | None:
        """The result, or None when ``deadline`` (a perf_counter time) passes first."""
        while True:
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            if not self.receiver.poll(left):
                return None
            result = self.take()
            if result is not None:
                return result

    def died(self) -> Result:
        self.stop()
        code = self.process.exitcode
        if code is not None and code < 0 and -code in OUTSIDE_SIGNALS:
            raise Interrupted(f"the solver process was stopped by signal {-code}")
        elif code == -signal.SIGXCPU:
            result = Result(Status.TIMEOUT, message="the CPU-time limit was reached")
        elif code in MEMORY_DEATHS and (self.memory_mb or memory_limit_mb()):
            result = Result(Status.MEMORY_OUT, message=f"worker died (exit {code}) in native code under a "
                                                       f"{self.memory_mb or memory_limit_mb()} MB limit")
        else:
            result = Result(Status.ERROR, message=f"worker died (exit {self.process.exitcode})")
        return self.stamp(result)

    def timed_out(self, limit: float | None) -> Result:
        self.keep_reports()
        self.stop()
        return self.stamp(Result(Status.TIMEOUT, message=f"killed after {limit} s (grounding or solving)"))

    def stamp(self, result: Result) -> Result:
        result.phases = result.phases or list(self.reports)
        result.config = result.config or self.config.describe()
        result.times.setdefault("total", round(time.perf_counter() - self.began, 4))
        return result

    def stop(self, at_once: bool = False) -> None:
        self.process.join(0 if at_once else 0.2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        LIVE.discard(self)

    __hash__ = object.__hash__


def start_worker(level: Level, config: SolveConfig, time_limit: float | None, memory_mb: int | None,
                 progress: Progress | None = None) -> Worker:
    check_config(config)
    context = mp.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    soft = replace(config, time_limit=time_limit)
    # forked, so the progress callback (a closure) reaches the child without pickling
    process = context.Process(target=child, args=(level, soft, memory_mb, sender, os.getpid(), progress), daemon=True)
    began = time.perf_counter()
    process.start()
    sender.close()
    worker = Worker(level, soft, memory_mb, process, receiver, began)
    LIVE.add(worker)
    return worker


def stop_all() -> None:
    """Kill every worker still running: a run that is interrupted stops its solvers first."""
    for worker in list(LIVE):
        worker.stop(at_once=True)


def solve_isolated(
    level: Level,
    config: SolveConfig,
    time_limit: float | None = None,
    memory_mb: int | None = None,
    progress: Progress | None = None,
) -> Result:
    """Solve in a child process; grounding that outlives the limit is killed, and so is the child
    when the wait is interrupted."""
    worker = start_worker(level, config, time_limit, memory_mb, progress)
    try:
        result = worker.wait_until(deadline_of(worker.began, time_limit))
    except BaseException:
        worker.stop(at_once=True)
        raise
    return result if result is not None else worker.timed_out(time_limit)


def arrivals(pending: dict[Connection, Worker], deadline: float | None) -> Iterator[Result]:
    """The results of the ``pending`` workers as they come (each taken out of ``pending``; a
    worker the caller adds meanwhile is waited for too), until none is left or ``deadline`` (a
    perf_counter time) passes. Phase notes stay with their workers."""
    while pending:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        ready = cast(list[Connection], wait(list(pending), timeout=left))
        if not ready:
            return
        for receiver in ready:
            result = pending[receiver].take()
            if result is not None:
                del pending[receiver]
                yield result


def deadline_of(began: float, time_limit: float | None) -> float | None:
    """When a run that began at ``began`` (a perf_counter time) and has not answered is killed."""
    return None if time_limit is None else began + time_limit + grace(time_limit)
