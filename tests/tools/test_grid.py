"""The grid end to end: durable rows, resume after a real SIGKILL, limits, reports, Dask."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from corpus import HAND_MADE
from oracle import bfs_moves, bfs_pushes

from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.horizon_loops import first_horizon, start_scale
from sokoasp.config import PhaseRun
from sokoasp.errors import InputError
from sokoasp.phases import PHASES
from sokoasp.tools.grid.report import markdown_table, ratio_table, summarise
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import build_spec, load_instances, read_spec
from sokoasp.tools.grid.store import read_rows

ROOT = Path(__file__).resolve().parents[2]
TINY = ["one-push", "turn-corner", "two-boxes", "corridor"]


def tiny_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name in TINY:
        (folder / f"{name}.sok").write_text(HAND_MADE[name])
    return folder


def rows_of(database: Path) -> list[dict]:
    return read_rows(database)


def test_report_command_writes_tables_plots_and_example_images(tmp_path: Path) -> None:
    from test_cli import run

    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    database = tmp_path / "r.sqlite"
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    code, out = run("grid", "report", "--db", str(database), "--out", str(tmp_path / "rep"), "--examples", "2")
    assert code == 0 and "| push |" in out
    for name in ("table.md", "table.csv", "cactus.png", "heatmap.svg", "example-1.png", "example-2.gif"):
        assert (tmp_path / "rep" / name).exists(), name


def test_tiny_grid_end_to_end(tmp_path: Path) -> None:
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["incremental", "push"], [(), ("dead",)], [()], 30, None, 60)
    database = tmp_path / "r.sqlite"
    summary = run_grid(spec, database, show_progress=False, note=lambda _: None)
    assert summary.ran == summary.total == 16 and summary.solved == 16
    rows = rows_of(database)
    assert len(rows) == 16
    for row in rows:
        name = Path(row["instance"]).stem
        if row["encoding"] == "incremental":
            assert row["moves"] == bfs_moves(HAND_MADE[name])
        assert row["instance_class"] == "tiny" and row["peak_memory_mb"] > 0
    again = run_grid(spec, database, show_progress=False, note=lambda _: None)
    assert again.ran == 0 and again.skipped_done == 16


def test_killed_grid_resumes_without_lost_or_duplicated_rows(tmp_path: Path) -> None:
    folder = tiny_folder(tmp_path)
    database = tmp_path / "r.sqlite"
    command = [sys.executable, "-m", "sokoasp", "grid", "run", "-i", str(folder), "-e", "incremental", "-e",
               "split-incremental", "-s", "none", "-s", "ntb", "-s", "clutter", "--workers", "1", "--db", str(database)]
    # run outside the checkout, so the installed package is what runs
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=tmp_path)
    deadline = time.time() + 120
    count = 0
    while time.time() < deadline and count < 3:
        time.sleep(0.1)
        if database.exists():
            try:
                count = sqlite3.connect(database).execute("SELECT count(*) FROM runs").fetchone()[0]
            except sqlite3.OperationalError:
                count = 0
    os.killpg(process.pid, signal.SIGKILL)  # the runner and its solver processes, mid-grid
    process.wait()
    at_kill = len(rows_of(database))
    assert 3 <= at_kill < 24, "the grid should have been killed part way"
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert f"{at_kill} already in" in finished.stderr
    rows = rows_of(database)
    assert len(rows) == 24 and len({r["key"] for r in rows}) == 24
    assert all(r["solved"] for r in rows), [(r["instance"], r["configuration"], r["status"], r["message"]) for r in rows
                                            if not r["solved"]]


def test_memory_out_is_recorded(tmp_path: Path) -> None:
    spec = build_spec(load_instances(ROOT / "instances" / "thesis_example.lp"), ["split-incremental"], [()], [()],
                      60, 80, 60)
    database = tmp_path / "r.sqlite"
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    (row,) = rows_of(database)
    assert row["status"] == "memory out" and not row["solved"]


def fake_row(configuration: str, instance: str, cls: str, solved: bool, seconds: float) -> dict:
    return {"configuration": configuration, "instance_hash": instance, "instance_class": cls, "solved": int(solved),
            "total_time": seconds, "time_limit": 100.0}


def test_report_numbers_from_a_known_database() -> None:
    rows = [fake_row("a", "i1", "small", True, 1.0), fake_row("a", "i2", "small", False, 7.0),
            fake_row("a", "i3", "large", True, 4.0), fake_row("b", "i1", "small", True, 2.0),
            fake_row("b", "i2", "small", True, 3.0), fake_row("b", "i3", "large", True, 8.0)]
    _, classes, cells = summarise(rows, "mean")
    assert classes == ["large", "small", "all"]
    assert cells[("a", "small")].value == pytest.approx((1.0 + 100.0) / 2)  # unsolved counts as the limit
    assert (cells[("a", "all")].solved, cells[("a", "all")].runs) == (2, 3)
    assert cells[("b", "all")].value == pytest.approx(13.0 / 3)
    assert "| a | 4.00 (1/1) | 50.50 (1/2) | 35.00 (2/3) |" in markdown_table(rows, "mean")
    ratios = ratio_table(rows, "a")
    assert "| b | 3/3 | 3.00 | 0.5x |" in ratios  # median of 1/2, 100/3, 4/8


def test_grid_file_errors_name_the_problem(tmp_path: Path) -> None:
    grid = tmp_path / "g.toml"
    grid.write_text('encodings = ["push"]\ncolour = 3\n')
    with pytest.raises(InputError, match="unknown key 'colour'"):
        read_spec(grid)
    grid.write_text(f'encodings = ["nope"]\n[[instances]]\npath = "{ROOT / "instances" / "thesis_example.lp"}"\n')
    with pytest.raises(InputError, match="unknown encoding 'nope'"):
        read_spec(grid)


def test_unsupported_combinations_are_skipped_and_reported(tmp_path: Path) -> None:
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push", "incremental"], [("ntb",)], [()], 30, None, 60)
    runs, skipped = spec.runs()
    assert {r.encoding for r in runs} == {"incremental"} and skipped and "ntb" in skipped[0]


def test_the_configurations_of_one_instance_run_side_by_side(tmp_path: Path) -> None:
    """Instance-major order: on a shared machine, the runs compared with each other meet the
    same load."""
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push", "push-macro"], [(), ("dead",)], [()], 30, None, 60)
    runs, _ = spec.runs()
    configurations = len(runs) // len(spec.instances)
    assert configurations == 4 and len(spec.instances) > 1
    for first in range(0, len(runs), configurations):
        block = runs[first:first + configurations]
        assert len({run.instance.name for run in block}) == 1 and len({run.configuration for run in block}) == 4


def test_portfolio_is_a_grid_configuration_with_validated_plans(tmp_path: Path) -> None:
    from oracle import bfs_pushes

    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["portfolio"], [(), ("dead",)], [()], 30, None, 60)
    runs, skipped = spec.runs()
    assert len(runs) == 4 and skipped and "portfolio+dead: it chooses its own" in skipped[0]
    database = tmp_path / "r.sqlite"
    assert run_grid(spec, database, workers=1, show_progress=False, note=lambda _: None).solved == 4
    for row in rows_of(database):
        assert row["configuration"] == "portfolio" and row["pushes"] >= bfs_pushes(HAND_MADE[Path(row["instance"]).stem])


def test_a_proved_portfolio_is_a_grid_configuration_with_push_optimal_plans(tmp_path: Path) -> None:
    from oracle import bfs_pushes

    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["portfolio", "portfolio-prove"], [()], [()], 30, None, 60)
    runs, _ = spec.runs()
    assert len({run.key for run in runs}) == len(runs) == 2 * len(spec.instances)
    database = tmp_path / "r.sqlite"
    assert run_grid(spec, database, workers=1, show_progress=False, note=lambda _: None).solved == len(runs)
    proved = [row for row in rows_of(database) if row["configuration"] == "portfolio-prove"]
    for row in proved:
        assert row["optimal_for"] == "pushes" and row["pushes"] == bfs_pushes(HAND_MADE[Path(row["instance"]).stem])
        assert 0 <= json.loads(row["stats"])["first_plan_seconds"] <= row["total_time"]


def test_a_portfolio_with_other_members_is_a_new_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grid database must not call a changed portfolio's runs done."""
    import sokoasp.portfolio.members

    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["portfolio", "push"], [()], [()], 30, None, 60)
    before = [run.key for run in spec.runs()[0]]
    first = sokoasp.portfolio.members.default_members()[:1]
    monkeypatch.setattr(sokoasp.portfolio.members, "default_members", lambda: first)
    after = [run.key for run in spec.runs()[0]]
    changed = [b != a for b, a in zip(before, after, strict=True)]
    assert changed == [run.encoding == "portfolio" for run in spec.runs()[0]] and any(changed)


def with_and_without(tmp_path: Path, encodings: str, line: str) -> tuple[Path, str, list, list, list[str]]:
    """A tiny grid file, read without and then with one more TOML line: the file, its body, the
    runs without, the runs with, and the combinations skipped with it."""
    grid = tmp_path / "g.toml"
    body = f'encodings = {encodings}\n[[instances]]\npath = "{tiny_folder(tmp_path)}"\n'
    grid.write_text(body)
    plain = read_spec(grid).runs()[0]
    grid.write_text(line + "\n" + body)
    both, skipped = read_spec(grid).runs()
    return grid, body, plain, both, skipped


def test_start_factors_are_a_grid_dimension_with_their_own_keys(tmp_path: Path) -> None:
    grid, body, plain, both, _ = with_and_without(tmp_path, '["push-macro"]', "start_factors = [1, 3]")
    assert len(both) == 2 * len(plain)
    assert [r.key for r in both if r.start_factor == 1] == [r.key for r in plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push-macro", "push-macro [start 3x]"}
    database = tmp_path / "r.sqlite"
    spec = read_spec(grid)
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == len(both)
    macro = ENCODINGS["push-macro"]
    bounds = {i.name: first_horizon(i.level, macro) for i in spec.instances}
    scales = {i.name: start_scale(i.level, macro, bounds[i.name]) for i in spec.instances}
    for row in rows_of(database):
        bound, scale = bounds[row["instance"]], scales[row["instance"]]
        if row["configuration"].endswith("[start 3x]"):  # a plan at the probed bound, or from 3x the scale
            assert row["horizon"] == bound or row["horizon"] >= 3 * scale >= 3
        else:
            assert row["horizon"] >= bound >= 1
    grid.write_text("start_factors = [0]\n" + body)
    with pytest.raises(InputError, match=r"start_factors\[1\] must be a whole number from 1"):
        read_spec(grid)


def test_the_staged_phase_is_a_grid_dimension_for_push_families(tmp_path: Path) -> None:
    grid, body, plain, both, skipped = with_and_without(tmp_path, '["push-macro", "incremental"]', 'phases = [[], ["staged=50k"]]')
    assert len(skipped) == 1 and skipped[0].startswith("incremental [staged 50k]: the staged phase needs a push family")
    assert [r.key for r in both if not r.phases] == [r.key for r in plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push-macro", "incremental", "push-macro [staged 50k]"}
    database = tmp_path / "r.sqlite"
    assert run_grid(read_spec(grid), database, show_progress=False, note=lambda _: None).solved == len(both)
    staged_rows = [row for row in rows_of(database) if row["configuration"].endswith("[staged 50k]")]
    assert staged_rows and all(row["message"].startswith("staged search: a plan") for row in staged_rows)
    for row in staged_rows:  # the database keeps which phase found the plan, and the phase's report
        stats = json.loads(row["stats"])
        assert stats["found_by"] == "staged" and stats["phases"][-1]["phase"] == "staged"
    grid.write_text('phases = [["staged=-1"]]\n' + body)
    with pytest.raises(InputError, match="a budget counts work units"):
        read_spec(grid)


def test_the_goal_room_phase_is_a_grid_dimension(tmp_path: Path) -> None:
    grid, body, plain, both, _ = with_and_without(tmp_path, '["push"]', 'phases = [[], ["goal-room=50k"]]')
    assert [r.key for r in both if not r.phases] == [r.key for r in plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push", "push [goal-room 50k]"}
    database = tmp_path / "r.sqlite"
    assert run_grid(read_spec(grid), database, show_progress=False, note=lambda _: None).solved == len(both)
    rows = [row for row in rows_of(database) if row["configuration"] == "push [goal-room 50k]"]
    assert rows and all(json.loads(row["config"])["phases"] == ["goal-room=50k"] for row in rows)
    assert all(row["pushes"] >= bfs_pushes(HAND_MADE[Path(row["instance"]).stem]) for row in rows)
    grid.write_text("phases = [[true]]\n" + body)
    with pytest.raises(InputError, match=r"phases\[1\]\[1\] must be a text, or a table"):
        read_spec(grid)


def test_the_box_search_phase_is_a_grid_dimension(tmp_path: Path) -> None:
    grid, body, plain, both, skipped = with_and_without(tmp_path, '["push", "portfolio"]', 'phases = [[], ["box-search=50k"]]')
    assert skipped == ["portfolio [box-search 50k]: it chooses its own"]
    assert [r.key for r in both if not r.phases] == [r.key for r in plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push", "portfolio", "push [box-search 50k]"}
    database = tmp_path / "r.sqlite"
    spec = read_spec(grid)
    spec.encodings = ["push"]
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == 2 * len(spec.instances)
    rows = [row for row in rows_of(database) if row["configuration"] == "push [box-search 50k]"]
    assert rows and all(row["message"].startswith("the whole plan by the search of every box") for row in rows)
    assert all(row["pushes"] >= bfs_pushes(HAND_MADE[Path(row["instance"]).stem]) for row in rows)
    grid.write_text('phases = [["box-search=-5"]]\n' + body)
    with pytest.raises(InputError, match="a budget counts work units"):
        read_spec(grid)


@pytest.mark.parametrize("name", sorted(PHASES))
def test_every_phase_can_be_set_in_a_grid_file(name: str, tmp_path: Path) -> None:
    _, _, plain, both, _ = with_and_without(tmp_path, '["push-macro"]', f'phases = [[], ["{name}=2k"]]')
    assert len(both) == 2 * len(plain)
    assert {run.phases for run in both} == {(), (PhaseRun(name, 2_000),)}


def test_a_phase_given_twice_or_unknown_in_a_grid_file_is_refused(tmp_path: Path) -> None:
    grid = tmp_path / "g.toml"
    body = f'encodings = ["push"]\n[[instances]]\npath = "{tiny_folder(tmp_path)}"\n'
    grid.write_text('phases = [["staged=10k", "staged=20k"]]\n' + body)
    with pytest.raises(InputError, match="given twice"):
        read_spec(grid)
    grid.write_text('phases = [["stages=1"]]\n' + body)
    with pytest.raises(InputError, match="unknown phase 'stages'"):
        read_spec(grid)


def test_dask_local_cluster_runs_the_grid(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["push"], [()], [()], 30, None, 60)
    database = tmp_path / "r.sqlite"
    summary = run_grid(spec, database, executor="dask-local", show_progress=False, note=lambda _: None)
    assert summary.solved == 4 and len(rows_of(database)) == 4


def test_notebook_runs_on_a_tiny_grid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["incremental", "push"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    monkeypatch.setenv("SOKOASP_DB", str(database))
    monkeypatch.setenv("SOKOASP_OUT", str(tmp_path / "out"))
    monkeypatch.setenv("SOKOASP_THESIS_RUNS", str(ROOT / "benchmarks" / "thesis" / "runs.csv"))
    notebook = nbformat.read(ROOT / "notebooks" / "strategy_grid.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert "8 runs" in "".join(o.get("text", "") for o in outputs)
    assert (tmp_path / "out" / "cactus.png").exists() and (tmp_path / "out" / "heatmap.svg").exists()
    shown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    assert "### Rectangular" in shown and "### Zone-separated" in shown  # the thesis's tables, from the committed runs
    assert (tmp_path / "out" / "thesis-speedup.png").exists()


def test_interleave_is_a_grid_dimension_for_jump_families(tmp_path: Path) -> None:
    grid, body, plain, both, skipped = with_and_without(tmp_path, '["push-macro", "push"]', "interleave = [1, 3]")
    assert len(skipped) == 1 and skipped[0].startswith("push [interleave 3]: --interleave needs a jump family")
    assert [r.key for r in both if r.interleave == 1] == [r.key for r in plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push-macro", "push", "push-macro [interleave 3]"}
    database = tmp_path / "r.sqlite"
    assert run_grid(read_spec(grid), database, show_progress=False, note=lambda _: None).solved == len(both)
    assert all(row["solved"] for row in rows_of(database))
    grid.write_text("interleave = [0]\n" + body)
    with pytest.raises(InputError, match=r"interleave\[1\] must be a whole number from 1"):
        read_spec(grid)


def test_the_stages_families_are_a_setting_of_the_staged_phase(tmp_path: Path) -> None:
    """A phase's settings in a grid file, as a string or a TOML table: each is its own
    configuration, labelled and recorded with its settings; a family that is not a push family
    is refused before any run."""
    grid, body, _, both, skipped = with_and_without(
        tmp_path, '["pull-route"]', 'phases = [[], ["staged=50k:families=push-macro"], '
        '[{name = "staged", work = "50k", families = "push-macro+push-route"}]]\nstrategies = [["dead", "freeze"]]')
    assert len(skipped) == 1 and skipped[0].startswith("pull-route+dead+freeze: strategy 'freeze' does not support")
    assert {r.configuration for r in both} == {"pull-route+dead+freeze [staged 50k (families=push-macro)]",
                                               "pull-route+dead+freeze [staged 50k (families=push-macro+push-route)]"}
    assert len({r.key for r in both}) == len(both)
    database = tmp_path / "r.sqlite"
    assert run_grid(read_spec(grid), database, show_progress=False, note=lambda _: None).solved == len(both)
    for row in rows_of(database):
        families = json.loads(row["config"])["phases"][0].partition("families=")[2]
        assert row["configuration"].endswith(f"(families={families})]")
        assert row["message"].startswith("staged search: a plan")
    for bad, problem in (("incremental", "needs a push family"), ("push-mcaro", "unknown encoding 'push-mcaro'")):
        grid.write_text(f'phases = [["staged=50k:families=push-macro+{bad}"]]\n' + body)
        with pytest.raises(InputError, match=problem):
            read_spec(grid)


def test_the_end_game_is_a_setting_of_the_staged_phase(tmp_path: Path) -> None:
    """end-game=off: the runs with the default keep their keys, those without get their own
    label and key, and their config records it; a value that is not on or off is refused."""
    _, _, plain, both, skipped = with_and_without(tmp_path, '["push-macro", "push"]',
                                                  'phases = [["staged=50k"], ["staged=50k:end-game=off"]]')
    assert skipped == []
    staged_plain = read_spec(write_grid(tmp_path, '["push-macro", "push"]', 'phases = [["staged=50k"]]')).runs()[0]
    assert [r.key for r in both if str(r.phases[0]) == "staged=50k"] == [r.key for r in staged_plain]  # old databases stay valid
    assert {r.configuration for r in both} == {"push-macro [staged 50k]", "push-macro [staged 50k (end-game=off)]",
                                               "push [staged 50k]", "push [staged 50k (end-game=off)]"}
    assert len({r.key for r in both}) == len(both) == 2 * len(plain)
    database = tmp_path / "r.sqlite"
    spec = read_spec(write_grid(tmp_path, '["push"]', 'phases = [[{name = "staged", work = "50k", end-game = false}]]'))
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == len(spec.instances)
    assert all(json.loads(row["config"])["phases"] == ["staged=50k:end-game=off"] for row in rows_of(database))
    for bad in ('phases = [["staged=50k:end-game=1"]]', 'phases = [[{name = "staged", end-game = "maybe"}]]'):
        with pytest.raises(InputError, match="setting 'end-game' must be on or off"):
            read_spec(write_grid(tmp_path, '["push"]', bad))


def write_grid(tmp_path: Path, encodings: str, line: str) -> Path:
    """A tiny grid file with one more TOML line."""
    grid = tmp_path / "e.toml"
    grid.write_text(f'{line}\nencodings = {encodings}\n[[instances]]\npath = "{tmp_path / "tiny"}"\n')
    return grid


@pytest.mark.parametrize(("levels", "problem"), [("1-30000000", "level 30000000 is out of range 1..5"),
                                                 ("²", "bad level selection"), ("1-٣", "bad level selection"),
                                                 ("9" * 5000, "bad level selection"), ("0", "level 0 is out of range")])
def test_a_level_selection_is_ascii_digits_checked_before_any_list_is_built(levels: str, problem: str) -> None:
    from sokoasp.tools.grid.spec import select

    with pytest.raises(InputError, match=re.escape(problem)):
        select(5, levels, "g.toml")
    assert select(5, "2-3,5", "g.toml") == [2, 3, 5]


def test_a_run_that_ended_in_an_error_runs_again_on_resume(tmp_path: Path) -> None:
    """An error may come from the machine (a limit, a full disk): a rerun of the grid runs it
    again and keeps the new row; the other rows are skipped."""
    grid = write_grid(tmp_path, '["push"]', "")
    tiny_folder(tmp_path)
    database = tmp_path / "r.sqlite"
    spec = read_spec(grid)
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == len(TINY)
    broken = rows_of(database)[0]["key"]
    with sqlite3.connect(database) as db:
        db.execute("UPDATE runs SET status = 'error', solved = 0, plan = NULL WHERE key = ?", (broken,))
    again = run_grid(spec, database, show_progress=False, note=lambda _: None)
    assert again.solved == 1
    rows = rows_of(database)
    assert len(rows) == len(TINY) and all(row["solved"] for row in rows)


def test_a_link_to_a_database_meets_its_writers_lock_and_a_linked_lock_file_is_refused(tmp_path: Path) -> None:
    from sokoasp.tools.grid.store import take_lock

    database = tmp_path / "r.sqlite"
    database.touch()
    alias = tmp_path / "alias.sqlite"
    alias.symlink_to(database)
    held = take_lock(database)
    with pytest.raises(InputError, match="another `sokoasp grid run`"):
        take_lock(alias)
    held.close()
    take_lock(alias).close()
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    other = tmp_path / "other.sqlite"
    (tmp_path / "other.sqlite.lock").symlink_to(precious)
    with pytest.raises(InputError, match="is a link"):
        take_lock(other)
    assert precious.read_text() == "keep me\n"


def test_portfolio_optimize_reports_plans_no_longer_than_the_race_and_the_report_shows_lengths(tmp_path: Path) -> None:
    from test_cli import run

    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(tiny_folder(tmp_path)), ["portfolio", "portfolio-optimize"], [()], [()], 30, None, 60)
    run_grid(spec, database, workers=1, show_progress=False, note=lambda _: None)
    rows = rows_of(database)
    raced = {row["instance_hash"]: row for row in rows if row["configuration"] == "portfolio"}
    optimized = [row for row in rows if row["configuration"] == "portfolio-optimize"]
    assert len(optimized) == len(raced) == len(TINY)
    for row in optimized:
        assert row["solved"] and "optimized" in json.loads(row["stats"])
        assert (row["pushes"], row["moves"]) <= (raced[row["instance_hash"]]["pushes"], raced[row["instance_hash"]]["moves"])
    code, out = run("grid", "report", "--db", str(database))
    assert code == 0 and f"Plan length on the {len(TINY)} instances every configuration solved" in out
