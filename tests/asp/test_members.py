"""Members from files: the headers the registries are read from, a user's encoding file and
strategy folder in solve and grids, and each bad member an error naming its file and line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import level_of
from oracle import bfs_moves

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.encodings import ENCODINGS, encoding_from_file, encodings_dir
from sokoasp.asp.headers import MARK
from sokoasp.asp.strategies import STRATEGIES, Soundness, strategy_from_folder
from sokoasp.errors import InputError

SOKOASP = str(Path(sys.executable).parent / "sokoasp")
LEVEL = "#######\n#@ $ .#\n#  $ .#\n#######\n"
HEADER = "%! strategy: mine\n%! summary: s\n%! families: incremental\n%! soundness: keeps-optimal\n"


def own_copy(tmp_path: Path, shipped: str, name: str) -> Path:
    """A user's strategy folder: a shipped one, renamed in its headers."""
    folder = tmp_path / name
    shutil.copytree(encodings_dir() / "strategies" / shipped, folder)
    for path in folder.glob("*.lp"):
        path.write_text(path.read_text().replace(f"%! strategy: {shipped}\n", f"%! strategy: {name}\n"))
    return folder


def test_every_shipped_member_is_read_from_its_files_header() -> None:
    for strategy in STRATEGIES.values():
        for file in strategy.files:
            assert file.path.read_text().startswith(MARK), file.path
            assert all(family in ENCODINGS for family in file.families)
        if not strategy.combination:
            assert strategy == strategy_from_folder(strategy.files[0].path.parent)
    for encoding in ENCODINGS.values():
        if encoding.files:
            assert encoding == encoding_from_file(encodings_dir() / encoding.files[-1])
    assert STRATEGIES["ff"].soundness is Soundness.MAY_LOSE and STRATEGIES["dead"].soundness is Soundness.KEEPS_OPTIMAL


def test_a_combination_claims_the_weakest_soundness_of_its_parts() -> None:
    assert STRATEGIES["type2"].soundness is Soundness.KEEPS_OPTIMAL
    assert set(STRATEGIES["type2"].encodings) == {"plain", "incremental", "split", "split-incremental"}


def test_a_users_strategy_folder_and_family_file_solve_as_the_shipped_ones(tmp_path: Path) -> None:
    folder = own_copy(tmp_path, "clutter", "my-clutter")
    family = tmp_path / "my-family.lp"
    family.write_text((encodings_dir() / "incremental.lp").read_text().replace("%! encoding: incremental\n", "%! encoding: my-family\n"))
    for path in folder.glob("*.lp"):  # serve the user's family too
        path.write_text(path.read_text().replace("%! families: incremental\n", "%! families: incremental my-family\n"))
    level = level_of(LEVEL)
    for encoding in ("incremental", str(family)):
        result = solve(level, SolveConfig(encoding=encoding, strategies=(f"{folder}/",)))
        assert result.status is Status.SOLVED_OPTIMAL and result.moves == bfs_moves(LEVEL)
        assert result.stats["rules"] != solve(level, SolveConfig(encoding=encoding)).stats["rules"]  # it is loaded


def test_a_grid_names_members_beside_it_and_reports_them_by_name(tmp_path: Path) -> None:
    own_copy(tmp_path, "clutter", "my-clutter")
    (tmp_path / "level.sok").write_text(LEVEL)
    (tmp_path / "grid.toml").write_text('strategies = [["./my-clutter/"]]\ntime_limit = 30\n[[instances]]\npath = "level.sok"\n')
    run = subprocess.run([SOKOASP, "grid", "run", "grid.toml", "--db", "r.sqlite", "--workers", "1"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = subprocess.run([SOKOASP, "grid", "report", "--db", "r.sqlite"], cwd=tmp_path, capture_output=True, text=True)
    assert "| incremental+my-clutter | " in report.stdout and "(1/1)" in report.stdout
    again = subprocess.run([SOKOASP, "grid", "run", "grid.toml", "--db", "r.sqlite"], cwd=tmp_path, capture_output=True, text=True)
    assert "0 to run" in again.stdout + again.stderr
    (tmp_path / "my-clutter" / "incremental.lp").write_text((tmp_path / "my-clutter" / "incremental.lp").read_text() + "% edited\n")
    edited = subprocess.run([SOKOASP, "grid", "run", "grid.toml", "--db", "r.sqlite"], cwd=tmp_path, capture_output=True, text=True)
    assert "1 to run" in edited.stdout + edited.stderr  # an edited member is a new configuration


BAD_FOLDERS = {
    "no header": ({"incremental.lp": ":- a.\n"}, "incremental.lp: the file has no header"),
    "unknown key": ({"incremental.lp": HEADER + "%! sound: yes\n"}, "incremental.lp:5: unknown header key 'sound'"),
    "key twice": ({"incremental.lp": HEADER + "%! summary: t\n"}, "incremental.lp:5: header key 'summary' is given twice"),
    "bad claim": ({"incremental.lp": HEADER.replace("keeps-optimal", "sound")}, "incremental.lp:4: soundness must be one of"),
    "no name": ({"incremental.lp": HEADER.replace("%! strategy: mine\n", "")}, "the header has no 'strategy' line"),
    "bad name": ({"incremental.lp": HEADER.replace("mine", "My Own")}, "incremental.lp:1: strategy must be a name"),
    "files disagree": ({"incremental.lp": HEADER, "push.lp": HEADER.replace("incremental", "push").replace("keeps-optimal", "may-lose")},
                       "push.lp:4: soundness differs from incremental.lp's"),
    "family twice": ({"incremental.lp": HEADER, "other.lp": HEADER}, "two files serve family 'incremental'"),
    "empty": ({}, "the strategy folder holds no .lp file"),
    "bad facts": ({"incremental.lp": HEADER + "%! facts: os.system('x')\n"}, "facts names a Python function as module:function"),
    "file option": ({"incremental.lp": HEADER + "%! clingo: --outf=3\n"}, "incremental.lp:5:"),
}


@pytest.mark.parametrize("case", sorted(BAD_FOLDERS))
def test_a_bad_strategy_folder_is_an_error_naming_its_file(tmp_path: Path, case: str) -> None:
    files, problem = BAD_FOLDERS[case]
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    with pytest.raises(InputError) as raised:
        strategy_from_folder(folder)
    assert problem in str(raised.value)


def test_an_unknown_family_or_a_missing_file_is_named_when_the_run_needs_it(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "incremental.lp").write_text(HEADER.replace("families: incremental", "families: incremantal"))
    with pytest.raises(InputError, match=r"incremental.lp:3: unknown family 'incremantal'"):
        solve(level_of(LEVEL), SolveConfig(strategies=(f"{folder}/",)))
    other = tmp_path / "other"  # a folder is read once a process, and a name is one member's
    other.mkdir()
    (other / "incremental.lp").write_text(HEADER.replace("mine", "mine-too"))
    with pytest.raises(InputError, match="strategy 'mine-too' does not support encoding 'push'"):
        solve(level_of(LEVEL), SolveConfig(encoding="push", strategies=(f"{other}/",)))


def test_a_users_member_may_not_take_a_shipped_name(tmp_path: Path) -> None:
    folder = own_copy(tmp_path, "clutter", "clutter")
    with pytest.raises(InputError, match="clashes with the strategy of that name from sokoasp"):
        solve(level_of(LEVEL), SolveConfig(strategies=(f"{folder}/",)))


@pytest.mark.parametrize("args,problem", [
    (["-s", "./nowhere/"], "no such folder"),
    (["-s", "my-strategy"], "unknown strategy 'my-strategy'"),
    (["-e", "nowhere.lp"], "nowhere.lp: no such file"),
])
def test_bad_members_on_the_command_line_are_usage_errors_without_a_traceback(tmp_path: Path, args: list[str], problem: str) -> None:
    (tmp_path / "level.sok").write_text(LEVEL)
    done = subprocess.run([SOKOASP, "solve", *args, "level.sok"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and problem in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("rule,problem", [(":- foo(X.\n", "syntax error"), ("p(X) :- not q(X,t).\n", "unsafe variables")])
def test_a_program_clingo_cannot_read_is_an_error_naming_its_file_and_line(tmp_path: Path, rule: str, problem: str) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "incremental.lp").write_text(HEADER.replace("mine", f"broken-{len(rule)}") + "#program step(t).\n" + rule)
    with pytest.raises(InputError) as raised:
        solve(level_of(LEVEL), SolveConfig(strategies=(f"{folder}/",)))
    assert raised.value.source == str(folder / "incremental.lp") and raised.value.line == 6 and problem in raised.value.problem
    family = tmp_path / "broken.lp"
    family.write_text("%! encoding: broken\n%! summary: s\n%! unit: move\n%! driven: incremental\n%! optimal: yes\n" + rule)
    done = subprocess.run([SOKOASP, "audit", str(family), "--levels", "2"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 7 and f"{family}:6: " in done.stderr and "Traceback" not in done.stderr
