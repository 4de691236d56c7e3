"""Start-up: each command imports what it uses. ``sokoasp --help`` lists the commands from
``sokoasp.cli.COMMANDS`` without importing them; a command imports its own module when it runs;
a run imports only the phases it names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from sokoasp.cli import COMMANDS, cli

# what no command below uses: the grid, the generators, the pictures, the portfolio, the phases and
# their searches, the optimizer
NOT_USED = ("sokoasp.tools", "sokoasp.portfolio", "sokoasp.phases.box_search", "sokoasp.phases.room_search",
            "sokoasp.phases.goal_room", "sokoasp.phases.staged", "sokoasp.phases.feature_search", "sokoasp.cli.grid",
            "sokoasp.cli.generate", "sokoasp.cli.show", "sokoasp.optimizer", "sokoasp.sokoban.traps", "sokoasp.sokoban.push_search",
            "sokoasp.sokoban.end_game", "sokoasp.sokoban.feature_search", "matplotlib", "tqdm")
SEARCHES = ("sokoasp.phases.box_search", "sokoasp.sokoban.traps", "sokoasp.sokoban.push_search", "sokoasp.sokoban.end_game")

ONE_BOX = "#####\n#@$.#\n#####\n"


def modules_after(args: list[str]) -> list[str]:
    """The modules of sokoasp and of its heavier dependencies imported by one command."""
    script = ("import json, sys\nfrom sokoasp.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)
    return json.loads(done.stderr.strip().splitlines()[-1])


def unused(modules: list[str], allowed: tuple[str, ...] = ()) -> list[str]:
    return [m for m in modules if m.startswith(NOT_USED) and not m.startswith(allowed)]


@pytest.mark.parametrize("args", [["--help"], ["encodings"], ["strategies"], ["phases", "--help"], ["solve", "--help"]])
def test_listings_and_help_import_no_command_they_do_not_run(args: list[str]) -> None:
    assert unused(modules_after(args)) == []


def test_a_solve_of_a_one_box_level_imports_no_phase_grid_or_portfolio(tmp_path: Path) -> None:
    level = tmp_path / "one.sok"
    level.write_text(ONE_BOX)
    modules = modules_after(["solve", "-e", "push", str(level)])
    assert "sokoasp.pipeline" in modules and unused(modules) == []
    assert "importlib.metadata" not in modules  # shipped names only: no scan of the installed plugins
    with_a_phase = modules_after(["solve", "-e", "push", "-p", "box-search", str(level)])
    assert unused(with_a_phase, allowed=SEARCHES) == []
    assert "sokoasp.phases.box_search" in with_a_phase


def test_the_help_lines_are_the_commands_own() -> None:
    """``COMMANDS`` spells each command's line for ``sokoasp --help``: it is the command's own
    short help, and every command is in it."""
    context = click.Context(cli)
    for name, (_, _, line) in COMMANDS.items():
        command = cli.get_command(context, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(limit=300) == line, name
    assert cli.get_command(context, "nope") is None
