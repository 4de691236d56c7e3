"""The ``sokoasp`` command line: one module per command. ``run`` is the one place where errors
and results become exit codes."""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import click

from sokoasp.cli.output import EXIT_CODES_HELP
from sokoasp.errors import ExitCode, SokoaspError, Stopped

# Every command: its module and function, and the line `sokoasp --help` shows for it. A command's
# module is imported when the command runs (or shows its own help), so each command imports only
# what it uses; tests/cli/test_startup.py checks the lines against the commands' docstrings.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "audit": ("audit", "audit_command", "Check a strategy's or encoding's claim against the exact optimum on generated levels."),
    "bench": ("grid", "bench", "Measure configurations against a baseline run in the same benchmark."),
    "convert": ("convert", "convert", "Convert a level between XSB/.sok text and the thesis fact format (.lp)."),
    "encodings": ("listings", "list_encodings", "List the encoding families, what one time step means and where each comes from."),
    "export": ("convert", "export", "Export levels for other planners: FOLDER/domain.pddl and FOLDER/<level>.pddl."),
    "generate": ("generate", "generate", "Build a level portfolio from a TOML recipe (see generators/thesis.toml)."),
    "grid": ("grid", "grid", "Compare encodings x strategy sets x clingo options on instance portfolios."),
    "optimize": ("optimize", "optimize_command", "Shorten a plan: windows of it are re-solved by clingo for the fewest "
                 "moves or pushes and spliced in when shorter."),
    "phases": ("listings", "list_phases", "List the phases that may run before the horizon loop, with their settings and defaults."),
    "plans": ("plans", "plans_command", "Keep RECORD, a CSV of the best validated plan per level of LEVEL_FILE (fewest pushes, "
              "then moves), and replay every plan in it."),
    "portfolio": ("members", "list_portfolio", "List the members `sokoasp race` runs, in order, one per core at a time."),
    "race": ("race", "race_command", "Race the portfolio's members on the cores and keep the first replayed plan."),
    "show": ("show", "show", "Show a level and a plan: text in the terminal, pictures, animations, an HTML player."),
    "solve": ("solve", "solve_command", "Solve one level (.lp facts, or .sok/.xsb text) and print a plan the simulator replayed."),
    "strategies": ("listings", "list_strategies", "List the strategy modules: thesis name, soundness, supported encodings, origin."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when one runs (click's lazy-loading pattern); its help
    lists them from ``COMMANDS`` without importing any."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"sokoasp.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=line).get_short_help_str(limit)) for name, (_, _, line) in sorted(COMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, epilog=EXIT_CODES_HELP)
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
    stop_solvers()
    click.echo("interrupted: the solvers are stopped; finished results are kept", err=True)
    sys.exit(128 + signal.SIGINT)


def stop_solvers() -> None:
    """Stop every solver process a command started (none if it started no worker)."""
    worker = sys.modules.get("sokoasp.worker")
    if worker is not None:
        worker.stop_all()


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
    except BrokenPipeError:  # the reader of our output left (``| head``): what was to be written is written
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        sys.exit(ExitCode.ERROR)
    except OSError as error:  # a path the user named (a folder for a file, no rights), or a full disk
        where = f"{error.filename}: " if error.filename is not None else ""
        click.echo(f"error: {where}{error.strerror or error}", err=True)
        sys.exit(ExitCode.INPUT_ERROR)
    except KeyboardInterrupt:
        interrupted()
    except Stopped as stop:
        stop_solvers()
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
