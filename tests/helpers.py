"""Small helpers shared by the tests."""

from __future__ import annotations

import clingo
from oracle import bfs_pushes, bfs_slides

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.session import Session
from sokoasp.board.level import Level
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import read_levels
from sokoasp.config import Clock


def level_of(text: str) -> Level:
    return read_levels(text, "<test>")[0]


def assert_replays(level: Level, plan: str | None) -> None:
    assert plan is not None
    outcome = replay(level, plan)
    assert outcome.ok, outcome.problem


def assert_keeps_shortest_horizon(text: str, encoding: str, strategies: tuple[str, ...]) -> None:
    """A jump family (horizon h admits every plan of at most h steps: push-jump, push-macro)
    with these strategies finds a plan at the level's fewest steps (breadth-first pushes, or
    slides for push-macro) and none below it."""
    shortest = bfs_slides(text) if encoding == "push-macro" else bfs_pushes(text)
    assert shortest is not None
    level = level_of(text)
    at = solve(level, SolveConfig(encoding=encoding, strategies=strategies, min_horizon=shortest, max_horizon=shortest))
    assert at.status.solved, (text, at.message)
    assert_replays(level, at.plan)
    if shortest > 0:
        below = solve(level, SolveConfig(encoding=encoding, strategies=strategies, min_horizon=shortest - 1,
                                         max_horizon=shortest - 1))
        assert below.status is Status.NO_PLAN_UP_TO_HORIZON, text


def count_plans(text: str, encoding: str, strategies: tuple[str, ...], horizon: int) -> int:
    """The answer sets of an encoding at ``horizon``, counted through the driver's own Session."""
    session = Session(level_of(text), ENCODINGS[encoding], SolveConfig(encoding=encoding, strategies=strategies), Clock())
    control = session.control
    control.configuration.solve.models = 0
    control.ground([("base", []), *[("step", [clingo.Number(t)]) for t in range(1, horizon + 1)],
                    ("check", [clingo.Number(horizon)])])
    control.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
    with control.solve(yield_=True) as handle:
        return sum(1 for _ in handle)
