"""The compiled push search (sokoasp/sokoban/kernel.py) is the Python's search state for state:
on random levels and on XSokoban's first, in every mode the callers use (need, escape, home,
pulls, newest first, the matching guide, PI-corrals, the deadlock prune, live states, state
limits), it gives the same stop, moves, work and proof. Where a C compiler is present the
install builds it; ``SOKOASP_PURE=1`` runs without it; a board too wide for it goes to the Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import multi_box_corpus
from helpers import level_of

from sokoasp.board.level import Cell, Level
from sokoasp.sokoban import kernel
from sokoasp.sokoban.analysis import lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.deadlocks import LiveStates
from sokoasp.sokoban.feature_search import box_routes
from sokoasp.sokoban.push_search import (
    MatchingGuide,
    SearchLimits,
    SearchOutcome,
    Target,
    move_table,
    push_search,
    python_push_search,
)
from sokoasp.sokoban.traps import Deadlocked, Traps

needs_kernel = pytest.mark.skipif(kernel.COMPILED is None, reason="the kernel is not built (no C compiler, or SOKOASP_PURE)")

XSOKOBAN_1 = """\
    #####
    #   #
    #$  #
  ###  $##
  #  $ $ #
### # ## #   ######
#   # ## #####  ..#
# $  $          ..#
##### ### #@##  ..#
    #     #########
    #######
"""

LEVELS = [*multi_box_corpus(16, seed=23).values(), XSOKOBAN_1]


def both(level: Level, target: Target, pulls: bool, limits: SearchLimits, start: frozenset[Cell] | None = None,
         player: Cell | None = None) -> tuple[SearchOutcome, SearchOutcome]:
    """The search by the kernel and by the Python, from the level's boxes and player (or ``start``, ``player``)."""
    distance = lone_box_distances(level.floor, target.squares, pulls)
    boxes = level.boxes if start is None else start
    where = level.player if player is None else player
    return (push_search(level.floor, boxes, where, distance, target, pulls, limits),
            python_push_search(level.floor, boxes, where, distance, target, pulls, limits))


def assert_same(compiled: SearchOutcome, python: SearchOutcome, proof: bool = False) -> None:
    assert (compiled.stop, compiled.moves, compiled.states) == (python.stop, python.moves, python.states)
    if proof:
        assert compiled.seen == python.seen


def test_the_kernel_is_built_where_a_compiler_is() -> None:
    if os.environ.get("SOKOASP_PURE") or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no compiler here, or SOKOASP_PURE set: the Python alone is installed")
    assert kernel.COMPILED is not None


@needs_kernel
@pytest.mark.parametrize("text", LEVELS)
@pytest.mark.parametrize("states", [7, 60, 5_000])
def test_every_box_with_the_guide_corrals_and_prune(text: str, states: int) -> None:
    """The box search's own mode: the matching guide, PI-corrals and the deadlock prune (whose group
    searches run in the kernel too), the proof kept."""
    level = level_of(text)
    traps = Traps(level, pulls=False)
    limits = SearchLimits(states, prune=traps.deadlocked, guide=MatchingGuide(level.floor, level.goals, False),
                          corrals=True, proof=True)
    compiled = push_search(level.floor, level.boxes, level.player, traps.distance, Target(level.goals), False, limits)
    limits = SearchLimits(states, prune=traps.deadlocked, guide=MatchingGuide(level.floor, level.goals, False),
                          corrals=True, proof=True)
    python = python_push_search(level.floor, level.boxes, level.player, traps.distance, Target(level.goals), False, limits)
    assert_same(compiled, python, proof=True)


@needs_kernel
@pytest.mark.parametrize("text", LEVELS)
@pytest.mark.parametrize("pulls", [False, True])
@pytest.mark.parametrize("newest_first", [False, True])
def test_plain_searches_forwards_and_back(text: str, pulls: bool, newest_first: bool) -> None:
    """Backwards, the boxes start on the goals and are pulled to the start's squares."""
    level = level_of(text)
    start, targets = (level.goals, level.boxes) if pulls else (level.boxes, level.goals)
    for states in (3, 40, 2_000):
        limits = SearchLimits(states, newest_first=newest_first, proof=True)
        assert_same(*both(level, Target(targets), pulls, limits, start), proof=True)
        assert_same(*both(level, Target(targets, need=1), pulls, limits, start), proof=True)


@needs_kernel
@pytest.mark.parametrize("text", LEVELS)
def test_escape_home_and_live_states(text: str) -> None:
    level = level_of(text)
    corner = min(level.floor - level.boxes)
    assert_same(*both(level, Target(level.goals, escape=frozenset({corner})), False, SearchLimits(500)))
    home = max(level.floor - level.goals - level.boxes)
    assert_same(*both(level, Target(level.goals, home=home), False, SearchLimits(500, newest_first=True)))
    found = python_push_search(level.floor, level.boxes, level.player, lone_box_distances(level.floor, level.goals),
                               Target(level.goals), False, SearchLimits(300, proof=True))
    live = set(list(sorted(found.seen))[len(found.seen) // 2:])  # some states it took up, called live
    assert_same(*both(level, Target(level.goals), False, SearchLimits(300, live=live)))


@needs_kernel
def test_a_lone_box_among_walls_of_others() -> None:
    """placed_one_by_one's searches: one box, the others taken off the floor, a target set of its own."""
    level = level_of(XSOKOBAN_1)
    for box in sorted(level.boxes):
        free = level.floor - (level.boxes - {box})
        distance = lone_box_distances(level.floor, level.goals)
        limits = SearchLimits(100, newest_first=True)
        target = Target(level.goals & free)
        compiled = push_search(free, frozenset({box}), level.player, distance, target, False, limits)
        python = python_push_search(free, frozenset({box}), level.player, distance, target, False, limits)
        assert_same(compiled, python)


def test_a_board_too_wide_goes_to_the_python() -> None:
    wall, row = "#" * 150 + "\n", "#" + " " * 148 + "#\n"
    level = level_of(wall + row * 5 + "#@$" + " " * 145 + ".#\n" + wall)  # 8 rows of stride 151: 1,208 bits
    distance = lone_box_distances(level.floor, level.goals)
    assert kernel.search(level.floor, level.boxes, level.player, distance, level.goals, 1, frozenset(), None, False,
                         100, float("inf"), None, False, False, None, None, False) is None
    found = push_search(level.floor, level.boxes, level.player, distance, Target(level.goals), False, SearchLimits(10_000))
    assert found.moves and found.moves[-1][1] in level.goals


def test_sokoasp_pure_runs_the_python_alone() -> None:
    script = ("from sokoasp.sokoban import kernel; from sokoasp.cli import main; "
              "assert kernel.COMPILED is None; main(['solve', '--json', '-e', 'push-macro', '-p', 'box-search', "
              "'--max-horizon', '0', '-l', '3', 'instances/microban_1-5.sok'])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "SOKOASP_PURE": "1"}, cwd=Path(__file__).parents[2])
    assert '"status": "solved' in done.stdout, done.stderr


@needs_kernel
@pytest.mark.parametrize("pulls", [False, True])
def test_live_states_learn_the_same_keys(pulls: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LiveStates.learn`` keys the states along a path in the kernel as the Python does."""
    level = level_of(XSOKOBAN_1)
    start, targets = (level.goals, level.boxes) if pulls else (level.boxes, level.goals)
    found = python_push_search(level.floor, start, level.player, lone_box_distances(level.floor, targets, pulls),
                               Target(targets, need=2), pulls, SearchLimits(5_000))
    assert found.moves
    compiled, python = LiveStates(level.floor, pulls), LiveStates(level.floor, pulls)
    key = compiled.key(start, level.player)
    compiled.learn(key, start, found.moves)
    monkeypatch.setattr(kernel, "COMPILED", None)
    python.learn(key, start, found.moves)
    assert compiled.states == python.states and len(python.states) == len(found.moves) + 1


@needs_kernel
@pytest.mark.parametrize("text", LEVELS)
@pytest.mark.parametrize("pulls", [False, True])
def test_the_prune_of_one_state_answers_as_the_python(text: str, pulls: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``traps.Deadlocked`` in the kernel and in Python, on the states a search takes up, each box
    taken as the one just moved; some of them dead."""
    level = level_of(text)
    start = level.goals if pulls else level.boxes
    targets = level.boxes if pulls else level.goals
    found = python_push_search(level.floor, start, level.player, lone_box_distances(level.floor, targets, pulls),
                               Target(targets), pulls, SearchLimits(400, proof=True))
    board = board_of(level.floor)
    states = [(frozenset(board.cells(boxes)), board.cell(region & -region)) for boxes, region in sorted(found.seen)]
    compiled = Deadlocked(level, pulls)
    verdicts = [compiled(boxes, player, moved) for boxes, player in states for moved in sorted(boxes)]
    monkeypatch.setattr(kernel, "COMPILED", None)
    python = Deadlocked(level, pulls)
    assert verdicts == [python(boxes, player, moved) for boxes, player in states for moved in sorted(boxes)]


@needs_kernel
@pytest.mark.parametrize("text", LEVELS)
def test_the_routes_of_each_box_are_the_pythons(text: str) -> None:
    """The feature search's routes of each box alone (``feature_search.box_routes``), in the kernel."""
    level = level_of(text)
    board, open_squares = board_of(level.floor), floor_mask(level.floor)
    distance = lone_box_distances(level.floor, level.goals)
    boxes = board.mask(level.boxes)
    region = board.flood(open_squares & ~boxes, board.bit(level.player))
    kept = kernel.routes(level.floor, distance)
    for box in sorted(level.boxes):
        others = boxes ^ board.bit(box)
        python = box_routes(board, move_table(level.floor, False), distance, open_squares, others, box, region)
        assert kernel.box_routes(kept, level.floor, others, box, region) == python


def test_an_install_without_a_compiler_has_the_python_alone(tmp_path: Path) -> None:
    """``pip install`` where the C compiler fails skips the kernel and installs a working sokoasp."""
    root, source, site = Path(__file__).parents[2], tmp_path / "source", tmp_path / "site"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(root / name, source / name)
    for folder in ("sokoasp", "encodings"):  # what a build reads, without a kernel built in place
        shutil.copytree(root / folder, source / folder, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(source)],
                          capture_output=True, text=True, env={**os.environ, "CC": "/bin/false"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not list(site.glob("sokoasp/sokoban/_search_kernel*"))
    script = ("from sokoasp.sokoban import kernel; from sokoasp.cli import main; assert kernel.COMPILED is None; "
              f"main(['solve', '--json', '-e', 'push-macro', '-p', 'box-search', '--max-horizon', '0', '-l', '3', "
              f"{str(root / 'instances' / 'microban_1-5.sok')!r}])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(site)})
    assert '"status": "solved' in done.stdout, done.stderr
