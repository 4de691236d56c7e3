"""Proving a plan record's plan push-optimal (``solve --prove --record``, the grid's
``record-prove``): a plan with detours gives way to the breadth-first optimum, an optimal plan
is proven, the record then marks it; bad input is refused with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_cli import run, write
from test_grid import rows_of

from sokoasp import SolveConfig, Status, solve
from sokoasp.board.xsb import read_levels
from sokoasp.errors import ExitCode, InputError
from sokoasp.portfolio.prove import prove_plan
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import read_spec
from sokoasp.tools.records import checked_entry, read_record, write_record

# One box, three pushes from its goal in an open room.
ROOM = """\
########
#      #
#      #
# @$  .#
#      #
#      #
########
"""
DETOURS = "RurDldRdrUluR"  # five pushes: right, down, right, up, right


def collection(tmp_path: Path) -> Path:
    """ROOM, two-boxes and turn-corner; the record holds a plan with detours for ROOM and an
    optimal plan for two-boxes, none for turn-corner."""
    path = write(tmp_path, "tiny.sok", f"; room\n{ROOM}\n; two-boxes\n{HAND_MADE['two-boxes']}\n; turn-corner\n"
                 f"{HAND_MADE['turn-corner']}")
    levels = read_levels(path.read_text(), "tiny")
    two_boxes_plan = solve(levels[1], SolveConfig(encoding="push")).plan or ""
    write_record(tmp_path / "record.csv", {1: checked_entry(levels, 1, DETOURS, "by hand", 0.0),
                                           2: checked_entry(levels, 2, two_boxes_plan, "push", 0.0)})
    return path


def test_the_detour_plan_solves_the_room_with_more_pushes_than_needed() -> None:
    assert_replays(level_of(ROOM), DETOURS)
    assert DETOURS.count("R") + DETOURS.count("U") + DETOURS.count("D") == 5 > bfs_pushes(ROOM)


def test_a_given_plan_with_detours_gives_way_to_a_push_optimal_one() -> None:
    level = level_of(ROOM)
    proved = prove_plan(level, DETOURS, "by hand", 30, None)
    assert proved.status is Status.SOLVED_OPTIMAL and proved.optimal_for == "pushes"
    assert proved.pushes == bfs_pushes(ROOM)
    assert_replays(level, proved.plan)
    assert "a shorter plan is push-optimal: 3 pushes, the first plan had 5" in proved.stats["proof"]


def test_a_given_plan_that_fails_replay_is_an_input_error() -> None:
    with pytest.raises(InputError, match="fails replay"):
        prove_plan(level_of(ROOM), "RR", "by hand", 30, None)


def test_solve_proves_a_records_plan_or_beats_it(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    record = tmp_path / "record.csv"
    code, out = run("race", "--prove", "--record", str(record), "--time-limit", "30", "-l", "1", str(levels))
    assert code == ExitCode.SOLVED, out
    assert "status:     solved (optimal) in pushes" in out and f"pushes: {bfs_pushes(ROOM)}" in out
    code, out = run("race", "--prove", "--record", str(record), "--time-limit", "30", "-l", "2", str(levels))
    assert code == ExitCode.SOLVED and f"pushes: {bfs_pushes(HAND_MADE['two-boxes'])}" in out
    assert "encoding:   given plan" in out and "push-optimal" in out


@pytest.mark.parametrize(("args", "problem"), [
    (["--record", "record.csv"], "give --prove too"),
    (["--prove", "--record", "record.csv", "-s", "dead"], "No such option"),
    (["--prove", "--record", "record.csv", "-l", "3"], "the record has no plan for level 3 of tiny.sok"),
    (["--prove", "--record", "missing.csv", "-l", "1"], "missing.csv: no such plan record"),
])
def test_bad_record_proofs_are_refused_with_a_clear_message(tmp_path: Path, args: list[str], problem: str) -> None:
    levels = collection(tmp_path)
    args = [str(tmp_path / a) if a.endswith(".csv") else a for a in args]
    code, out = run("race", *args, *([] if "-l" in args else ["-l", "1"]), str(levels))
    assert code in (ExitCode.INPUT_ERROR, ExitCode.USAGE) and problem in out, out
    assert "Traceback" not in out


def test_a_grid_proves_the_records_plans_and_the_record_marks_them(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    grid = write(tmp_path, "grid.toml", 'time_limit = 30\nencodings = ["record-prove"]\n'
                 '[[instances]]\npath = "tiny.sok"\nrecord = "record.csv"\n')
    spec = read_spec(grid)
    runs, skipped = spec.runs()
    assert [run.instance.name.split("#")[1] for run in runs] == ["1", "2"]
    assert skipped == [f"record-prove on 1 instance(s) without a plan in a record, such as {levels}#3"]
    database = tmp_path / "r.sqlite"
    assert run_grid(spec, database, workers=1, show_progress=False, note=lambda _: None).solved == 2
    assert all(row["optimal_for"] == "pushes" for row in rows_of(database))
    record = tmp_path / "record.csv"
    code, out = run("plans", str(levels), str(record), "--db", str(database))
    assert code == 0 and "2 of 3 levels of tiny.sok have a replayed plan, 2 proven push-optimal" in out, out
    entries = read_record(record, read_levels(levels.read_text(), "tiny"))
    assert (entries[1].pushes, entries[1].proven) == (bfs_pushes(ROOM), True)
    assert (entries[2].pushes, entries[2].proven) == (bfs_pushes(HAND_MADE["two-boxes"]), True)


def test_a_record_for_a_folder_of_levels_is_refused(tmp_path: Path) -> None:
    collection(tmp_path)
    grid = write(tmp_path, "grid.toml", 'encodings = ["record-prove"]\n[[instances]]\npath = "."\nrecord = "record.csv"\n')
    with pytest.raises(InputError, match="a record belongs to one level file"):
        read_spec(grid)


def test_a_record_that_is_not_a_file_name_is_refused(tmp_path: Path) -> None:
    collection(tmp_path)
    grid = write(tmp_path, "grid.toml", 'encodings = ["record-prove"]\n[[instances]]\npath = "tiny.sok"\nrecord = 3\n')
    with pytest.raises(InputError, match=r"instances\[1\]\.record must be a text, not 3"):
        read_spec(grid)
