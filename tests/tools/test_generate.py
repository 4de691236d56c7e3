"""Generators: well formed, solvable levels, reproducible portfolios, clear recipe errors."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import bfs_moves, bfs_pushes
from test_cli import run

from sokoasp.board.simulator import replay
from sokoasp.board.xsb import write_level
from sokoasp.errors import ExitCode, InputError
from sokoasp.sokoban.analysis import dead_squares
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.pushes import expand_pushes
from sokoasp.tools.generate.boards import joined_blocks, rectangle, zones
from sokoasp.tools.generate.recipe import build, read_recipe, write_portfolio
from sokoasp.tools.generate.scramble import scramble
from sokoasp.tools.grid.spec import load_instances

ROOT = Path(__file__).resolve().parents[2]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.booleans(), st.integers(1, 3), st.booleans())
def test_generated_levels_are_well_formed_and_solvable(seed: int, blocks: bool, boxes: int, zoned: bool) -> None:
    rng = random.Random(seed)
    boxes = min(boxes, 2) if zoned else boxes  # a zone of a tiny board holds few boxes
    floor = joined_blocks(6 if zoned else 4, rng) if blocks else rectangle(5, 4)
    start, goal = zones(floor) if zoned else (None, None)
    level, pushes = scramble(floor, boxes, 8, rng, start, goal)
    assert len(level.boxes) == len(level.goals) == boxes and level.boxes != level.goals
    assert level.player in player_region(level.floor, level.boxes, level.player)
    assert not level.boxes & dead_squares(level)
    assert replay(level, expand_pushes(level, pushes)).ok
    assert bfs_pushes(write_level(level)) is not None  # the independent oracle agrees it is solvable
    if zoned:
        assert level.boxes <= start and level.goals <= goal


@given(st.integers(1, 30), st.integers(0, 1000))
def test_joined_blocks_are_connected_2x2_blocks(blocks: int, seed: int) -> None:
    floor = joined_blocks(blocks, random.Random(seed))
    assert len(floor) == 4 * blocks
    assert player_region(floor, frozenset(), min(floor)) == floor
    assert all(((x - 1) // 2 * 2 + 1, (y - 1) // 2 * 2 + 1) in floor for x, y in floor)


RECIPE = """seed = 7
levels_per_class = 2
pulls = 12
node_limit = 3000

[[classes]]
name = "rect"
structure = "rectangular"
size = "5x4"
boxes = 2

[[classes]]
name = "blocks"
structure = "non-rectangular"
blocks = 5
boxes = 2
zones = true
"""


def test_portfolio_is_reproducible_and_complete(tmp_path: Path) -> None:
    recipe_path = tmp_path / "r.toml"
    recipe_path.write_text(RECIPE)
    for out in (tmp_path / "a", tmp_path / "b"):
        write_portfolio(build(read_recipe(recipe_path)), read_recipe(recipe_path), recipe_path, out)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    for name in files_a:
        if name.name != "README.md":  # the README names its own folder
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert f"--out {(tmp_path / 'a').as_posix()}" in (tmp_path / "a" / "README.md").read_text()
    manifest = (tmp_path / "a" / "manifest.csv").read_text().splitlines()
    assert len(manifest) == 5 and manifest[0].startswith("file,class")
    instances = load_instances(tmp_path / "a")
    assert len(instances) == 4  # .sok and .lp of a level are one instance
    for instance in instances:
        stem = Path(instance.name)
        row = next(line for line in manifest if line.startswith(f"{stem.parent.name}/{stem.stem},"))
        pushes, moves = row.split(",")[-2:]
        if pushes:
            assert int(pushes) == bfs_pushes(write_level(instance.level))
        if moves:
            assert int(moves) == bfs_moves(write_level(instance.level))


@pytest.mark.parametrize(
    "change,problem,line",
    [
        ('colour = "red"\n', "unknown key 'colour'", 5),
        (None, "do not fit", 10),
        ("structure = \"hexagonal\"", "unknown structure", 8),
        ("size = \"0x4\"", "must be at least 1x1", 9),
    ],
)
def test_bad_recipes_name_the_line(tmp_path: Path, change: str | None, problem: str, line: int) -> None:
    text = RECIPE
    if change is None:
        text = text.replace("boxes = 2", "boxes = 40", 1)
    elif change.startswith("colour"):
        text = text.replace("node_limit = 3000\n", "node_limit = 3000\n" + change)
    elif change.startswith("structure"):
        text = text.replace('structure = "rectangular"', change, 1)
    else:
        text = text.replace('size = "5x4"', change, 1)
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        read_recipe(path)
    assert problem in str(caught.value) and f"r.toml:{line}:" in str(caught.value)


@pytest.mark.slow  # about 100 s: every class of the recipe
def test_shipped_thesis_portfolio_matches_its_recipe(tmp_path: Path) -> None:
    shipped = ROOT / "instances" / "thesis"
    recipe = ROOT / "generators" / "thesis.toml"
    made = build(read_recipe(recipe))
    write_portfolio(made, read_recipe(recipe), Path("generators/thesis.toml"), tmp_path / "thesis")
    assert (tmp_path / "thesis" / "manifest.csv").read_text() == (shipped / "manifest.csv").read_text()


def test_the_first_classes_of_the_shipped_thesis_portfolio_match_its_recipe(tmp_path: Path) -> None:
    shipped = ROOT / "instances" / "thesis"
    recipe = read_recipe(ROOT / "generators" / "thesis.toml")
    first = replace(recipe, classes=recipe.classes[:3])  # later classes never change earlier ones
    write_portfolio(build(first), first, Path("generators/thesis.toml"), tmp_path / "thesis")
    made_rows = (tmp_path / "thesis" / "manifest.csv").read_text().splitlines()
    assert len(made_rows) == 1 + 3 * recipe.classes[0].count
    assert made_rows == (shipped / "manifest.csv").read_text().splitlines()[: len(made_rows)]
    for row in made_rows[1:]:
        level = row.split(",")[0] + ".sok"
        assert (tmp_path / "thesis" / level).read_text() == (shipped / level).read_text()


@pytest.mark.parametrize(("old", "new", "problem"), [
    ('name = "rect"', 'name = "rect.small"', "needs a name of 1 to 64 letters"),
    ('name = "rect"', 'name = ".."', "needs a name of 1 to 64 letters"),
    ("zones = true", 'zones = "no"', "zones must be true or false"),
    ("boxes = 2", 'boxes = "two"', "boxes must be a whole number"),
    ("pulls = 12", "pulls = 1.5", "pulls must be a whole number"),
])
def test_recipe_values_of_the_wrong_kind_are_refused_with_their_line(tmp_path: Path, old: str, new: str,
                                                                     problem: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(RECIPE.replace(old, new, 1))
    with pytest.raises(InputError, match=problem) as caught:
        read_recipe(path)
    assert "r.toml:" in str(caught.value)


def generate(tmp_path: Path, out: Path, *more: str) -> tuple[int, str]:
    recipe = tmp_path / "r.toml"
    recipe.write_text(RECIPE.replace("levels_per_class = 2", "levels_per_class = 1"))
    return run("generate", str(recipe), "--out", str(out), *more)


def test_generate_refuses_a_folder_holding_other_files_and_rewrites_its_own(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    code, said = generate(tmp_path, out)
    assert code == ExitCode.INPUT_ERROR and "--force" in said and sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert generate(tmp_path, out, "--force")[0] == 0 and (out / "notes.txt").read_text() == "mine\n"
    fresh = tmp_path / "fresh"
    assert generate(tmp_path, fresh)[0] == 0
    assert generate(tmp_path, fresh)[0] == 0  # its own earlier output: rebuilt without --force


def test_generate_replaces_links_instead_of_writing_through_them(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert generate(tmp_path, out)[0] == 0
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (out / "manifest.csv").unlink()
    (out / "manifest.csv").symlink_to(precious)
    assert generate(tmp_path, out)[0] == 0
    assert precious.read_text() == "keep me\n" and not (out / "manifest.csv").is_symlink()
    assert not [path for path in out.rglob("*.partial")]


@pytest.mark.parametrize(("old", "new", "problem"), [
    ('size = "5x4"', 'size = "50x50"', "at most 400 cells"),
    ("levels_per_class = 2", "levels_per_class = 1000000000", r"count must be 1\.\.1000"),
    ("levels_per_class = 2", "levels_per_class = 600", "more than 1000 levels"),  # two classes
])
def test_a_recipe_that_would_take_hours_is_refused_before_any_work(tmp_path: Path, old: str, new: str,
                                                                   problem: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(RECIPE.replace(old, new, 1))
    with pytest.raises(InputError, match=problem):
        read_recipe(path)
