"""The registry of phases: every phase it lists runs from the CLI and the pipeline, finds a plan
on a level made for it, calls that plan optimal only in the unit its entry claims (its pushes
are then the breadth-first optimum, else at least it), and says it found it; unknown or repeated phases are refused where they are given."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_cli import run, write
from test_goalroom import BEND
from test_roomstages import TWO_DOORS

from sokoasp import PHASES, PhaseRun, SolveConfig, Status, solve
from sokoasp.config import work_text
from sokoasp.errors import ExitCode, InputError
from sokoasp.phases import parse_phase, parse_phases

LEVELS = {  # a level each phase finds a plan for
    "box-search": HAND_MADE["two-boxes"],
    "fewest-pushes": HAND_MADE["two-boxes"],
    "feature-search": HAND_MADE["two-boxes"],
    "room-search": TWO_DOORS,
    "goal-room": BEND,
    "staged": HAND_MADE["two-boxes"],
}


def test_every_phase_has_a_level_here() -> None:
    assert set(LEVELS) == set(PHASES)


@pytest.mark.parametrize("name", sorted(PHASES))
def test_a_phases_plan_replays_is_called_optimal_only_as_claimed_and_names_the_phase(name: str) -> None:
    text = LEVELS[name]
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead",), phases=(PhaseRun(name, 300_000),)))
    claimed = PHASES[name].optimal
    assert result.status is (Status.SOLVED if claimed is None else Status.SOLVED_OPTIMAL), result.message
    assert result.optimal_for == claimed and result.found_by == name and result.phases[-1].phase == name
    assert_replays(level, result.plan)
    assert result.pushes >= bfs_pushes(text) if claimed is None else result.pushes == bfs_pushes(text)


@pytest.mark.parametrize("name", sorted(PHASES))
def test_every_phase_runs_from_the_command_line(name: str, tmp_path: Path) -> None:
    path = write(tmp_path, "level.sok", LEVELS[name])
    code, out = run("solve", "-e", "push", "-s", "dead", "--phase", f"{name}=300k", str(path))
    assert code == ExitCode.SOLVED and f"found by:   the phase {name}" in out


def test_the_listing_names_every_phase_with_its_kind_soundness_and_budget() -> None:
    code, out = run("phases")
    assert code == 0
    rows = out.splitlines()[1:]
    assert len(rows) == len(PHASES)
    for row, phase in zip(rows, PHASES.values(), strict=True):
        assert row.startswith(phase.name) and ("Python" if phase.kind == "python" else "ASP") in row
        assert phase.soundness in row and f" {work_text(phase.default_work)} " in row


def test_a_phase_without_a_budget_takes_its_default_and_bad_ones_are_refused() -> None:
    assert parse_phase("staged") == PhaseRun("staged", PHASES["staged"].default_work)
    assert parse_phase("box-search=2.5k") == PhaseRun("box-search", 2500)
    assert parse_phase({"name": "box-search", "work": 3_000_000}) == parse_phase("box-search=3M")
    assert str(parse_phase("box-search=1500")) == "box-search=1500"
    for text, problem in (("stages=3", "unknown phase 'stages'"), ("staged=x", "a whole number"),
                          ("staged=10", "from 1k"), ("staged=2.5", "from 1k"), ("staged=nan", "from 1k"),
                          ("staged=inf", "from 1k"), ("staged=-1", "from 1k"), ("staged=1.0001k", "from 1k"),
                          ("staged=2T", "from 1k"), ("staged=2000G", "from 1k"), ("staged=٣k", "from 1k")):
        with pytest.raises(InputError, match=problem):
            parse_phase(text)
    with pytest.raises(InputError, match="given twice"):
        parse_phases(["staged=1k", "box-search", "staged=2k"])


@pytest.mark.parametrize(("args", "problem"), [
    (["--phase", "stages=3"], "unknown phase 'stages'"),
    (["--phase", "staged=1k", "--phase", "staged=2k"], "given twice"),
    (["--phase", "staged=nan"], "work units"),
])
def test_solve_refuses_bad_phases_naming_the_option(args: list[str], problem: str, tmp_path: Path) -> None:
    path = write(tmp_path, "level.sok", HAND_MADE["two-boxes"])
    code, out = run("solve", "-e", "push", *args, str(path))
    assert code == ExitCode.USAGE and "--phase" in out and problem in out and "Traceback" not in out


@pytest.mark.parametrize("command", ["", "solve", "race", "phases", "portfolio", "grid", "grid run", "grid report",
                                     "bench", "generate", "show", "plans", "convert", "export"])
def test_every_help_fits_a_screen_and_teaches(command: str) -> None:
    code, out = run(*command.split(), "--help")
    assert code == 0 and len(out.splitlines()) <= 80
