"""The grid's database: one writer at a time, solved results are never replaced by unsolved
ones, bad database paths are input errors, and an interrupted grid keeps what finished and
leaves no solver behind."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_grid import rows_of, tiny_folder
from test_stopping import as_a_background_run, children, gone_within

from sokoasp.errors import ExitCode, InputError
from sokoasp.result import Result, Status
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import build_spec, load_instances
from sokoasp.tools.grid.store import Store


def test_a_second_writer_is_refused_while_the_first_holds_the_database(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    first = Store(database, writer=True)
    try:
        with pytest.raises(InputError, match="another `sokoasp grid run` is writing"):
            run_grid(spec, database, show_progress=False, note=lambda _: None)
        assert rows_of(database) == []  # readers are welcome
    finally:
        first.close()
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == len(spec.instances)


def test_a_solved_run_is_never_replaced_by_an_unsolved_one(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    run = spec.runs()[0][0]
    store = Store(database, writer=True)
    store.record(run, Result(Status.SOLVED, plan="", moves=0, pushes=0, times={"total": 1.0}))
    store.record(run, Result(Status.TIMEOUT, times={"total": 30.0}))
    store.close()
    rows = rows_of(database)
    assert [(row["status"], row["solved"]) for row in rows] == [(Status.SOLVED.value, 1)]


def test_a_closed_database_needs_no_wal_file_beside_it(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(database.read_bytes())  # the database file alone, as a user copies it
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM runs").fetchone()[0] == len(spec.instances)


@pytest.mark.parametrize("name", ["folder", "missing/r.sqlite", "text.sqlite"])
def test_bad_database_paths_are_input_errors(name: str, tmp_path: Path) -> None:
    from test_cli import run

    (tmp_path / "folder").mkdir()
    (tmp_path / "text.sqlite").write_text("not a database, just text " * 100)
    code, out = run("grid", "run", "-i", str(tiny_folder(tmp_path)), "-e", "push", "--db", str(tmp_path / name))
    assert code == ExitCode.INPUT_ERROR and "Traceback" not in out and "internal error" not in out, out


def test_a_grid_whose_runs_all_fail_says_so_and_exits_non_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_cli import run

    from sokoasp.tools.grid import execute

    def broken(run: object) -> Result:
        raise RuntimeError("a broken solver")

    monkeypatch.setattr(execute, "run_one", broken)
    code, out = run("grid", "run", "-i", str(tiny_folder(tmp_path)), "-e", "push", "--db", str(tmp_path / "r.sqlite"))
    assert code == ExitCode.ERROR and "every run of the grid ended in an error" in out
    assert {row["message"] for row in rows_of(tmp_path / "r.sqlite")} == {"RuntimeError: a broken solver"}


@pytest.mark.parametrize(("line", "problem"), [
    ('memory_limit = "lots"', "memory_limit must be MB"),
    ('clingo_options = "--x"', "clingo_options must be a list of option lists"),
    ("max_horizon = -1", "max_horizon must be a whole number"),
    ("time_limit = nan", "time_limit must be seconds"),
    ('clingo_options = [["--configuration=/etc/passwd"]]', "clasp's presets"),
    ('clingo_options = [["--no-such-clingo-option"]]', "not one sokoasp passes on"),
    ('clingo_options = [["--seed=minus-one"]]', "clingo does not take"),
])
def test_a_grid_file_is_checked_whole_before_the_first_run(line: str, problem: str, tmp_path: Path) -> None:
    from test_cli import run

    grid = tmp_path / "g.toml"
    grid.write_text(f'encodings = ["push"]\n{line}\n[[instances]]\npath = "{tiny_folder(tmp_path)}"\n')
    code, out = run("grid", "run", str(grid), "--db", str(tmp_path / "r.sqlite"))
    assert code == ExitCode.INPUT_ERROR and problem in out and "root:" not in out, out
    assert not (tmp_path / "r.sqlite").exists() or rows_of(tmp_path / "r.sqlite") == []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process table in /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_grid_keeps_its_finished_runs_and_stops_its_solvers(signum: int, tmp_path: Path) -> None:
    folder = tiny_folder(tmp_path)
    slow = Path(__file__).resolve().parents[2] / "instances" / "thesis_example.lp"
    (folder / "zz-slow.lp").write_text(slow.read_text())
    database = tmp_path / "r.sqlite"
    command = [sys.executable, "-m", "sokoasp", "grid", "run", "-i", str(folder), "-e", "incremental",
               "--workers", "1", "--db", str(database)]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path, preexec_fn=as_a_background_run)
    deadline = time.monotonic() + 60
    solvers: set[int] = set()
    while time.monotonic() < deadline:  # the tiny levels come first (sorted names): wait for the slow one
        time.sleep(0.1)
        done = len(rows_of(database)) if database.exists() else 0
        solvers = {pid for pid in children(process.pid)}
        if done == len(list(folder.iterdir())) - 1 and solvers:
            break
    time.sleep(0.5)
    os.kill(process.pid, signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum and "Traceback" not in err, err
    assert gone_within(solvers, 5)
    rows = rows_of(database)
    assert len(rows) == len(list(folder.iterdir())) - 1 and all(row["solved"] for row in rows)
