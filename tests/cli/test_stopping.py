"""Every way a run can end leaves no solver process behind: the parent killed outright (SIGKILL),
stopped (SIGTERM, as timeout, Slurm, systemd and docker send) or interrupted (Ctrl-C). Each test
starts a real `sokoasp solve` on a level that takes the thesis's encoding many seconds, waits for
its solver child, stops the parent, and checks the process table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLOW = ["solve", "-e", "incremental", "--time-limit", "120", str(ROOT / "instances" / "thesis_example.lp")]


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``, from /proc."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found |= {int(child) for child in task.read_text().split()}
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def as_a_background_run() -> None:
    """The stopped runs take the lowest priority, yielding the cores to the tests beside them (some
    measure time). Ctrl-C is restored to its default: a test run started in the background inherits
    it ignored."""
    os.nice(19)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_with_a_solver(args: list[str] = SLOW) -> tuple[subprocess.Popen[str], set[int]]:
    process = subprocess.Popen([sys.executable, "-m", "sokoasp", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=as_a_background_run)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not children(process.pid):
        time.sleep(0.05)
    workers = children(process.pid)
    assert workers, "the solver child never started"
    time.sleep(0.5)  # the child is grounding or solving now
    return process, workers


def gone_within(pids: set[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process table in /proc")


def test_a_killed_parent_takes_its_solver_with_it() -> None:
    process, workers = start_with_a_solver()
    process.kill()
    process.wait(10)
    assert gone_within(workers, 5)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGINT, 130)])
def test_a_stopped_parent_stops_its_solver_and_says_so_without_a_traceback(signum: int, code: int) -> None:
    process, workers = start_with_a_solver()
    os.kill(process.pid, signum)
    _, err = process.communicate(timeout=20)
    assert process.returncode == code, err
    assert "the solvers are stopped" in err and "Traceback" not in err
    assert gone_within(workers, 5)


def test_ctrl_c_to_the_whole_group_prints_no_worker_traceback() -> None:
    process, workers = start_with_a_solver()
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    _, err = process.communicate(timeout=20)
    assert process.returncode == 130 and "Traceback" not in err, err
    assert gone_within(workers, 5)


XSOKOBAN = ROOT.parent / "shared" / "levels" / "xsokoban_90.sok"
IN_PYTHON = {  # runs whose solvers are in a Python search when the signal comes
    "race": ["race", "--time-limit", "120", "-l", "24", str(XSOKOBAN)],
    "solve with a box search": ["solve", "-e", "push-macro", "-p", "box-search", "--time-limit", "120", "-l", "24",
                                str(XSOKOBAN)],
}


@pytest.mark.skipif(not XSOKOBAN.exists(), reason="needs ../shared/levels")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("run", sorted(IN_PYTHON))
def test_a_supervisors_stop_to_the_whole_group_is_said_in_one_line(run: str, signum: int) -> None:
    """systemd, Slurm and ``kill -- -PGID`` signal every process of the group: the workers end
    quietly and the parent says it in one line."""
    process, workers = start_with_a_solver(IN_PYTHON[run])
    time.sleep(1.0)  # the workers are in their Python searches now
    os.killpg(process.pid, signum)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 128 + signum, err
    assert err.strip().splitlines() == [f"stopped by signal {signum}: the solvers are stopped; finished results are kept"], err
    assert gone_within(workers, 5)
