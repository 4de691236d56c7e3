"""`sokoasp grid export` writes one CSV row per run, which `grid report --runs` reads back;
`grid report --thesis` lays a generated portfolio's classes out as the thesis's three tables do."""

from __future__ import annotations

import csv
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import HAND_MADE
from test_cli import run
from test_grid import TINY, rows_of, tiny_folder

from sokoasp.config import PhaseRun
from sokoasp.errors import ExitCode, InputError
from sokoasp.tools.grid.report import read_runs_csv, thesis_order, thesis_tables
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import build_spec, load_instances

ROOT = Path(__file__).resolve().parents[2]
HEADER = "instance,instance_class,configuration,status,solved,total_time,time_limit"


def test_export_writes_one_row_per_run_with_outcome_limits_and_versions(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push", "incremental"], [()], [()], 30, 2000, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    code, out = run("grid", "export", "--db", str(database), "--csv", str(tmp_path / "runs.csv"))
    assert code == 0 and "wrote 8 runs" in out
    with (tmp_path / "runs.csv").open(newline="") as handle:
        exported = list(csv.DictReader(handle))
    stored = {row["key"]: row for row in rows_of(database)}
    assert len(exported) == len(stored) == 8
    for row in exported:
        assert row["status"] and row["time_limit"] == "30.0" and row["memory_limit"] == "2000"
        assert row["clingo"] and row["sokoasp"] and row["encoding"] in ("push", "incremental")
        assert int(row["pushes"]) >= 1 and row["instance_class"] == "tiny"


def test_export_names_the_phase_that_found_each_plan(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60,
                      phases=[(), (PhaseRun("box-search", 100_000),)])
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    run("grid", "export", "--db", str(database), "--csv", str(tmp_path / "runs.csv"))
    rows = read_runs_csv(tmp_path / "runs.csv")
    assert {(row["configuration"], row["found_by"]) for row in rows} == {("push", ""),
                                                                           ("push [box-search 100k]", "box-search")}


def test_the_thesis_layout_orders_structure_size_then_boxes() -> None:
    classes = ["zone-rect-small-5", "nonrect-large-6", "rect-large-10", "rect-small-6", "rect-small-4", "rect-large-6",
               "nonrect-small-4", "zone-nonrect-small-4", "microban"]
    assert sorted(classes, key=thesis_order) == ["rect-small-4", "rect-small-6", "rect-large-6", "rect-large-10",
                                                 "nonrect-small-4", "nonrect-large-6", "zone-rect-small-5",
                                                 "zone-nonrect-small-4", "microban"]


def test_report_prints_the_thesis_layout_for_a_generated_portfolio(tmp_path: Path) -> None:
    thesis = ROOT / "instances" / "thesis"
    for name in ("rect-small-4", "nonrect-small-4"):
        shutil.copytree(thesis / name, tmp_path / "thesis" / name)
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tmp_path / "thesis"), ["push"], [("dead",)], [()], 30, None, 100)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    lines = thesis_tables(rows_of(database), "mean").splitlines()
    assert [line for line in lines if line.startswith("**")] == ["**Rectangular**", "**Non-rectangular**"]
    assert lines.count("| configuration | small 4 |") == 2
    code, out = run("grid", "report", "--db", str(database), "--thesis", "--statistic", "mean")
    assert code == 0 and "\n".join(lines) in out


def test_report_reads_an_exported_csv_and_draws_the_speedup_heatmap(tmp_path: Path) -> None:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push", "incremental"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    run("grid", "export", "--db", str(database), "--csv", str(tmp_path / "runs.csv"))
    from_db = run("grid", "report", "--db", str(database), "--baseline", "incremental")
    from_csv = run("grid", "report", "--runs", str(tmp_path / "runs.csv"), "--baseline", "incremental",
                   "--out", str(tmp_path / "out"), "--examples", "0")
    assert from_db[0] == from_csv[0] == 0
    assert from_csv[1].startswith(from_db[1].strip())  # the same tables, then the files written
    assert (tmp_path / "out" / "speedup.png").stat().st_size > 1000


def test_exported_names_are_relative_to_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    run("grid", "export", "--db", str(database), "--csv", "runs.csv")
    names = [row["instance"] for row in read_runs_csv(tmp_path / "runs.csv")]
    assert len(names) == 4 and all(not Path(name).is_absolute() and (tmp_path / name).is_file() for name in names)


@pytest.mark.parametrize(("text", "problem"), [
    ("instance,status\nx,solved\n", "no column 'instance_class'"),
    (f"{HEADER}\na,c,cfg,solved,1,fast,60\n", "column 'total_time' holds 'fast'"),
    (f"{HEADER}\na,c,cfg,solved,2,1.0,60\n", "'solved' must be 0 or 1"),
    (f"{HEADER}\na,c,cfg,solved,1,,60\n", "a solved run needs its 'total_time'"),
    (f"{HEADER}\na,c,cfg,timeout,0,,nan\n", "'time_limit' a number"),
])
def test_a_bad_runs_csv_is_an_input_error_with_its_line(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "runs.csv"
    path.write_text(text)
    with pytest.raises(InputError, match=problem) as caught:
        read_runs_csv(path)
    assert caught.value.line == (1 if "no column" in problem else 2)
    code, out = run("grid", "report", "--runs", str(path))
    assert code == 7 and problem.split("'")[0] in out


@pytest.fixture(scope="module")
def solved_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("db")
    database = folder / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(folder)), ["push"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    return database


@pytest.mark.parametrize(("change", "problem"), [
    ("UPDATE runs SET total_time = -5", "total_time holds '-5.0'"),
    ("UPDATE runs SET total_time = 9e999", "total_time holds 'inf'"),
    ("UPDATE runs SET stats = '[]'", "stats holds '[]', not a JSON object"),
    ("UPDATE runs SET moves = 'many'", "moves holds 'many', not integer"),
    ("UPDATE runs SET status = 'won'", "status holds 'won', not a status"),
    ("DROP TABLE runs; CREATE TABLE runs (key TEXT, x INTEGER); INSERT INTO runs VALUES ('a', 1)", "not a results database"),
])
@pytest.mark.parametrize("command", ["plans", "report", "export"])
def test_a_tampered_database_is_an_input_error_in_every_reader(solved_database: Path, tmp_path: Path, change: str,
                                                               problem: str, command: str) -> None:
    database = tmp_path / "r.sqlite"
    shutil.copy(solved_database, database)
    with sqlite3.connect(database) as db:
        db.executescript(change)
    db.close()
    level = tmp_path / "levels.sok"
    level.write_text("".join(f"; {name}\n{HAND_MADE[name]}\n" for name in TINY))
    record = tmp_path / "record.csv"
    args = {"plans": ["plans", str(level), str(record), "--db", str(database)],
            "report": ["grid", "report", "--db", str(database)],
            "export": ["grid", "export", "--db", str(database), "--csv", str(tmp_path / "out.csv")]}[command]
    code, out = run(*args)
    assert code == ExitCode.INPUT_ERROR and problem in out and str(database) in out, out
    assert not record.exists()


def test_a_record_is_written_even_when_the_reader_of_the_output_leaves_early(solved_database: Path,
                                                                              tmp_path: Path) -> None:
    level = tmp_path / "levels.sok"
    level.write_text("".join(f"; {name}\n{HAND_MADE[name]}\n" for name in TINY))
    record = tmp_path / "record.csv"
    command = f"{sys.executable} -m sokoasp plans {level} {record} --db {solved_database} | head -c 1"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert record.exists() and len(record.read_text().splitlines()) == 1 + len(TINY), done.stderr
    assert "Traceback" not in done.stderr
