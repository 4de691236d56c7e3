"""The route families' step (encodings/route-core.lp): where the lifted box can be brought, and
which of its sides the player can stand on there, against a flood of the player's walk.

route-core.lp decides whether the player walks round the box from one side to another by the
ring test (one part of the obstacles on both arcs of the box's ring), the walls' parts from
sokoasp/obstacles.py and clusters of boxes that touch no wall told apart by their rows and
columns. The hand-made boards below are ones the random boards rarely hit. The oracle
here floods squares, the way the quadratic step before it did."""

from __future__ import annotations

import random

import clingo
from helpers import level_of
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import STEPS, one_box_routes, parse, region

from sokoasp import SolveConfig
from sokoasp.asp.encodings import get_encoding
from sokoasp.asp.session import Session
from sokoasp.board.level import Level
from sokoasp.config import Clock
from sokoasp.phases.staged.stage_session import StageControl, stage_facts
from sokoasp.sokoban.obstacles import obstacle_parts

FAMILIES = ("push-route", "pull-route")


def random_text(seed: int) -> str:
    """A walled rectangle with scattered walls and many boxes (clusters that touch no wall
    included) and the player on a free square; no goals (``with_goals`` adds them)."""
    rng = random.Random(seed)
    width, height = rng.randint(3, 8), rng.randint(3, 8)
    walls, boxes = rng.uniform(0, 0.25), rng.uniform(0.2, 0.5)
    rows = [["#"] * (width + 2)]
    for _ in range(height):
        row = ["#"]
        for _ in range(width):
            draw = rng.random()
            row.append("#" if draw < walls else "$" if draw < walls + boxes else " ")
        rows.append([*row, "#"])
    rows.append(["#"] * (width + 2))
    spaces = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == " "]
    if len(spaces) < 2:
        return ""
    x, y = rng.choice(spaces)
    rows[y][x] = "@"
    return "\n".join("".join(row) for row in rows) + "\n"


def with_goals(text: str) -> str:
    """The same board with a goal under each box (the step does not read the goals)."""
    return text.replace("$", "*")


def step_besides(level: Level, lift: tuple[int, int], family: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """(box square, player square next to it) of the family's first step with ``lift`` lifted
    (none if the player cannot reach the box: then the step cannot lift it). pull-route's
    level is turned round, its boxes on the goals: ``with_goals`` puts them on the same squares."""
    session = Session(level, get_encoding(family), SolveConfig(encoding=family), Clock())
    session.ground_up_to(1)
    session.control.add("lift", [], f":- not lift({lift[0]},{lift[1]},1).")
    session.control.ground([("lift", [])])
    found: set[tuple[tuple[int, int], tuple[int, int]]] = set()

    def collect(model: clingo.Model) -> None:
        for atom in model.symbols(atoms=True):
            if atom.name == "beside" and atom.arguments[4].number == 1:
                x, y, dx, dy = (a.number for a in atom.arguments[:4])
                found.add(((x, y), (x + dx, y + dy)))

    session.control.solve(on_model=collect)
    return found


def flooded_besides(text: str, lift: tuple[int, int], family: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The oracle's answer in the text's coordinates. pull-route's player starts on any free
    square."""
    floor, boxes, _, player = parse(text)
    others = boxes - {lift}
    pulls = family == "pull-route"
    starts = sorted(floor - boxes) if pulls else [player]
    found = set()
    for start in starts:
        for at, me in one_box_routes(floor, others, lift, start, pulls):
            walk = region(floor, others | {at}, me)
            found |= {(at, (at[0] + dx, at[1] + dy)) for dx, dy in STEPS.values() if (at[0] + dx, at[1] + dy) in walk}
    return found


def assert_step_matches_flood(text: str, families: tuple[str, ...] = FAMILIES) -> None:
    level = level_of(with_goals(text))
    _, boxes, _, player = parse(text)
    shift = (level.player[0] - player[0], level.player[1] - player[1])
    for family, box in ((family, box) for family in families for box in sorted(boxes)):
        lift = (box[0] + shift[0], box[1] + shift[1])
        expected = {((a[0] + shift[0], a[1] + shift[1]), (p[0] + shift[0], p[1] + shift[1]))
                    for a, p in flooded_besides(text, box, family)}
        assert step_besides(level, lift, family) == expected, (text, box)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(FAMILIES))
def test_the_step_brings_the_box_where_a_flood_does_with_the_player_on_the_same_sides(seed: int, family: str) -> None:
    text = random_text(seed)
    if not text:
        return
    floor, boxes, _, _ = parse(text)
    if boxes and len(floor) == sum(ch != "#" for ch in text if ch != "\n"):  # one piece of floor
        assert_step_matches_flood(text, (family,))


def test_boxes_that_touch_no_wall_can_shut_the_player_in_beside_the_box() -> None:
    """Three boxes in the middle of a room and the lifted box close a pocket of one square:
    the player in it pushes the box out but cannot walk round to its other sides."""
    text = ("#########\n"
            "#       #\n"
            "#   $   #\n"
            "#  $@$  #\n"
            "#   $   #\n"
            "#       #\n"
            "#########\n")
    assert_step_matches_flood(text)
    level = level_of(with_goals(text))
    besides = step_besides(level, (level.player[0], level.player[1] + 1), "push-route")
    assert not any(box == (level.player[0], level.player[1] + 1) and stand != level.player
                   for box, stand in besides)  # from the pocket, only the side it is on


def test_clusters_of_boxes_on_the_same_rows_are_told_apart_by_their_columns() -> None:
    """Lifting the box at (4, 3) leaves two boxes that touch nothing, (2, 2) and (4, 2), with the
    same top and bottom row: only their columns tell that they are two clusters, and the
    player walks round the box between them."""
    text = ("########\n"
            "#      #\n"
            "# $ $  #\n"
            "#   $ @#\n"
            "#$    $#\n"
            "#      #\n"
            "#  $   #\n"
            "#      #\n"
            "########\n")
    assert_step_matches_flood(text)


def test_a_box_chain_joins_a_free_standing_wall_to_the_outer_wall() -> None:
    """The wall inside the room is a part of its own; the boxes of the left column join it to
    the outer wall, which parts the sides of a box lifted between them."""
    text = ("#########\n"
            "#$   $@$#\n"
            "#$  #  $#\n"
            "#$ $  $ #\n"
            "#########\n")
    level = level_of(with_goals(text))
    assert len(set(obstacle_parts(level).values())) == 2
    assert_step_matches_flood(text)


def test_staged_solving_grounds_the_step_for_the_levels_box_count_alone() -> None:
    """In a stage session every floor square may hold a box (stage-start.lp's externals), so a
    box count taken from the start would be open to every number up to the floor's size, and
    the cluster rules that it bounds were grounded once per number: 6 to 7 s a step on XSokoban,
    over 120 s on a 592-square spiral. The count is one fact, the level's."""
    level = level_of(with_goals("#######\n#  $  #\n# $@$ #\n#     #\n#######\n"))
    for family in FAMILIES:
        encoding = get_encoding(family)
        control = StageControl(level, encoding, SolveConfig(encoding=family), Clock(), stage_facts(level, encoding.reverse))
        control.session.ground_up_to(1)
        counts = [atom.symbol for atom in control.session.control.symbolic_atoms.by_signature("boxes", 1)]
        assert counts == [clingo.Function("boxes", [clingo.Number(len(level.boxes))])]
