"""`sokoasp grid export` writes one CSV row per run; `grid report --thesis` orders the classes of a
generated portfolio as the thesis's tables do (structure x size x boxes)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from test_cli import run
from test_grid import rows_of, tiny_folder

from sokoasp.tools.grid.report import markdown_table, thesis_order
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import build_spec, load_instances

ROOT = Path(__file__).resolve().parents[2]


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
    table = markdown_table(rows_of(database), "mean", thesis=True)
    header = [cell.strip() for cell in table.splitlines()[0].strip("|").split("|")]
    assert header == ["configuration", "rectangular small 4", "non-rectangular small 4", "all"]
    code, out = run("grid", "report", "--db", str(database), "--thesis", "--statistic", "mean")
    assert code == 0 and "| configuration | rectangular small 4 | non-rectangular small 4 | all |" in out
