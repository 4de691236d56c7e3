"""Options several commands share: the level, the limits, the output."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from sokoasp.config import TIME_LIMIT_MAX
from sokoasp.registry import is_path


class Seconds(click.ParamType):
    """A finite number of seconds above zero (nan, inf and absurd values are refused)."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 < seconds <= TIME_LIMIT_MAX:
            self.fail(f"{value!r}: give seconds above 0 and at most {TIME_LIMIT_MAX:g}", param, ctx)
        return seconds


SECONDS = Seconds()


class Member(click.ParamType):
    """An encoding or strategy: a registered name (shipped or a plugin's) or the path of a user's
    file or folder, checked when the option is read; the value is the name in its registered case,
    or the path as given."""

    def __init__(self, kind: str, extra: tuple[str, ...] = ()) -> None:
        self.kind, self.extra = kind, extra
        self.name = "FAMILY" if kind == "encoding" else "NAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from sokoasp.errors import InputError

        if value in self.extra:
            return str(value)
        try:
            if self.kind == "encoding":
                from sokoasp.asp.encodings import get_encoding

                found = get_encoding(value).name
            else:
                from sokoasp.asp.strategies import get_strategy

                found = get_strategy(value).name
        except InputError as error:
            self.fail(str(error), param, ctx)
        return str(value) if is_path(value) else found


def level_argument(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option("--level", "-l", "which", help="Which level of a collection: its number (1-based) or title.")(command)
    return click.argument("level_file", type=click.Path(path_type=Path))(command)


def limits(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option("--memory-limit", type=click.IntRange(1, 10**7), metavar="MB",
                           help="Address space of the solver process.")(command)
    return click.option("--time-limit", type=SECONDS, help="Seconds for the whole run, grounding too "
                        "(which gets a quarter of the limit more, 2 s at most, to stop); then it is a timeout.")(command)


def output(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option("--verbose", "-v", is_flag=True, help="Show each horizon and phase as it goes (on stderr).")(command)
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(command)
