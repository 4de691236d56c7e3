"""The ``sokoasp`` command line: one module per command. ``run`` is the one place where errors
and results become exit codes."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import click

from sokoasp.cli.convert import convert, export
from sokoasp.cli.generate import generate
from sokoasp.cli.grid import bench, grid
from sokoasp.cli.listings import list_encodings, list_phases, list_portfolio, list_strategies
from sokoasp.cli.output import EXIT_CODES_HELP
from sokoasp.cli.plans import plans_command
from sokoasp.cli.race import race_command
from sokoasp.cli.show import show
from sokoasp.cli.solve import solve_command
from sokoasp.errors import ExitCode, SokoaspError, Stopped
from sokoasp.worker import stop_all


@click.group(epilog=EXIT_CODES_HELP)
@click.version_option(package_name="sokoasp")
def cli() -> None:
    """Plan Sokoban with answer set programming (clingo).

    \b
    Quick start:
      sokoasp solve instances/thesis_example.lp
      sokoasp solve --encoding plain --horizon 23 instances/thesis_example.lp
      sokoasp solve --level 3 --strategy clutter instances/microban_1-5.sok
      sokoasp race --time-limit 60 --level 5 instances/microban_1-5.sok
      sokoasp strategies
    """


for command, name in ((solve_command, "solve"), (race_command, "race"), (convert, None), (export, None),
                      (plans_command, None), (grid, None), (bench, None), (generate, None), (show, None),
                      (list_encodings, None), (list_strategies, None), (list_phases, None), (list_portfolio, None)):
    cli.add_command(command, name=name)


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Stopped`` in the main thread while a command runs (as Ctrl-C
    raises KeyboardInterrupt), so the command stops its solvers and keeps what finished."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, stop_on) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def interrupted() -> None:
    """Ctrl-C: stop the solvers and exit 130."""
    stop_all()
    click.echo("interrupted: the solvers are stopped; finished results are kept", err=True)
    sys.exit(128 + signal.SIGINT)


def stop_on(signum: int, _frame: object) -> None:
    raise Stopped(signum)


def main(args: list[str] | None = None) -> None:
    """Entry point of the ``sokoasp`` command."""
    run(cli, args, "sokoasp")


def run(command: click.Command, args: list[str] | None = None, prog_name: str | None = None) -> None:
    """Run ``command``: the one place where errors become exit codes (no tracebacks for
    users). The measuring scripts of benchmarks/ run through it too."""
    try:
        with stopping_on_signals():
            code = command.main(args=args, prog_name=prog_name, standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except click.exceptions.Abort as abort:  # click's word for Ctrl-C (and for an aborted prompt)
        if isinstance(abort.__cause__, KeyboardInterrupt):
            interrupted()
        click.echo("aborted", err=True)
        sys.exit(ExitCode.ERROR)
    except click.ClickException as error:
        error.show()
        sys.exit(ExitCode.USAGE)
    except SokoaspError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(error.exit_code)
    except OSError as error:  # a path the user named: a folder for a file, a folder that is not there, no rights
        if error.filename is None:
            internal_error(error)
        click.echo(f"error: {error.filename}: {error.strerror}", err=True)
        sys.exit(ExitCode.INPUT_ERROR)
    except KeyboardInterrupt:
        interrupted()
    except Stopped as stop:
        stop_all()
        click.echo(f"{stop}: the solvers are stopped; finished results are kept", err=True)
        sys.exit(128 + stop.signum)
    except Exception as error:  # a bug: say so briefly; SOKOASP_DEBUG=1 shows the traceback
        internal_error(error)


def internal_error(error: Exception) -> None:
    """A bug: say so in a line and exit 1; SOKOASP_DEBUG=1 shows the traceback instead."""
    if os.environ.get("SOKOASP_DEBUG"):
        raise error
    click.echo(f"internal error: {type(error).__name__}: {error} (rerun with SOKOASP_DEBUG=1 for details)", err=True)
    sys.exit(ExitCode.ERROR)
