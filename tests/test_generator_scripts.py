"""The measuring scripts of generators/ teach with --help and turn bad input into a message and
an exit code, never a traceback (they run through ``sokoasp.cli.run``, as the command does)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import generator_script

from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.board.simulator import replay
from sokoasp.errors import ExitCode
from sokoasp.sokoban.breadth_first import push_optimum

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


def test_placement_profile_names_the_push_after_which_boxes_stay_on_goals() -> None:
    placements_for_good = generator_script("placement_profile").placements_for_good
    corridor = Level(frozenset((x, 1) for x in range(1, 7)), frozenset({(2, 1)}), frozenset({(3, 1)}), (1, 1))
    on_off_on = [((2, 1), (1, 0)), ((3, 1), (1, 0)), ((4, 1), (-1, 0))]  # onto the goal, off it, back
    assert placements_for_good(corridor, on_off_on) == [3]


def test_placement_profile_ends_with_the_push_optimum() -> None:
    levels = ROOT / "instances" / "microban_1-5.sok"
    done = run_script("placement_profile.py", str(levels), "-l", "1,3")
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in done.stdout.splitlines()[1:]]
    for number, (title, boxes, pushes, _, profile) in zip(("1", "3"), rows, strict=True):
        level = load_level(levels, number).level
        assert title == level.title and int(boxes) == len(level.boxes)
        assert int(pushes) == push_optimum(level) == int(profile.split(", ")[-1])


def test_first_entry_counts_the_pushes_before_a_box_reaches_a_square() -> None:
    levels = ROOT / "instances" / "microban_1-5.sok"
    level = load_level(levels, "1").level
    goal = min(level.goals - level.boxes)
    done = run_script("first_entry.py", str(levels), "-l", "1", "--square", f"{goal[0]},{goal[1]}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{level.title}: ") and " pushes put a box on " in done.stdout
    pushes = int(done.stdout.split(": ")[1].split()[0])
    assert 0 < pushes <= push_optimum(level)
    moves = done.stdout.split("plays them): ")[1].strip()
    reached = replay(level, moves)  # not a whole plan: every move legal, and the box on the square
    assert reached.steps_done == len(moves) and goal in reached.boxes
    assert sum(letter.isupper() for letter in moves) == pushes
    held = run_script("first_entry.py", str(levels), "-l", "1", "--square", "2,2", "--hold", "9,9")
    assert held.returncode == ExitCode.INPUT_ERROR and "no box to hold on (9, 9)" in held.stderr


def test_end_game_search_bench_finds_the_breadth_first_plan_length_or_stops_at_its_limit() -> None:
    """Microban 2 from the start: a plan no shorter than the fewest pushes; one state is too few."""
    levels = ROOT / "instances" / "microban_1-5.sok"
    fewest = push_optimum(load_level(levels, "2").level)
    done = run_script("end_game_search_bench.py", str(levels), "-l", "2", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    pushes = int(done.stdout.split("plan of ")[1].split()[0])
    assert fewest is not None and pushes >= fewest
    cut = run_script("end_game_search_bench.py", str(levels), "-l", "2", "--states", "1", "--repeat", "1")
    assert cut.returncode == 0 and ", state limit, median " in cut.stdout


def test_end_game_log_lists_each_end_game_search_and_how_it_ended() -> None:
    """Microban 3: the goal-room phase's stages end with one box left, which the end game's
    search of the boxes off the goals places; the log lists that search and counts it."""
    done = run_script("end_game_log.py", str(ROOT / "instances" / "microban_1-5.sok"), "-l", "3", "--time-limit", "30")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("microban_i 3: solved")
    searches = [line for line in lines[1:-1] if line.startswith("  ")]
    assert searches and all(" boxes, " in line for line in searches)
    assert any(line.endswith(" s)") and ": plan (" in line for line in searches)
    assert lines[-1].startswith(f"{len(searches)} end-game searches")
