"""The measuring scripts of generators/ teach with --help and turn bad input into a message and
an exit code, never a traceback (they run through ``sokoasp.cli.run``, as the command does)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sokoasp.errors import ExitCode

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(path.name for path in (ROOT / "generators").glob("*.py"))


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "generators" / name), *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_explains_itself(name: str) -> None:
    done = run_script(name, "--help")
    assert done.returncode == 0 and done.stdout.startswith(f"Usage: {name}")


@pytest.mark.parametrize("name", ["goal_room_survey.py", "room_stages_alone.py"])
def test_a_bad_level_in_a_collection_is_named_with_its_file_and_line(name: str, tmp_path: Path) -> None:
    collection = tmp_path / "two.sok"
    collection.write_text("; one\n#####\n#@$.#\n#####\n\n; two\n######\n#@$..#\n######\n")  # the second: 1 box, 2 goals
    done = run_script(name, str(collection), *(["-l", "2"] if name == "room_stages_alone.py" else []))
    assert done.returncode == ExitCode.INPUT_ERROR
    assert "Traceback" not in done.stderr and f"{collection}:7: the level has 1 box(es) but 2 goal(s)" in done.stderr
