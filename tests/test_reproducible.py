"""Reproducible outcomes: phase budgets count work (``sokoasp.config.Meter``), so the same level
and configuration give the same status and the same plan on every run the time limit does not
cut. Each run is a process of its own with another hash seed, so neither the seed nor the
machine's speed at that moment may change a plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

LEVELS = Path(__file__).resolve().parents[2] / "shared" / "levels"
MICROBAN, XSOKOBAN = LEVELS / "microban_i.sok", LEVELS / "xsokoban_90.sok"
needs_shared = pytest.mark.skipif(not XSOKOBAN.exists(), reason="needs ../shared/levels")

STAGES = ["-e", "push-route", "-s", "dead", "-s", "freeze", "-s", "bound", "-p", "staged:families=push-macro+pull-route"]
CASES = {
    "a phase (box search)": ([*"-e push-macro -s dead -s freeze -s bound -p box-search".split(), "-l", "109", str(MICROBAN)], 60),
    "stages both ways": ([*STAGES, "-l", "3", str(XSOKOBAN)], 60),
    "the time limit": ([*STAGES, "-l", "4", str(XSOKOBAN)], 3),
}


def solve_in_a_process(args: list[str], time_limit: int, seed: int) -> dict[str, object]:
    environment = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run([sys.executable, "-m", "sokoasp", "solve", "--json", "--time-limit", str(time_limit), *args],
                          capture_output=True, text=True, env=environment, timeout=time_limit + 60)
    result = json.loads(done.stdout)
    assert isinstance(result, dict), done.stderr
    return result


@needs_shared
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_same_run_gives_the_same_outcome_and_plan_every_time(case: str) -> None:
    args, time_limit = CASES[case]
    runs = [solve_in_a_process(args, time_limit, seed) for seed in (0, 1, 2)]
    outcomes = {(run["status"], run["plan"]) for run in runs}
    assert len(outcomes) == 1, outcomes
    ((status, plan),) = outcomes
    if case == "the time limit":
        assert status == "timeout" and plan is None
    else:
        assert isinstance(plan, str) and plan and str(status).startswith("solved")
        assert len({run["stats"]["work"] for run in runs}) == 1  # the same work, to the unit
