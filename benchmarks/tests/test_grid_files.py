"""Every grid file of benchmarks/ loads and declares runs: the lab's grids keep up with the grid's
keys. Grids on ../shared/levels are skipped where it is not beside the checkout; grids on the
downloaded sets read stand-in collections of the same names."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sokoasp.tools.grid.spec import read_spec

BENCHMARKS = Path(__file__).resolve().parent.parent
ROOT = BENCHMARKS.parent
SHARED = ROOT.parent / "shared" / "levels"
GRIDS = sorted(str(p.relative_to(BENCHMARKS)) for folder in ("grids", "studies", "thesis") for p in (BENCHMARKS / folder).glob("*.toml"))
DOWNLOADED = [name for name in GRIDS if "/downloads/levels/" in (BENCHMARKS / name).read_text()]


@pytest.mark.parametrize("name", [name for name in GRIDS if name not in DOWNLOADED])
def test_every_grid_file_declares_runs(name: str) -> None:
    path = BENCHMARKS / name
    if "shared/levels" in path.read_text() and not SHARED.is_dir():
        pytest.skip("the grid reads ../shared/levels, which is not beside this checkout")
    runs, _ = read_spec(path).runs()
    assert runs and all(run.time_limit > 0 for run in runs)


@pytest.mark.parametrize("name", DOWNLOADED)
def test_grids_on_downloaded_levels_read_the_collections_the_script_writes(name: str, tmp_path: Path) -> None:
    text = (BENCHMARKS / name).read_text()
    if "../../../shared/levels/" in text:  # a grid on both: ../shared as it is, the downloads stood in for
        if not SHARED.is_dir():
            pytest.skip("the grid reads ../shared/levels too, which is not beside this checkout")
        text = text.replace("../../../shared/levels/", f"{SHARED}/")
    grid = tmp_path / "benchmarks" / name
    grid.parent.mkdir(parents=True)
    grid.write_text(text)
    downloads = tmp_path / "downloads" / "levels"
    downloads.mkdir(parents=True)
    named = [int(n) for listed in re.findall(r'levels = "([\d,]+)"', text) for n in listed.split(",")]
    stand_in = "#####\n#@$.#\n#####\n"  # tiny levels, as many as the grid names (two at least)
    for file_name in re.findall(r"\.\./\.\./downloads/levels/([\w.]+)", text):
        (downloads / file_name).write_text("\n".join(f"; {n}\n{stand_in}" for n in range(1, max([2, *named]) + 1)))
    runs, _ = read_spec(grid).runs()
    assert runs and all(run.time_limit > 0 for run in runs)


def test_the_script_explains_itself_and_refuses_a_bad_folder(tmp_path: Path) -> None:
    script = BENCHMARKS / "scripts" / "debian_levels.py"
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("Usage:")
