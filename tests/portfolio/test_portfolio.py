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
from sokoasp.config import PhaseRun, nominal_work, work_text
from sokoasp.errors import InputError
from sokoasp.phases.staged import stage_families
from sokoasp.portfolio.members import LONGER, default_members, member_config, members_for
from sokoasp.portfolio.race import race
from sokoasp.portfolio.suggest import choose_members

DEFAULT_MEMBERS = default_members()


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

    level = load_level(Path(__file__).resolve().parents[2] / "instances" / "thesis_example.lp").level
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
def test_the_portfolio_listing_names_each_members_phases_and_stages(limit: float | None) -> None:
    from test_cli import run

    code, out = run("portfolio", *([] if limit is None else ["--time-limit", str(limit)]))
    assert code == 0
    lines = out.splitlines()[1:]
    assert len(lines) == len(members_for(limit))
    for line, member in zip(lines, members_for(limit), strict=True):
        assert member.encoding in line
        assert line.rstrip().endswith("-") is (not stage_families(member))
        for phase in member.phases:
            assert f"{phase.name} {work_text(phase.work)}" in line
        if not member.phases:
            assert " none " in line
        if stage_families(member):
            assert all(family in line for family in stage_families(member))
            assert ("in turn" in line) is (len(stage_families(member)) > 1)


def test_the_members_are_the_data_file_in_racing_order() -> None:
    assert [m.encoding for m in DEFAULT_MEMBERS] == ["push-macro", "push-route", "push-macro"]
    assert [[str(run) for run in m.phases] for m in DEFAULT_MEMBERS] == [
        ["box-search=100k", "feature-search=100k", "room-search=500k"], ["goal-room=60k", "staged=300k:families=push-macro+pull-route"], []]
    assert stage_families(DEFAULT_MEMBERS[1]) == ("push-macro", "pull-route")


def test_a_member_table_with_an_unknown_key_or_phase_is_refused() -> None:
    with pytest.raises(InputError, match="unknown key 'stagd'"):
        member_config({"encoding": "push", "stagd": 5})
    with pytest.raises(InputError, match="unknown phase 'stages'"):
        member_config({"encoding": "push", "phases": ["stages=5"]})


@pytest.mark.parametrize("limit", [None, 1.0, 30.0, 60.0])
def test_up_to_60_s_the_members_keep_the_measured_schedule(limit: float | None) -> None:
    assert members_for(limit) == DEFAULT_MEMBERS


def test_a_longer_limit_goes_to_the_goal_room_and_the_stages() -> None:
    staged_members = [n for n, m in enumerate(DEFAULT_MEMBERS) if stage_families(m) and m.work("goal-room") is not None]
    assert staged_members, "the portfolio has a member with a goal room and stages"
    last_staged = 0
    for limit in (61.0, 120.0, 300.0, 900.0):
        fitted = members_for(limit)
        for number, (member, default) in enumerate(zip(fitted, DEFAULT_MEMBERS, strict=True)):
            if number not in staged_members:
                assert member == default or number == 0
                continue
            goal_room, staged = member.work("goal-room"), member.work("staged")
            assert goal_room is not None and staged is not None
            assert goal_room == max(default.work("goal-room") or 0, nominal_work(limit * LONGER.goal_room_share))
            assert staged == max(default.work("staged") or 0, nominal_work(limit - LONGER.loop_seconds) - goal_room)
            assert staged > last_staged
            last_staged = staged
            assert (member.encoding, member.start_factor) == LONGER.loop
            assert member.strategies == default.strategies
            assert replace(member, encoding=default.encoding, start_factor=default.start_factor,
                           phases=default.phases) == default


def test_past_60_s_the_first_member_runs_stages_of_its_family_before_its_loop() -> None:
    first = DEFAULT_MEMBERS[0]
    search = first.work("box-search")
    assert not stage_families(first) and first.work("goal-room") is None and search is not None
    for limit in (61.0, 120.0, 300.0, 900.0):
        member = members_for(limit)[0]
        longer, staged = member.work("box-search"), member.work("staged")
        assert longer is not None and staged is not None
        assert longer == max(search, nominal_work(limit * LONGER.search_share))
        # the search beyond its 60-s budget comes from the stages: the loop keeps what it has at 60 s
        assert staged == max(1000, nominal_work(limit - LONGER.measured) - (longer - search))
        assert stage_families(member) == (first.encoding,)
        assert get_encoding(first.encoding).reverse is False  # forwards, unlike the second member's turns
        assert [run.name for run in member.phases] == [*(run.name for run in first.phases), "staged"]
        assert replace(member, phases=first.phases) == first  # the loop after the stages is its own


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


def test_a_race_without_a_plan_keeps_every_members_phase_reports(monkeypatch, no_end_game) -> None:
    """The stages' report survives in the report when their member is killed after sending it
    (here it hangs after its solve, like grounding that outlives the limit) and another member's
    stronger outcome is the one reported."""
    from test_staged import ONE_NEAR_ONE_FAR

    from sokoasp import pipeline as driver
    from sokoasp import worker
    from sokoasp.board.simulator import replay

    def hangs_after_stages(level, config, progress=None, reports=None):
        result = driver.solve(level, config, progress, reports)
        if stage_families(config):
            time.sleep(60)
        return result

    monkeypatch.setattr(worker, "solve", hangs_after_stages)  # the forked members inherit it
    level = level_of(ONE_NEAR_ONE_FAR)
    refuted = SolveConfig(encoding="push", max_horizon=1)
    members = (refuted, replace(refuted, phases=(PhaseRun("staged", 100_000),)))
    result = race(level, members, time_limit=1, cores=2)
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    staged = result.report("staged")
    assert staged is not None
    reached = replay(level, staged.farthest)
    assert len(reached.boxes & level.goals) == 1
    assert "1 of 2" in staged.note
