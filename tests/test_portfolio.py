"""The portfolio race and the data-driven choice of its members."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from corpus import HAND_MADE, UNSOLVABLE
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status
from sokoasp.asp.encodings import get_encoding
from sokoasp.portfolio.race import (
    DEFAULT_MEMBERS,
    LONG_LIMIT_LOOP,
    LOOP_SECONDS,
    MEASURED_LIMIT,
    SEARCH_SECONDS,
    SEARCH_SHARE,
    choose_members,
    members_for,
    race,
)


def test_race_returns_a_validated_plan() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    result = race(level, time_limit=30)
    assert result.status.solved and result.pushes >= bfs_pushes(HAND_MADE["two-boxes"])
    assert_replays(level, result.plan)
    assert len(result.config["portfolio"]) >= 1


def test_race_reports_the_strongest_failure() -> None:
    members = (SolveConfig(encoding="push", max_horizon=3), SolveConfig(encoding="push-jump", max_horizon=3))
    result = race(level_of(HAND_MADE["two-boxes"]), members, time_limit=30)
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    assert race(level_of(UNSOLVABLE["box-in-corner"]), members, time_limit=30).status is Status.UNSOLVABLE


def test_race_times_out_honestly() -> None:
    members = (SolveConfig(encoding="incremental"), SolveConfig(encoding="split-incremental"))
    from pathlib import Path

    from sokoasp import load_level

    level = load_level(Path(__file__).resolve().parent.parent / "instances" / "thesis_example.lp").level
    assert race(level, members, time_limit=0.5).status is Status.TIMEOUT


def test_members_chosen_by_greedy_cover() -> None:
    def row(config: str, instance: str, solved: bool) -> dict:
        return {"configuration": config, "instance_hash": instance, "solved": solved, "total_time": 1.0,
                "time_limit": 10.0}

    rows = [row("a", "1", True), row("a", "2", True), row("a", "3", False),
            row("b", "1", True), row("b", "2", True), row("b", "3", False),
            row("c", "1", False), row("c", "2", False), row("c", "3", True)]
    assert choose_members(rows, 2) == ["a", "c"]


@pytest.mark.parametrize("limit", [None, 300.0])
def test_the_portfolio_listing_names_each_members_search_goal_room_and_stages(limit: float | None) -> None:
    from test_cli import run

    code, out = run("portfolio", *([] if limit is None else ["--time-limit", str(limit)]))
    assert code == 0
    lines = out.splitlines()[1:]
    assert len(lines) == len(members_for(limit))
    for line, member in zip(lines, members_for(limit), strict=True):
        assert member.encoding in line
        assert line.rstrip().endswith("no") is (member.staged is None)
        if member.search is None:
            assert " in Python" not in line
        else:
            assert f"{member.search:g} s in Python" in line
        if member.goal_room is not None:
            assert f"{member.goal_room:g} s on the level with macros" in line
        if member.staged is None:
            assert " no " in line
        else:
            assert f"{member.staged:g} s: " in line
            assert all(family in line.split(" s: ")[1] for family in member.stage_families)
            assert ("in turn" in line) is (len(member.stage_families) > 1)


@pytest.mark.parametrize("limit", [None, 1.0, 30.0, 60.0])
def test_up_to_60_s_the_members_keep_the_measured_schedule(limit: float | None) -> None:
    assert members_for(limit) == DEFAULT_MEMBERS


def test_a_longer_limit_goes_to_the_goal_room_and_the_stages() -> None:
    staged_members = [n for n, m in enumerate(DEFAULT_MEMBERS) if m.staged is not None and m.goal_room is not None]
    assert staged_members, "the portfolio has a member with a goal room and stages"
    last_staged = 0.0
    for limit in (61.0, 120.0, 300.0, 900.0):
        fitted = members_for(limit)
        for number, (member, default) in enumerate(zip(fitted, DEFAULT_MEMBERS, strict=True)):
            if number not in staged_members:
                assert member == default or number == 0
                continue
            assert member.goal_room is not None and member.staged is not None
            assert member.goal_room == pytest.approx(limit / 6, abs=0.1)
            assert member.goal_room + member.staged + LOOP_SECONDS == pytest.approx(limit, abs=0.2)
            assert member.staged > last_staged
            last_staged = member.staged
            assert (member.encoding, member.start_factor) == LONG_LIMIT_LOOP
            assert member.strategies == default.strategies
            assert replace(member, goal_room=default.goal_room, staged=default.staged, encoding=default.encoding,
                           start_factor=default.start_factor) == default


def test_past_60_s_the_first_member_runs_stages_of_its_family_before_its_loop() -> None:
    first = DEFAULT_MEMBERS[0]
    assert first.staged is None and first.goal_room is None and first.search == SEARCH_SECONDS
    for limit in (61.0, 120.0, 300.0, 900.0):
        member = members_for(limit)[0]
        assert member.search == pytest.approx(max(SEARCH_SECONDS, limit * SEARCH_SHARE), abs=0.1)
        # the search beyond its 60-s seconds comes from the stages: the loop keeps what it has at 60 s
        assert limit - member.search - member.staged == pytest.approx(MEASURED_LIMIT - SEARCH_SECONDS, abs=0.2)
        assert member.stage_families == (first.encoding,)
        assert get_encoding(first.encoding).reverse is False  # forwards, unlike the second member's turns
        assert replace(member, staged=None, search=first.search) == first  # the loop after the stages is its own


def test_the_race_runs_the_members_fitted_to_its_limit() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    result = race(level, time_limit=300, cores=2)
    assert result.status.solved
    raced = result.config["portfolio"]
    assert raced == [m.describe() for m in members_for(300)[:2]]
    assert raced != [m.describe() for m in DEFAULT_MEMBERS[:2]]


def test_a_member_that_ends_without_a_plan_frees_its_core_for_the_next() -> None:
    text = HAND_MADE["two-boxes"]
    level = level_of(text)
    gives_up = SolveConfig(encoding="push", max_horizon=1)  # two-boxes needs 3 pushes
    solves = SolveConfig(encoding="push", strategies=("dead",))
    result = race(level, (gives_up, solves), time_limit=30, cores=1)
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(text)
    assert_replays(level, result.plan)
    assert result.config["strategies"] == ["dead"]
    assert result.config["portfolio"] == [gives_up.describe(), solves.describe()]


def test_a_proof_of_unsolvability_ends_the_schedule() -> None:
    members = (SolveConfig(encoding="push"), SolveConfig(encoding="push-jump"))
    result = race(level_of(UNSOLVABLE["box-in-corner"]), members, time_limit=30, cores=1)
    assert result.status is Status.UNSOLVABLE
    assert result.config["portfolio"] == [members[0].describe()]


def test_a_race_without_a_plan_keeps_every_members_phase_notes(monkeypatch, no_end_game) -> None:
    """The stages' note survives in the report when their member is killed after sending it
    (here it hangs after its solve, like grounding that outlives the limit) and another member's
    stronger outcome is the one reported."""
    from test_staged import ONE_NEAR_ONE_FAR

    from sokoasp import pipeline as driver
    from sokoasp import worker
    from sokoasp.board.simulator import replay

    def hangs_after_stages(level, config, progress=None, notes=None):
        result = driver.solve(level, config, progress, notes)
        if config.staged:
            time.sleep(60)
        return result

    monkeypatch.setattr(worker, "solve", hangs_after_stages)  # the forked members inherit it
    level = level_of(ONE_NEAR_ONE_FAR)
    refuted = SolveConfig(encoding="push", max_horizon=1)
    members = (refuted, replace(refuted, staged=10.0))
    result = race(level, members, time_limit=1, cores=2)
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    reached = replay(level, result.stats["staged_farthest"])
    assert len(reached.boxes & level.goals) == 1
    assert "1 of 2" in result.stats["staged"]
