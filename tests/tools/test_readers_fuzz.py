"""Whatever a grid file, a recipe or a plan record holds, reading it ends in a value or in the
project's InputError naming the file: never another exception, never a long wait."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sokoasp.board.xsb import read_levels
from sokoasp.errors import InputError
from sokoasp.tools.generate.recipe import read_recipe
from sokoasp.tools.grid.spec import read_spec
from sokoasp.tools.records import read_record

TOML_PIECES = ["time_limit", "memory_limit", "max_horizon", "encodings", "strategies", "clingo_options", "phases",
               "start_factors", "interleave", "end_game", "stage_encodings", "seed", "pulls", "levels_per_class",
               "[[classes]]", "[[instances]]", "name", "structure", "size", "boxes", "zones", "blocks", "count", "path",
               ' = ', '"', "[", "]", ",", "\n", "1", "0", "-1", "1e308", "nan", "inf", "true", "false", '"push"',
               '"staged=50k"', '"dead"', '"6x5"', '"rectangular"', '"--x"', '"lots"', "3.5", "[[]]", '"x"',
               "9" * 5000, "[" * 300, '"\\u0000"', '"\u00b2"', '"1-30000000"', "{}", "{ a = 1 }", "class", "levels",
               "record", "instances", "classes", "= 5", "= [1]"]
CSV_PIECES = ["level,title,pushes,moves,proven,lower_bound,configuration,seconds,plan\n", "1", "2", ",", "\n", "R",
              "push-optimal", "nan", "-5", "push", "\ufeff", '"', "999999999999", "r"]
LEVEL = "#####\n#@$.#\n#####\n"
FUZZ = settings(max_examples=150, deadline=3000, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])


def only_input_errors(read, path: Path) -> None:
    try:
        read(path)
    except InputError as error:
        assert str(error).startswith(str(path))


@FUZZ
@given(st.lists(st.sampled_from(TOML_PIECES), max_size=80).map("".join))
def test_any_grid_file_or_recipe_is_read_or_refused(tmp_path_factory, text: str) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "g.toml"
    path.write_text(text + f'\n[[instances]]\npath = "{folder / "l.sok"}"\n')
    (folder / "l.sok").write_text(LEVEL)
    only_input_errors(read_spec, path)
    path.write_text(text)
    only_input_errors(read_recipe, path)


@pytest.mark.parametrize("text", [
    "instances = 5", "[[instances]]\nrecord = 0\npath = 'l.sok'", "[[instances]]\npath = \"l\\u0000.sok\"",
    "[[instances]]\npath = 'l.sok'\nlevels = '\u00b2'", "[[instances]]\npath = 'l.sok'\nclass = [1]",
    "[[instances]]\npath = 'l.sok'\nlevels = '1-30000000'", "time_limit = " + "9" * 5000,
    "encodings = " + "[" * 400 + "]" * 400, "classes = 5", "strategies = [[1]]", "phases = [[{ name = [1] }]]",
    "[[classes]]\nname = 'a'\nsize = '5x4'\nboxes = 1\ncount = 1000000000",
])
def test_values_of_the_wrong_kind_are_input_errors_naming_a_file(tmp_path: Path, text: str) -> None:
    (tmp_path / "l.sok").write_text(LEVEL)
    path = tmp_path / "g.toml"
    path.write_text(text)
    for read in (read_spec, read_recipe):
        with pytest.raises(InputError) as caught:
            read(path)
        assert str(caught.value).startswith(str(tmp_path))  # the grid file, or the level file it names


@FUZZ
@given(st.lists(st.sampled_from(CSV_PIECES), max_size=60).map("".join))
def test_any_plan_record_is_read_or_refused(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "record.csv"
    path.write_text(text)
    levels = read_levels(LEVEL, "l")
    only_input_errors(lambda p: read_record(p, levels), path)
