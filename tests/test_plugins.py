"""Plugins: the example package's entry points (examples/sokoasp-example-plugin) found the way an
installed package's are, by a dist-info folder on the path, and run through the listings,
`solve` and a grid; broken plugins are errors of one line naming the entry point."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "sokoasp-example-plugin"
SOKOASP = str(Path(sys.executable).parent / "sokoasp")


def installed(site: Path, name: str, groups: dict[str, dict[str, str]]) -> None:
    """A dist-info for package ``name`` in ``site`` with these entry points, as pip writes it."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items()) for group, points in groups.items()))


def example_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    installed(site, project["name"], project["entry-points"])
    return site


def sokoasp(args: list[str], site: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(site), str(EXAMPLE)])
    return subprocess.run([SOKOASP, *args], env={**os.environ, "PYTHONPATH": path}, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_listings_show_each_plugin_member_and_where_it_comes_from(tmp_path: Path) -> None:
    site = example_site(tmp_path)
    for command, name in (("encodings", "incremental-ntb"), ("strategies", "corner"), ("phases", "breadth-first")):
        done = sokoasp([command], site)
        assert done.returncode == 0, done.stderr
        row = next(line for line in done.stdout.splitlines() if line.startswith(name + " "))
        assert "plugin sokoasp-example-plugin" in row
        assert "plugin" not in next(line for line in done.stdout.splitlines()[1:] if not line.startswith(name + " "))


def test_a_plugins_family_strategy_and_phase_solve_a_level(tmp_path: Path) -> None:
    site = example_site(tmp_path)
    done = sokoasp(["solve", "--json", "-e", "incremental-ntb", "-s", "corner", "-l", "1", str(ROOT / "instances/microban_1-5.sok")], site)
    assert done.returncode == 0, done.stderr
    assert '"status": "solved (optimal)"' in done.stdout
    phase = sokoasp(["solve", "-p", "breadth-first", str(ROOT / "instances/thesis_example.lp")], site)
    assert phase.returncode == 0 and "found by:   the phase breadth-first" in phase.stdout


def test_a_grid_runs_plugin_members_and_reports_them(tmp_path: Path) -> None:
    site = example_site(tmp_path)
    (tmp_path / "grid.toml").write_text(
        'encodings = ["incremental", "incremental-ntb"]\nstrategies = [[], ["corner"]]\ntime_limit = 30\n'
        f'[[instances]]\npath = "{ROOT / "instances/microban_1-5.sok"}"\nlevels = "1"\n')
    run = sokoasp(["grid", "run", "grid.toml", "--db", "r.sqlite", "--workers", "1"], site, tmp_path)
    assert run.returncode == 0, run.stderr
    report = sokoasp(["grid", "report", "--db", "r.sqlite"], site, tmp_path)
    assert "| incremental-ntb+corner | " in report.stdout and "(1/1)" in report.stdout


@pytest.mark.parametrize("point,problem", [
    ("broken = no_such_module_here:THING", "cannot load strategy plugin: ModuleNotFoundError"),
    ("dead = sokoasp_example_plugin:CORNER", "must be the strategy's"),
    ("corner = sokoasp_example_plugin.facts:corner_facts", "names a Strategy (or a path), not function"),
])
def test_a_broken_plugin_is_one_line_naming_its_entry_point(tmp_path: Path, point: str, problem: str) -> None:
    name, _, value = point.partition(" = ")
    installed(tmp_path / "site", "bad-plugin", {"sokoasp.strategies": {name: value}})
    done = sokoasp(["strategies"], tmp_path / "site")
    assert done.returncode == 7 and "Traceback" not in done.stderr
    assert f"entry point {name} = {value} of package bad-plugin" in done.stderr and problem in done.stderr


def test_a_plugin_may_not_take_a_shipped_name(tmp_path: Path) -> None:
    installed(tmp_path / "site", "bad-plugin", {"sokoasp.phases": {"staged": "sokoasp_example_plugin.phase:PHASE"}})
    done = sokoasp(["phases"], tmp_path / "site")
    assert done.returncode == 7 and "must be the phase's, 'breadth-first'" in done.stderr
    installed(tmp_path / "other", "bad-plugin", {"sokoasp.strategies": {"clutter": "sokoasp_example_plugin:CLUTTER"}})
    (tmp_path / "pkg" / "sokoasp_example_plugin").mkdir(parents=True)
    clutter = tmp_path / "pkg" / "clutter"
    clutter.mkdir()
    (clutter / "push.lp").write_text("%! strategy: clutter\n%! summary: s\n%! families: push\n%! soundness: keeps-optimal\n")
    (tmp_path / "pkg" / "sokoasp_example_plugin" / "__init__.py").write_text(f"CLUTTER = {str(clutter)!r}\n")
    clash = subprocess.run([SOKOASP, "strategies"], env={**os.environ, "PYTHONPATH": f"{tmp_path / 'other'}:{tmp_path / 'pkg'}"},
                           capture_output=True, text=True, timeout=120)
    assert clash.returncode == 7 and "clashes with the strategy of that name from sokoasp" in clash.stderr
