"""Worker processes: a run killed at its hard limit keeps what its finished phases found."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of

import sokoasp.worker
from sokoasp import SolveConfig, Status, solve
from sokoasp.board.level import Level
from sokoasp.config import PhaseRun
from sokoasp.pipeline import Progress, Reports
from sokoasp.portfolio.race import race
from sokoasp.result import PhaseReport
from sokoasp.worker import GRACE_SECONDS, solve_isolated

LEVEL = HAND_MADE["two-boxes"]
STAGED = SolveConfig(encoding="push", phases=(PhaseRun("goal-room", 50_000), PhaseRun("staged", 50_000),))


def test_the_pipeline_tells_each_phase_as_it_ends_with_the_report_of_its_result() -> None:
    heard: list[PhaseReport] = []
    # the level has no goal room: that phase ends without a plan, and the stages find one
    result = solve(level_of(LEVEL), STAGED, reports=heard.append)
    assert result.status.solved and result.found_by == "staged"
    assert [report.phase for report in heard] == ["goal-room", "staged"]
    assert heard == result.phases


def noting_then_sleeping(level: Level, config: SolveConfig, progress: Progress | None = None,
                         reports: Reports | None = None) -> None:
    """A stand-in for the driver whose phases end and whose horizon loop then never does."""
    assert reports is not None
    reports(PhaseReport("goal-room", "none that goal macros can fill"))
    reports(PhaseReport("staged", "staged search: no plan, at best 1 of 2 boxes on goals"))
    time.sleep(60)


def noting_forever(level: Level, config: SolveConfig, progress: Progress | None = None,
                   reports: Reports | None = None) -> None:
    assert reports is not None
    while True:
        reports(PhaseReport("staged", f"still at it, {time.perf_counter()}"))
        time.sleep(0.05)


def noting_then_solving(level: Level, config: SolveConfig, progress: Progress | None = None,
                        reports: Reports | None = None):
    assert reports is not None
    reports(PhaseReport("goal-room", "none that goal macros can fill"))
    time.sleep(0.3)
    return solve(level, SolveConfig(encoding="push"))


def test_a_run_killed_at_its_limit_keeps_its_phases_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sokoasp.worker, "solve", noting_then_sleeping)  # the forked child runs it
    began = time.perf_counter()
    result = solve_isolated(level_of(LEVEL), STAGED, time_limit=1.0)
    assert result.status is Status.TIMEOUT
    assert result.report("staged").note == "staged search: no plan, at best 1 of 2 boxes on goals"
    assert result.report("goal-room").note == "none that goal macros can fill"
    assert time.perf_counter() - began < 1.0 + GRACE_SECONDS + 2


def test_a_note_neither_ends_the_wait_nor_is_lost_from_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sokoasp.worker, "solve", noting_then_solving)
    level = level_of(LEVEL)
    result = solve_isolated(level, STAGED, time_limit=30.0)
    assert result.status.solved
    assert_replays(level, result.plan)
    assert result.report("goal-room").note == "none that goal macros can fill"


@pytest.mark.parametrize("run", ["isolated", "race"])
def test_notes_do_not_push_the_deadline_back(monkeypatch: pytest.MonkeyPatch, run: str) -> None:
    monkeypatch.setattr(sokoasp.worker, "solve", noting_forever)
    began = time.perf_counter()
    if run == "isolated":
        result = solve_isolated(level_of(LEVEL), STAGED, time_limit=1.0)
    else:
        result = race(level_of(LEVEL), (STAGED, STAGED), time_limit=1.0)
    assert result.status is Status.TIMEOUT and result.report("staged").note.startswith("still at it")
    assert time.perf_counter() - began < 1.0 + GRACE_SECONDS + 2


def test_a_timed_out_race_reports_the_member_with_phase_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sokoasp.worker, "solve", noting_then_sleeping)
    result = race(level_of(LEVEL), (STAGED, STAGED), time_limit=1.0)
    assert result.status is Status.TIMEOUT
    assert result.report("staged").note == "staged search: no plan, at best 1 of 2 boxes on goals"


def test_a_race_reports_its_own_time_whichever_member_it_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    def quick_or_sleeping(level: Level, config: SolveConfig, progress: Progress | None = None,
                          reports: Reports | None = None):
        if config.max_horizon == 1:  # the quick member: no plan up to horizon 1, at once
            return solve(level, config)
        time.sleep(60)

    monkeypatch.setattr(sokoasp.worker, "solve", quick_or_sleeping)
    members = (SolveConfig(encoding="push", max_horizon=1), SolveConfig(encoding="push"))
    result = race(level_of(LEVEL), members, time_limit=1.5, cores=2)
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON  # the quick member's outcome ...
    assert result.times["total"] >= 1.5  # ... in the time the race took


def test_a_short_limit_gets_a_short_grace() -> None:
    """--time-limit 2 answers within 2.5 s of a run that outlives it, 60 within 62."""
    from sokoasp.worker import grace

    assert grace(2.0) == 0.5 and grace(60.0) == GRACE_SECONDS == 2.0


def outside_limits(cpu_seconds: int, memory_mb: int) -> None:
    """What a batch system or ``ulimit -t``/``ulimit -v`` sets: hard limits a process cannot raise."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))


@pytest.mark.parametrize("limits", [["--time-limit", "60"], ["--memory-limit", "50000"],
                                    ["--time-limit", "60", "--memory-limit", "50000"]])
def test_limits_above_the_hard_limits_from_outside_are_clamped_not_a_crash(limits: list[str]) -> None:
    level = Path(__file__).parent.parent / "instances" / "microban_1-5.sok"
    done = subprocess.run([sys.executable, "-m", "sokoasp", "solve", "-e", "push", "-l", "1", *limits, str(level)],
                          capture_output=True,
                          text=True, timeout=120, preexec_fn=lambda: outside_limits(50, 8000))
    assert done.returncode == 0 and "status:     solved" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_worker_stopped_by_its_cpu_limit_is_a_timeout_not_memory_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def spinning(*args: object, **kwargs: object) -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (1, 3))
        while True:
            pass

    monkeypatch.setattr(sokoasp.worker, "solve", spinning)
    result = solve_isolated(level_of(LEVEL), SolveConfig(), 30, 2000)
    assert result.status == Status.TIMEOUT and "CPU-time" in result.message


def test_what_native_code_writes_in_a_worker_does_not_reach_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                                        capfd: pytest.CaptureFixture[str]) -> None:
    def aborting(*args: object, **kwargs: object) -> None:
        os.write(2, b"terminate called after throwing an instance of 'std::bad_alloc'\n")
        raise MemoryError

    monkeypatch.setattr(sokoasp.worker, "solve", aborting)
    result = solve_isolated(level_of(LEVEL), SolveConfig(), 30, 2000)
    assert result.status == Status.MEMORY_OUT and "2000 MB" in result.message
    assert "bad_alloc" not in capfd.readouterr().err
