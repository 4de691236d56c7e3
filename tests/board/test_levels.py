"""Level files: both formats, lossless conversion, and clear errors on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sokoasp.board.facts import read_facts, write_facts
from sokoasp.board.level import Level
from sokoasp.board.loading import load_all, load_level
from sokoasp.board.xsb import read_levels, write_level
from sokoasp.errors import InputError

SHARED = Path(__file__).resolve().parents[3] / "shared" / "levels"
ROOT = Path(__file__).resolve().parents[2]


@st.composite
def levels(draw: st.DrawFn) -> Level:
    """Random connected floors (grown from a start cell) with k boxes and k goals."""
    width, height = draw(st.integers(2, 8)), draw(st.integers(1, 6))
    start = (draw(st.integers(1, width)), draw(st.integers(1, height)))
    floor, frontier = {start}, [start]
    grow = draw(st.lists(st.integers(0, 3), min_size=1, max_size=40))
    for choice in grow:
        x, y = frontier[choice % len(frontier)]
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][choice]
        cell = (x + dx, y + dy)
        if 1 <= cell[0] <= width and 1 <= cell[1] <= height and cell not in floor:
            floor.add(cell)
            frontier.append(cell)
    cells = sorted(floor)
    if len(cells) < 3:
        cells = sorted(floor | {(start[0] + 1, start[1]), (start[0] + 2, start[1])})
    k = draw(st.integers(1, max(1, (len(cells) - 1) // 2)))
    picks = draw(st.permutations(cells))
    player, boxes = picks[0], frozenset(picks[1 : k + 1])
    goals = frozenset(draw(st.permutations(cells))[:k])
    return Level(frozenset(cells), boxes, goals, player)


@settings(max_examples=150, deadline=None)
@given(levels())
def test_xsb_round_trip_is_lossless(level: Level) -> None:
    again = read_levels(write_level(level), "<round-trip>")
    assert again == [level]


@settings(max_examples=150, deadline=None)
@given(levels(), st.one_of(st.none(), st.integers(0, 99)))
def test_fact_round_trip_is_lossless(level: Level, horizon: int | None) -> None:
    facts = read_facts(write_facts(level, horizon), "<round-trip>")
    assert facts.level == level and facts.horizon == horizon


@settings(max_examples=100, deadline=None)
@given(levels(), st.data())
def test_a_moved_level_equals_the_checked_level_with_its_boxes_moved(level: Level, data: st.DataObject) -> None:
    cells = data.draw(st.permutations(sorted(level.floor)))
    boxes, player = frozenset(cells[1: len(level.boxes) + 1]), cells[0]
    assert level.moved(boxes, player) == Level(level.floor, boxes, level.goals, player)
    assert level.moved(boxes, player).title == level.title


def test_thesis_example_reads_pools_and_constants() -> None:
    loaded = load_level(ROOT / "instances" / "thesis_example.lp")
    level = loaded.level
    assert (level.width, level.height, loaded.horizon) == (5, 4, 23)
    assert len(level.floor) == 20 and len(level.boxes) == 6 and level.player == (1, 2)


def test_xsb_characters_and_floor_variants() -> None:
    level = read_levels("#######\n#+-*_$#\n#######\n", "t")[0]
    assert level.player == (1, 1) and level.goals == {(1, 1), (3, 1)} and level.boxes == {(3, 1), (5, 1)}


CLAIRE = "#######\n#.@ # #\n#$* $ #\n#   $ #\n# ..  #\n#  *  #\n#######\n"  # Lee J Haywood


def test_run_length_encoded_rows_read_as_written_out() -> None:
    """The Sokoban wiki's example: counts before a character, rows split by '|'."""
    encoded = "; Claire\n7#|#.@-#-#|#$*-$-#|#3-$-#|#-2.2-#|#2-*2-#|7#\n"
    assert read_levels(encoded, "rle") == read_levels("; Claire\n" + CLAIRE, "xsb")


def test_run_length_groups_and_rows_over_several_lines() -> None:
    encoded = "5#|#@$.#\n3(#)2#\n"
    assert read_levels(encoded, "rle") == read_levels("#####\n#@$.#\n#####\n", "xsb")


def test_sok_format_letters_for_player_and_boxes() -> None:
    assert read_levels("#######\n#pb.B #\n#######\n", "t") == read_levels("#######\n#@$.* #\n#######\n", "t")
    assert read_levels("#####\n#P$ #\n#b. #\n#####\n", "t") == read_levels("#####\n#+$ #\n#$. #\n#####\n", "t")


def test_an_empty_interior_row_does_not_end_the_board() -> None:
    """A row of '-' inside a board (here between the level and a walled-in ornament) keeps
    the board whole; a blank line would end it."""
    level = read_levels("#####\n#@$.#\n#####\n-\n###\n#*#\n###\n", "t")[0]
    assert level.boxes == {(2, 1), (1, 5)} and level.goals == {(3, 1), (1, 5)}


@pytest.mark.parametrize("row,problem", [("5#|#@$.#|5", "repeats nothing"),
                                         ("5#|#@$.#|3(#", "never closed"),
                                         ("5#|#@$.#|5#)", "unmatched"),
                                         ("5#|#@$.#|999(999(999#))", "longer than 10000 characters"),
                                         ("5#|#@$.#|" + "9999#" * 3, "longer than 10000 characters")])
def test_bad_run_length_encoding_names_line_and_column(row: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as caught:
        read_levels("; title\n" + row + "\n", "bad.sok")
    assert "bad.sok:2:" in str(caught.value)


def test_errors_in_run_length_rows_name_their_own_line() -> None:
    with pytest.raises(InputError, match="open") as caught:
        read_levels("; t\n5#\n#@$.-|5#\n", "open.sok")
    assert "open.sok:3:" in str(caught.value)


@pytest.mark.skipif(not SHARED.exists(), reason="shared levels not present")
def test_collections_load_with_titles() -> None:
    levels_ = load_all(SHARED / "microban_i.sok")
    assert len(levels_) == 155
    assert load_level(SHARED / "microban_i.sok", "3").level == levels_[2].level
    assert load_level(SHARED / "microban_i.sok", "microban_i 3").level == levels_[2].level
    assert len(load_all(SHARED / "xsokoban_90.sok")) == 90


BAD_FILES = {
    "script.lp": ("init(field(1..3,1)).\n#script (python)\nimport os\n#end.\n", 2, "#script"),
    "rule.lp": ("init(field(1..3,1)).\ngoal(X) :- a(X).\n", 2, "rules are not allowed"),
    "include.lp": ('#include "x.lp".\n', 1, "#include"),
    "unknown.lp": ("init(field(1..3,1)).\ninit(at(0,1,1)).\ninit(foo(1)).\n", 3, "expected"),
    "noperiod.lp": ("init(field(1..3,1)).\ninit(at(0,1,1))\n", 2, "period"),
    "twice.lp": ("init(field(1..3,1)).\ninit(at(0,1,1)).\ninit(at(0,2,1)).\n", 3, "placed twice"),
    "offfield.lp": ("init(field(1..3,1)).\ninit(at(0,1,1)).\ninit(at(1,5,1)).\ninit(target(2,1)).\n", 3, "not on a field"),
    "const.lp": ("#const width=3.\n", 1, "unknown constant"),
    "char.sok": ("#####\n#@$x#\n#####\n", 2, "unknown character 'x'"),
    "open.sok": ("#####\n#@$ .\n#####\n", 2, "open"),
    "twoplayers.sok": ("#####\n#@$.#\n#@  #\n#####\n", 3, "more than one player"),
    "noplayer.sok": ("#####\n# $.#\n#####\n", 1, "no player"),
    "count.sok": ("######\n#@$$.#\n######\n", 1, "2 box(es) but 1 goal(s)"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_name_file_line_and_problem(tmp_path: Path, name: str) -> None:
    text, line, problem = BAD_FILES[name]
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_level(path)
    assert f"{path}:{line}:" in str(caught.value)
    assert problem in str(caught.value)


@pytest.mark.parametrize("content,problem", [("", "empty"), ("   \n", "empty"), (None, "no such file")])
def test_empty_and_missing_files(tmp_path: Path, content: str | None, problem: str) -> None:
    path = tmp_path / "level.sok"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=problem):
        load_level(path)


def test_collection_needs_a_choice(tmp_path: Path) -> None:
    path = tmp_path / "two.sok"
    path.write_text("; a\n#####\n#@$.#\n#####\n\n; b\n######\n#@$ .#\n######\n")
    with pytest.raises(InputError, match="holds 2 levels"):
        load_level(path)
    assert load_level(path, "b").level.title == "b"
    with pytest.raises(InputError, match="out of range"):
        load_level(path, "3")


@pytest.mark.parametrize(("which", "problem"), [("٣", "no level titled '٣'"), ("²", "no level titled '²'"),
                                                ("9" * 5000, r"--level 999999999999\.\.\. is out of range 1\.\.2"),
                                                ("0", "--level 0 is out of range")])
def test_a_level_number_is_ascii_digits_and_a_huge_one_is_out_of_range(tmp_path: Path, which: str, problem: str) -> None:
    path = tmp_path / "two.sok"
    path.write_text("; a\n#####\n#@$.#\n#####\n\n; b\n######\n#@$ .#\n######\n")
    with pytest.raises(InputError, match=problem):
        load_level(path, which)


def test_a_run_length_count_is_ascii_digits(tmp_path: Path) -> None:
    path = tmp_path / "rle.sok"
    path.write_text("#####\n#@$.#\n#²##\n#####\n")
    with pytest.raises(InputError):
        load_level(path)
