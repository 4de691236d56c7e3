"""The portfolio's members: read from ``members.toml`` (shipped in the package), and stretched to
a time limit above the one they were chosen at by the rule of ``LongerLimits``. Each member's
budgets are work, so a member that finds a plan finds the same one on every run."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from sokoasp.config import PhaseRun, SolveConfig, nominal_work
from sokoasp.configure import config_from_table


@dataclass(frozen=True)
class LongerLimits:
    """How the members' budgets follow a limit above ``measured``, at the nominal rate of
    ``WORK_PER_SECOND`` (a budget is work, so a given limit always gives the same budgets). The
    first member (Python searches) gets ``search_share`` of the limit for its box search and the
    rest past ``measured`` for forward stages; a member with a goal room and stages gives the
    goal room ``goal_room_share`` of the limit, the stages all but ``loop_seconds`` of the rest,
    and asks ``loop`` after them."""

    measured: float = 60.0  # the members' budgets were chosen at this limit; up to it they stay as they are
    search_share: float = 1 / 12  # 25 s of 300 s for the box search
    goal_room_share: float = 1 / 6  # 10 s of 60 s for the goal room
    loop_seconds: float = 25.0  # the horizon loop after the stages keeps this much
    loop: tuple[str, int] = ("push-macro", 5)  # the stage member's loop past the measured limit: family, start factor


LONGER = LongerLimits()


@cache
def default_members() -> tuple[SolveConfig, ...]:
    """The members of ``members.toml``, in racing order."""
    text = resources.files("sokoasp.portfolio").joinpath("members.toml").read_text()
    return tuple(member_config(table) for table in tomllib.loads(text)["member"])


def member_config(table: dict[str, Any]) -> SolveConfig:
    """One member's configuration from its TOML table (the keys of ``sokoasp.configure.KEYS``)."""
    return config_from_table(table, "members.toml")


def members_for(time_limit: float | None, members: tuple[SolveConfig, ...] | None = None) -> tuple[SolveConfig, ...]:
    """The members raced under ``time_limit``: as they are up to ``LONGER.measured``, stretched above it."""
    first, *others = members or default_members()
    if time_limit is None or time_limit <= LONGER.measured:
        return (first, *others)
    return (searches_then_stages(first, time_limit), *(stretched(member, time_limit) for member in others))


def searches_then_stages(member: SolveConfig, time_limit: float) -> SolveConfig:
    """The first member above the measured limit: its box search gets ``search_share`` of the
    limit (at least its own budget), and forward stages in its own family the time past the
    measured limit that the search does not take. A member that already has stages stays."""
    if member.phase("staged") is not None:
        return member
    search = member.work("box-search") or 0
    longer = max(search, nominal_work(time_limit * LONGER.search_share)) if search else 0
    staged = PhaseRun("staged", max(1000, nominal_work(time_limit - LONGER.measured) - (longer - search)))
    runs = tuple(replace(run, work=longer) if run.name == "box-search" else run for run in member.phases)
    return replace(member, phases=(*runs, staged))


def stretched(member: SolveConfig, time_limit: float) -> SolveConfig:
    """A member with a goal room and stages above the measured limit: the goal room
    ``goal_room_share`` of the limit, the stages all but ``loop_seconds`` of the rest, and the
    loop of ``LONGER.loop``. A member without both phases stays as it is."""
    goal_room, staged = member.work("goal-room"), member.work("staged")
    if goal_room is None or staged is None:
        return member
    goal_room = max(goal_room, nominal_work(time_limit * LONGER.goal_room_share))
    work = {"goal-room": goal_room, "staged": max(staged, nominal_work(time_limit - LONGER.loop_seconds) - goal_room)}
    encoding, start_factor = LONGER.loop
    return replace(member, phases=tuple(replace(run, work=work.get(run.name, run.work)) for run in member.phases),
                   encoding=encoding, start_factor=start_factor)
