"""Small helpers shared by the tests."""

from __future__ import annotations

from sokoasp.level import Level
from sokoasp.simulator import replay
from sokoasp.xsb import read_levels


def level_of(text: str) -> Level:
    return read_levels(text, "<test>")[0]


def assert_replays(level: Level, plan: str | None) -> None:
    assert plan is not None
    outcome = replay(level, plan)
    assert outcome.ok, outcome.problem
