"""The portfolio race and the data-driven choice of its members."""

from __future__ import annotations

from corpus import HAND_MADE, UNSOLVABLE
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status
from sokoasp.portfolio import choose_members, race


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


def test_the_portfolio_listing_names_each_members_stages_and_goal_room() -> None:
    from test_cli import run

    from sokoasp.portfolio import DEFAULT_MEMBERS

    code, out = run("portfolio")
    assert code == 0
    lines = out.splitlines()[1:]
    assert len(lines) == len(DEFAULT_MEMBERS)
    for line, member in zip(lines, DEFAULT_MEMBERS, strict=True):
        assert member.encoding in line
        assert line.rstrip().endswith("no") is (member.goal_room is None)
        if member.goal_room is not None:
            assert f"{member.goal_room:g} s on the level with macros" in line
        if member.staged is None:
            assert " no " in line
        else:
            assert f"{member.staged:g} s: " in line
            assert all(family in line.split(" s: ")[1] for family in member.stage_families)
            assert ("in turn" in line) is (len(member.stage_families) > 1)
