"""Fast Downward (PyPI ``up-fast-downward``) as a reference planner: the level goes out as
PDDL, the plan comes back as LURD and is replayed like every other plan. A* with LM-cut
(admissible) gives move-optimal plans; an exhausted search proves the level unsolvable."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sokoasp.board.level import Level
from sokoasp.board.pddl import DOMAIN, plan_from_pddl, problem
from sokoasp.board.simulator import count_pushes
from sokoasp.errors import InputError
from sokoasp.result import Result, Status

SEARCH = "astar(lmcut())"
UNSOLVABLE_EXIT_CODES = {11, 12}  # Fast Downward: unsolvable (complete search / incomplete at translate)
TIMEOUT_EXIT_CODES = {23}
MEMORY_EXIT_CODES = {22}


def downward_script() -> Path:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        raise InputError("the fast-downward encoding needs Fast Downward: pip install 'sokoasp[classical]'")
    return Path(spec.submodule_search_locations[0]) / "downward" / "fast-downward.py"


def solve_fast_downward(level: Level, time_limit: float | None, memory_mb: int | None = None) -> Result:
    began = time.perf_counter()
    script = downward_script()
    with tempfile.TemporaryDirectory(prefix="sokoasp-fd-") as folder:
        work = Path(folder)
        (work / "domain.pddl").write_text(DOMAIN)
        (work / "problem.pddl").write_text(problem(level, level.title or "level"))
        command = [sys.executable, str(script)]
        if time_limit is not None:
            command += ["--overall-time-limit", f"{max(1, int(time_limit))}s"]
        if memory_mb is not None:
            command += ["--overall-memory-limit", f"{memory_mb}M"]
        command += ["domain.pddl", "problem.pddl", "--search", SEARCH]
        finished = subprocess.run(command, cwd=work, capture_output=True, text=True)
        plan_file = work / "sas_plan"
        plan = plan_from_pddl(plan_file.read_text()) if plan_file.exists() else None
    total = round(time.perf_counter() - began, 4)
    result = Result(Status.ERROR, times={"ground": 0.0, "solve": total, "total": total},
                    config={"encoding": "fast-downward", "search": SEARCH})
    if plan is not None:
        result.status, result.optimal_for = Status.SOLVED_OPTIMAL, "moves"
        result.plan, result.moves, result.pushes, result.horizon = plan, len(plan), count_pushes(plan), len(plan)
    elif finished.returncode in UNSOLVABLE_EXIT_CODES:
        result.status, result.message = Status.UNSOLVABLE, "Fast Downward's complete search found no plan"
    elif finished.returncode in TIMEOUT_EXIT_CODES:
        result.status, result.message = Status.TIMEOUT, f"Fast Downward stopped at {time_limit} s"
    elif finished.returncode in MEMORY_EXIT_CODES:
        result.status, result.message = Status.MEMORY_OUT, f"Fast Downward stopped at {memory_mb} MB"
    else:
        result.message = f"Fast Downward exited with {finished.returncode}: {finished.stderr.strip()[-200:]}"
    return result
