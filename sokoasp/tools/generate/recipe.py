"""Portfolio recipes (TOML) and building a portfolio from one, reproducibly from its seed.

::

    seed = 2018
    levels_per_class = 3       # default count per class
    pulls = 40                 # random reverse moves per level
    node_limit = 100000        # states of the breadth-first search for optimal moves (0: skip)
    conflict_limit = 5000      # clasp conflicts per horizon for optimal pushes (0: skip)

    [[classes]]
    name = "rect-small-4"
    structure = "rectangular"  # or "non-rectangular"
    size = "6x5"               # rectangular: WxH
    boxes = 4
    # blocks = 6               # non-rectangular: how many 2x2 blocks
    # zones = true             # boxes start in one zone, goals in another
    # count = 5                # overrides levels_per_class
"""

from __future__ import annotations

import csv
import io
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sokoasp.board.facts import digest, write_facts
from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.board.xsb import write_level
from sokoasp.errors import InputError
from sokoasp.pipeline import SolveConfig, solve
from sokoasp.result import Status
from sokoasp.sokoban.breadth_first import move_optimum, push_optimum
from sokoasp.sokoban.pushes import expand_pushes
from sokoasp.tools.files import new_folder, write_new
from sokoasp.tools.generate.boards import joined_blocks, rectangle, zones
from sokoasp.tools.generate.scramble import scramble
from sokoasp.tools.schema import Flag, ListOf, Number, Said, Table, Text, line_of, read_toml

STRUCTURES = ("rectangular", "non-rectangular")
MAX_CELLS = 400  # a board's cells: the optimum searches take seconds a level here, minutes on 50x50
MOST_LEVELS = 1_000  # levels of one recipe: a portfolio, not a flood


@dataclass(frozen=True)
class LevelClass:
    name: str
    structure: str
    width: int
    height: int
    blocks: int
    boxes: int
    zones: bool
    count: int
    pulls: int


@dataclass(frozen=True)
class Recipe:
    seed: int
    node_limit: int
    conflict_limit: int
    classes: list[LevelClass]


@dataclass(frozen=True)
class Made:
    level_class: LevelClass
    number: int
    level: Level
    plan: str  # the construction plan, replayed by the simulator
    optimal_pushes: int | None
    optimal_moves: int | None


WHOLE = Said(Number(0, 10**9, whole=True), "a whole number from 0 to 10^9")
RECIPE = Table({
    "seed": WHOLE, "levels_per_class": WHOLE, "pulls": WHOLE, "node_limit": WHOLE, "conflict_limit": WHOLE,
    "classes": ListOf(Table({"name": Text(64), "structure": Text(64), "size": Text(64), "blocks": WHOLE, "boxes": WHOLE,
                             "zones": Flag(), "count": WHOLE, "pulls": WHOLE}), least=0),
})  # a recipe, checked whole before any class is read


def read_recipe(path: Path) -> Recipe:
    data, text = read_toml(path, RECIPE)
    return parse_recipe(data, text, str(path))


def parse_recipe(data: dict[str, Any], text: str, source: str) -> Recipe:
    """The recipe of a table that fits ``RECIPE``: names, structures, sizes and counts checked."""
    entries = data.get("classes", [])
    if not entries:
        raise InputError("the recipe has no [[classes]]", source)
    default_count, default_pulls = int(data.get("levels_per_class", 3)), int(data.get("pulls", 40))
    classes, names = [], set()
    for index, entry in enumerate(entries):
        level_class = parse_class(entry, index, default_count, default_pulls, text, source)
        if level_class.name in names:
            raise InputError(f"class {level_class.name!r} is defined twice", source, line_of(text, "name", index))
        names.add(level_class.name)
        classes.append(level_class)
    if sum(level_class.count for level_class in classes) > MOST_LEVELS:
        raise InputError(f"the recipe asks for more than {MOST_LEVELS} levels", source, line_of(text, "levels_per_class"))
    return Recipe(int(data.get("seed", 0)), int(data.get("node_limit", 100_000)),
                  int(data.get("conflict_limit", 5000)), classes)


def parse_class(entry: dict[str, Any], index: int, count: int, pulls: int, text: str, source: str) -> LevelClass:
    def fail(problem: str, key: str = "name") -> InputError:
        return InputError(f"class {entry.get('name', index + 1)!r}: {problem}", source, line_of(text, key, index))

    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", entry.get("name", ""), re.A):
        raise fail("needs a name of 1 to 64 letters, digits, '-' or '_' (it names a folder)")
    structure = entry.get("structure", "rectangular")
    if structure not in STRUCTURES:
        raise fail(f"unknown structure {structure!r} (choose {' or '.join(STRUCTURES)})", "structure")
    width = height = blocks = 0
    if structure == "rectangular":
        match = re.fullmatch(r"(\d+)x(\d+)", str(entry.get("size", "")))
        if not match:
            raise fail("a rectangular class needs size = \"WxH\", e.g. \"6x5\"", "size")
        width, height = int(match.group(1)), int(match.group(2))
        cells = width * height
        if width < 1 or height < 1 or cells > MAX_CELLS:
            raise fail(f"size {width}x{height} must be at least 1x1 and at most {MAX_CELLS} cells", "size")
    else:
        blocks = int(entry.get("blocks", 0))
        if not 1 <= blocks <= MAX_CELLS // 4:
            raise fail(f"a non-rectangular class needs blocks = 1..{MAX_CELLS // 4}", "blocks")
        cells = 4 * blocks
    boxes = int(entry.get("boxes", 0))
    zoned = bool(entry.get("zones", False))
    room = cells // 2 if zoned else cells - 1
    if not 1 <= boxes <= room - 1:
        raise fail(f"{boxes} boxes do not fit: a board of {cells} cells takes 1..{room - 1}"
                   + (" (zones halve it)" if zoned else ""), "boxes")
    number = int(entry.get("count", count))
    if not 1 <= number <= MOST_LEVELS:
        raise fail(f"count must be 1..{MOST_LEVELS}", "count")
    return LevelClass(str(entry["name"]), structure, width, height, blocks, boxes, zoned, number,
                      int(entry.get("pulls", pulls)))


def optimal_pushes(level: Level, conflict_limit: int) -> int | None:
    """The push optimum from the push encoding under a clasp conflict budget per horizon
    (deterministic, unlike a time limit), or None when the budget runs out."""
    if not conflict_limit:
        return None
    config = SolveConfig(encoding="push", strategies=("dead", "freeze", "bound"), max_horizon=400,
                         clingo_args=(f"--solve-limit={conflict_limit}",))
    result = solve(level, config)
    return result.pushes if result.status is Status.SOLVED_OPTIMAL else None


def make_class(level_class: LevelClass, recipe: Recipe, seen: set[str]) -> list[Made]:
    seed, node_limit = recipe.seed, recipe.node_limit
    made: list[Made] = []
    attempt = 0
    while len(made) < level_class.count:
        attempt += 1
        if attempt > 50 * level_class.count:
            raise InputError(f"class {level_class.name!r}: only {len(made)} distinct levels after {attempt - 1} "
                             "attempts; ask for fewer or larger levels")
        rng = random.Random(f"{seed}/{level_class.name}/{attempt}")
        floor = (rectangle(level_class.width, level_class.height) if level_class.structure == "rectangular"
                 else joined_blocks(level_class.blocks, rng))
        start, goal = zones(floor) if level_class.zones else (None, None)
        level, construction = scramble(floor, level_class.boxes, level_class.pulls, rng, start, goal)
        key = digest(level)
        if key in seen:
            continue
        plan = expand_pushes(level, construction)
        if not replay(level, plan).ok:  # solvable by construction, and checked
            raise AssertionError(f"construction plan failed replay for {level_class.name}")
        seen.add(key)
        title = f"{level_class.name}-{len(made) + 1}"
        best_pushes = push_optimum(level, node_limit) if node_limit else None
        if best_pushes is None:
            best_pushes = optimal_pushes(level, recipe.conflict_limit)
        best_moves = move_optimum(level, node_limit) if node_limit else None
        made.append(Made(level_class, len(made) + 1, level.with_title(title), plan, best_pushes, best_moves))
    return made


def build(recipe: Recipe) -> list[Made]:
    seen: set[str] = set()
    return [m for c in recipe.classes for m in make_class(c, recipe, seen)]


MANIFEST_COLUMNS = ["file", "class", "structure", "width", "height", "floor", "boxes", "zones", "seed",
                    "construction_moves", "construction_pushes", "optimal_pushes", "optimal_moves"]


def write_portfolio(made: list[Made], recipe: Recipe, recipe_path: Path, out: Path, force: bool = False) -> list[Path]:
    """Write the levels, manifest.csv and README.md into ``out``: a new or empty folder, this
    recipe's earlier output, or any folder with ``force``. Files are replaced, never written
    through a link."""
    if not force:
        check_out_folder(out, recipe_path)
    written = []
    rows = []
    for item in made:
        folder = new_folder(out / item.level_class.name)
        written += [write_new(folder / f"{item.level.title}.sok", f"; {item.level.title}\n{write_level(item.level)}"),
                    write_new(folder / f"{item.level.title}.lp", write_facts(item.level, len(item.plan)))]
        rows.append({
            "file": f"{item.level_class.name}/{item.level.title}", "class": item.level_class.name,
            "structure": item.level_class.structure, "width": item.level.width, "height": item.level.height,
            "floor": len(item.level.floor), "boxes": len(item.level.boxes), "zones": item.level_class.zones,
            "seed": recipe.seed, "construction_moves": len(item.plan), "construction_pushes": count_pushes(item.plan),
            "optimal_pushes": "" if item.optimal_pushes is None else item.optimal_pushes,
            "optimal_moves": "" if item.optimal_moves is None else item.optimal_moves,
        })
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, MANIFEST_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return written + [write_new(out / "manifest.csv", buffer.getvalue()),
                      write_new(out / "README.md", readme(recipe, recipe_path, out, made))]


def check_out_folder(out: Path, recipe_path: Path) -> None:
    """Refuse to write into a folder that holds anything but this recipe's earlier output (its
    README names the recipe file)."""
    if not out.exists():
        return
    new_folder(out)
    if not any(out.iterdir()):
        return
    readme_path = out / "README.md"
    earlier = (readme_path.is_file() and not readme_path.is_symlink()
               and f"sokoasp generate {recipe_path.as_posix()} " in readme_path.read_text(errors="replace"))
    if not earlier:
        raise InputError("the folder is not empty and holds no earlier output of this recipe: choose a new "
                         "folder, or give --force to write into it", str(out))


def readme(recipe: Recipe, recipe_path: Path, out: Path, made: list[Made]) -> str:
    title = made[0].level.title
    example = f"{out.as_posix()}/{title.rsplit('-', 1)[0]}/{title}.sok"
    lines = [f"# Generated portfolio: {out.name}", "",
             f"{len(made)} levels in {len(recipe.classes)} classes, seed {recipe.seed}. Made by (byte for byte):", "",
             "```", f"sokoasp generate {recipe_path.as_posix()} --out {out.as_posix()}", "```", "",
             "Every level is solvable by construction (boxes pulled away from their goals) and its construction",
             "plan was replayed by the simulator. Each level comes as XSB (`.sok`) and thesis facts (`.lp`, whose",
             "`#const horizon` is the construction plan's length: the plain encoding finds a plan there).",
             "`manifest.csv` lists sizes, the construction plan, and the exact push and move optima where",
             f"they are cheap: breadth-first search within {recipe.node_limit} states, and for pushes the",
             f"push encoding with {recipe.conflict_limit} clasp conflicts per horizon (both deterministic).",
             "", "Solve them:", "", "```",
             f"sokoasp solve --encoding push --strategy dead --strategy freeze {example}",
             f"sokoasp grid run -i {out.as_posix()} -e incremental -e push -s none -s dead --time-limit 60",
             "```", "", "| class | structure | size | boxes | zones | levels |", "|---|---|---|---|---|---|"]
    for c in recipe.classes:
        size = f"{c.width}x{c.height}" if c.structure == "rectangular" else f"{c.blocks} blocks"
        lines.append(f"| {c.name} | {c.structure} | {size} | {c.boxes} | {'yes' if c.zones else 'no'} | {c.count} |")
    return "\n".join(lines) + "\n"
