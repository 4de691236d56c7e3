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
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sokoasp.board.facts import digest, write_facts
from sokoasp.board.level import Level
from sokoasp.board.loading import read_text
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.board.xsb import write_level
from sokoasp.errors import InputError
from sokoasp.pipeline import SolveConfig, solve
from sokoasp.result import Status
from sokoasp.sokoban.breadth_first import move_optimum, push_optimum
from sokoasp.sokoban.pushes import expand_pushes
from sokoasp.tools.generate.boards import joined_blocks, rectangle, zones
from sokoasp.tools.generate.scramble import scramble

TOP_KEYS = {"seed", "levels_per_class", "pulls", "node_limit", "conflict_limit", "classes"}
CLASS_KEYS = {"name", "structure", "size", "blocks", "boxes", "zones", "count", "pulls"}
STRUCTURES = ("rectangular", "non-rectangular")
MAX_CELLS = 2500


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


def line_of(text: str, key: str, occurrence: int = 0) -> int | None:
    """The line of the ``occurrence``-th ``key = ...`` in the recipe (for error messages)."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if re.match(rf"\s*{re.escape(key)}\s*=", line)]
    return hits[occurrence] if occurrence < len(hits) else (hits[-1] if hits else None)


def read_recipe(path: Path) -> Recipe:
    source = str(path)
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}", source) from None
    return parse_recipe(data, text, source)


def parse_recipe(data: dict[str, Any], text: str, source: str) -> Recipe:
    for key in data:
        if key not in TOP_KEYS:
            raise InputError(f"unknown key {key!r} (known: {', '.join(sorted(TOP_KEYS))})", source, line_of(text, key))
    entries = data.get("classes", [])
    if not entries:
        raise InputError("the recipe has no [[classes]]", source)
    whole_numbers(data, ("levels_per_class", "pulls", "seed", "node_limit", "conflict_limit"),
                  lambda key, problem: InputError(f"{key} {problem}", source, line_of(text, key)))
    default_count, default_pulls = int(data.get("levels_per_class", 3)), int(data.get("pulls", 40))
    classes, names = [], set()
    for index, entry in enumerate(entries):
        level_class = parse_class(entry, index, default_count, default_pulls, text, source)
        if level_class.name in names:
            raise InputError(f"class {level_class.name!r} is defined twice", source, line_of(text, "name", index))
        names.add(level_class.name)
        classes.append(level_class)
    return Recipe(int(data.get("seed", 0)), int(data.get("node_limit", 100_000)),
                  int(data.get("conflict_limit", 5000)), classes)


def parse_class(entry: dict[str, Any], index: int, count: int, pulls: int, text: str, source: str) -> LevelClass:
    def fail(problem: str, key: str = "name") -> InputError:
        return InputError(f"class {entry.get('name', index + 1)!r}: {problem}", source, line_of(text, key, index))

    for key in entry:
        if key not in CLASS_KEYS:
            raise fail(f"unknown key {key!r} (known: {', '.join(sorted(CLASS_KEYS))})", key)
    if "name" not in entry or not isinstance(entry["name"], str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", entry["name"]):
        raise fail("needs a name of 1 to 64 letters, digits, '-' or '_' (it names a folder)")
    whole_numbers(entry, ("blocks", "boxes", "count", "pulls"), lambda key, problem: fail(f"{key} {problem}", key))
    if not isinstance(entry.get("zones", False), bool):
        raise fail(f"zones must be true or false, not {entry['zones']!r}", "zones")
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
    if number < 1:
        raise fail("count must be >= 1", "count")
    return LevelClass(str(entry["name"]), structure, width, height, blocks, boxes, zoned, number,
                      int(entry.get("pulls", pulls)))


def whole_numbers(table: dict[str, Any], keys: tuple[str, ...], fail: Callable[[str, str], InputError]) -> None:
    """Each of ``keys`` that ``table`` has is a whole number from 0 to 10^9 (not a boolean)."""
    for key in keys:
        value = table.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**9:
            raise fail(key, f"must be a whole number from 0, not {value!r}")


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


def write_portfolio(made: list[Made], recipe: Recipe, recipe_path: Path, out: Path) -> list[Path]:
    written = []
    rows = []
    for item in made:
        folder = out / item.level_class.name
        folder.mkdir(parents=True, exist_ok=True)
        sok, facts = folder / f"{item.level.title}.sok", folder / f"{item.level.title}.lp"
        sok.write_text(f"; {item.level.title}\n{write_level(item.level)}")
        facts.write_text(write_facts(item.level, len(item.plan)))
        written += [sok, facts]
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
    (out / "manifest.csv").write_text(buffer.getvalue())
    (out / "README.md").write_text(readme(recipe, recipe_path, out, made))
    return written + [out / "manifest.csv", out / "README.md"]


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
