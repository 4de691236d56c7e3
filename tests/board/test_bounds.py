"""Level files are data: every input is bounded before any work on it, and whatever a file
holds, only the project's InputError escapes, naming the file (and the line where there is one),
quickly and without a traceback."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sokoasp.board.facts import read_facts
from sokoasp.board.loading import load_all, load_level
from sokoasp.board.xsb import read_levels
from sokoasp.errors import InputError

BOX_LEVEL = "#####\n#@$.#\n#####\n"


def refused_quickly(read, text: str, problem: str, seconds: float = 2.0) -> None:
    began = time.perf_counter()
    with pytest.raises(InputError, match=problem):
        read(text, "level")
    assert time.perf_counter() - began < seconds


@pytest.mark.parametrize(("text", "problem"), [
    ("init(field(1..3000,1..3000)).", "coordinate 3000 lies outside 1..200"),
    ("init(field(1," + "9" * 5000 + ")).", "more than 6 digits"),
    ("init(field(1..\uff13,1)). init(at(0,1,1)).", "expected #const"),  # a full-width 3 is no digit of clingo's
    ("#const dimX = 3. #const dimX = 4. init(field(1..3,1)). init(at(0,1,1)).", "given twice"),
    ("#const dimX = 1000000000. init(field(1..3,1)). init(at(0,1,1)).", "more than 6 digits"),
    ("#const dimX = 5000. init(field(1..3,1)). init(at(0,1,1)).", "outside 1..200"),
    ("#const horizon = 999999. init(field(1..3,1)). init(at(0,1,1)).", "outside 0..100000"),
])
def test_fact_files_are_bounded_before_pools_are_expanded(text: str, problem: str) -> None:
    refused_quickly(read_facts, text, problem)


@pytest.mark.parametrize(("text", "problem"), [
    ("#" * 3 + "(" * 1000 + "#" + ")" * 1000 + "\n", "nested deeper"),
    ("5" * 5000 + "#\n", "longer than any line"),
    (("#" * 2000 + "\n") * 2000, "larger than 200x200"),
])
def test_xsb_boards_are_bounded_before_they_are_expanded_or_flooded(text: str, problem: str) -> None:
    refused_quickly(read_levels, text, problem)


def test_the_total_work_of_a_fact_file_is_bounded_not_only_each_statement() -> None:
    refused_quickly(read_facts, "init(field(1..200,1..200)).\n" * 5_000, "name more than 160000 cells")
    began = time.perf_counter()
    with pytest.raises(InputError, match="no init\\(field"):  # many small statements parse in linear time
        read_facts("init(target(1,1)).\n" * 100_000, "level")
    assert time.perf_counter() - began < 3.0


def test_choosing_a_level_turns_only_that_board_into_a_level(tmp_path: Path) -> None:
    open_board = "#####\n#@$. \n#####\n"  # the floor leaks at the right: an error only when this board is read
    path = tmp_path / "two.sok"
    path.write_text(f"; one\n{BOX_LEVEL}\n; two\n{open_board}")
    assert load_level(path, "1").level.boxes == {(2, 1)}
    assert load_level(path, "one").level.title == "one"
    with pytest.raises(InputError, match="the board is open"):
        load_level(path, "2")
    with pytest.raises(InputError, match="the board is open"):
        load_all(path)


def test_a_byte_order_mark_is_not_part_of_the_level(tmp_path: Path) -> None:
    path = tmp_path / "bom.sok"
    path.write_bytes(b"\xef\xbb\xbf" + BOX_LEVEL.encode())
    assert len(load_all(path)) == 1


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_before_they_are_read(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    with pytest.raises(InputError, match="not a regular file"):
        load_all(Path(device))


def test_a_pipe_is_refused_instead_of_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "level.sok"
    os.mkfifo(pipe)
    with pytest.raises(InputError, match="not a regular file"):
        load_all(pipe)


PIECES = [*"#@+$*.-_ pPbB|()0123456789\n;:,=%", "..", "\ufeff", "init(", "field(", "at(", "target(", "#const ", "dimX",
          "horizon", "%*", "*%", ":-", "99999999"]


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=120).map("".join))
def test_any_text_is_a_level_or_an_input_error(text: str) -> None:
    for read in (read_levels, read_facts):
        try:
            read(text, "fuzz")
        except InputError as error:
            assert str(error).startswith("fuzz")


@pytest.mark.parametrize("title", ["a %* b", "x *% y %", "two\nlines"])
def test_a_title_of_any_text_writes_facts_that_read_back(title: str) -> None:
    from sokoasp.board.facts import write_facts

    level = read_levels(BOX_LEVEL, "t")[0].with_title(title)
    again = read_facts(write_facts(level), "again").level
    assert (again.floor, again.boxes, again.goals, again.player) == (level.floor, level.boxes, level.goals, level.player)


def test_floor_no_one_can_reach_is_dropped_by_both_readers_alike() -> None:
    """A fact file with a field cut off from the player, the boxes and the goals gives the same
    level (and digest) as its XSB conversion, so grids and records match it either way."""
    from sokoasp.board.facts import digest, write_facts
    from sokoasp.board.xsb import write_level

    text = "init(field(1..3,1)). init(field(5,1)). init(at(0,1,1)). init(at(1,2,1)). init(target(3,1))."
    from_facts = read_facts(text, "cut").level
    assert (5, 1) not in from_facts.floor
    from_xsb = read_levels(write_level(from_facts), "cut")[0]
    assert digest(from_xsb) == digest(from_facts) == digest(read_facts(write_facts(from_xsb), "again").level)
