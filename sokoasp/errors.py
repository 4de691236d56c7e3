"""Errors that reach the user, and the exit codes they map to.

The CLI is the single place where these become exit codes (see ``cli.run``).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes of ``sokoasp``, one per kind of outcome."""

    SOLVED = 0
    ERROR = 1  # internal error, or a plan that failed replay
    USAGE = 2  # click's own code for bad options
    NO_PLAN_UP_TO_HORIZON = 3
    UNSOLVABLE = 4
    TIMEOUT = 5
    MEMORY_OUT = 6
    INPUT_ERROR = 7


class SokoaspError(Exception):
    """Base class of every error meant for the user."""

    exit_code = ExitCode.ERROR


class Interrupted(SokoaspError):
    """A solver process was stopped from outside (a signal): there is no result to record."""


class Stopped(BaseException):
    """The process got a signal to stop (SIGTERM, SIGHUP): raised in the main thread, like
    KeyboardInterrupt for SIGINT, so that every ``finally`` runs and the solvers are stopped."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by signal {signum}")


class InputError(SokoaspError):
    """Bad user input: names the file, the line (where known) and the problem."""

    exit_code = ExitCode.INPUT_ERROR

    def __init__(self, problem: str, source: str | None = None, line: int | None = None) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.source is None:  # an option, not a file: the problem says which
            return self.problem
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.problem}"

    def at(self, source: str) -> InputError:
        """The same error, attributed to ``source`` if it had no file yet."""
        return InputError(self.problem, self.source or source, self.line)
