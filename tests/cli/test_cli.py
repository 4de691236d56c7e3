"""The command line, through click's runner: outputs, exit codes and clear errors."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus import HAND_MADE
from oracle import bfs_moves

from sokoasp.cli import cli, main
from sokoasp.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str]:
    """Run through ``main``, the single place where errors become exit codes."""
    with CliRunner().isolation() as streams:
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, streams[0].getvalue().decode() + streams[1].getvalue().decode()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_solve_prints_a_validated_plan(tmp_path: Path) -> None:
    text = HAND_MADE["turn-corner"]
    code, out = run("solve", str(write(tmp_path, "l.sok", text)))
    assert code == ExitCode.SOLVED
    assert "solved (optimal)" in out and f"moves:      {bfs_moves(text)}" in out


def test_solve_json(tmp_path: Path) -> None:
    code, out = run("solve", "--json", "-e", "plain", "--horizon", "3", str(write(tmp_path, "l.sok", HAND_MADE["corridor"])))
    data = json.loads(out)
    assert code == 0 and data["moves"] == 3 and data["pushes"] == 2 and data["config"]["encoding"] == "plain"
    assert set(data["times"]) == {"ground", "solve", "total"}


@pytest.mark.parametrize(
    "args,code",
    [
        (["-e", "plain", "--horizon", "1"], ExitCode.NO_PLAN_UP_TO_HORIZON),
        (["--max-horizon", "2"], ExitCode.NO_PLAN_UP_TO_HORIZON),
        (["-e", "plain"], ExitCode.INPUT_ERROR),
        (["-s", "nosuch"], ExitCode.USAGE),
    ],
)
def test_exit_codes(tmp_path: Path, args: list[str], code: int) -> None:
    got, out = run("solve", *args, str(write(tmp_path, "l.sok", HAND_MADE["corridor"])))
    assert got == code, out


def test_unsolvable_exit_code(tmp_path: Path) -> None:
    code, out = run("solve", str(write(tmp_path, "l.sok", "#####\n#$ .#\n# @ #\n#####\n")))
    assert code == ExitCode.UNSOLVABLE and "proven unsolvable" in out


def test_missing_horizon_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "l.sok", HAND_MADE["corridor"])
    code, out = run("solve", "-e", "plain", str(path))
    assert code == ExitCode.INPUT_ERROR and str(path) in out and "needs a horizon" in out


def test_script_in_level_file_is_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"init(field(1..3,1)).\n#script (python)\nopen({str(marker)!r}, 'w')\n#end.\n"
    code, out = run("solve", str(write(tmp_path, "evil.lp", text)))
    assert code == ExitCode.INPUT_ERROR and "#script" in out and "Traceback" not in out
    assert not marker.exists()


def test_time_limit_is_a_timeout_not_a_failure() -> None:
    code, out = run("solve", "--time-limit", "0.5", "-s", "ntb", str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.TIMEOUT and "timeout" in out


def test_memory_limit_is_reported_as_memory_out() -> None:
    code, out = run("solve", "--memory-limit", "60", "-e", "split", "--horizon", "40",
                    str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.MEMORY_OUT, out


def test_convert_both_ways(tmp_path: Path) -> None:
    source = write(tmp_path, "a.sok", HAND_MADE["two-boxes"])
    facts, back = tmp_path / "a.lp", tmp_path / "b.sok"
    assert run("convert", str(source), str(facts), "--horizon", "11")[0] == 0
    assert "#const horizon = 11." in facts.read_text()
    assert run("convert", str(facts), str(back))[0] == 0
    assert back.read_text() == HAND_MADE["two-boxes"]


def test_lists_and_help() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["strategies"]).output
    assert "Clutter" in out and "may lose solutions" in out and "reconstruction" in out
    assert "incremental" in runner.invoke(cli, ["encodings"]).output
    assert "Exit codes" in runner.invoke(cli, ["solve", "--help"]).output


def test_the_cli_starts_without_matplotlib() -> None:
    """Solving needs no plotting: matplotlib (a third of a second) is imported only to draw."""
    probe = "import sys, sokoasp.cli; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("target", ["folder", "missing/level.sok"])
def test_an_output_path_that_cannot_be_written_is_an_input_error(target: str, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    code, out = run("convert", str(ROOT / "instances" / "thesis_example.lp"), str(tmp_path / target))
    assert code == ExitCode.INPUT_ERROR and str(tmp_path / target) in out
    assert "internal error" not in out and "Traceback" not in out


@pytest.mark.parametrize("command", [["solve"], ["race"], ["grid", "run", "-i"], ["show", "--solve", "push"]])
@pytest.mark.parametrize("limit", [["--time-limit", "nan"], ["--time-limit", "inf"], ["--time-limit", "1e308"], ["--time-limit", "3e6"],
                                   ["--time-limit", "0"], ["--memory-limit", "1000000000000000"]])
def test_limits_that_are_no_limits_are_refused_before_any_work(command: list[str], limit: list[str]) -> None:
    if command[0] == "show" and limit[0] == "--memory-limit":
        pytest.skip("show has no memory limit")
    code, out = run(*command, str(ROOT / "instances" / "thesis_example.lp"), *limit)
    assert code == ExitCode.USAGE and limit[0] in out and "Traceback" not in out


@pytest.mark.parametrize("limit", [[], ["--time-limit", "20"]])
def test_a_clingo_option_that_reads_a_file_is_refused_without_quoting_it(tmp_path: Path, limit: list[str]) -> None:
    secret = write(tmp_path, "secret.txt", "TOP-SECRET-LINE\n")
    code, out = run("solve", *limit, f"--clingo-arg=--configuration={secret}", str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.INPUT_ERROR and out.startswith("error: --clingo-arg: --configuration takes one of clasp's")
    assert "TOP-SECRET" not in out


@pytest.mark.parametrize("option", ["--configurat", "--config", "--lemma-in", "--lemma-out", "--outf", "--pre", "--text"])
@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_clingo_option_that_names_a_file_is_refused_before_clingo_opens_it(tmp_path: Path, option: str,
                                                                             target: str) -> None:
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
        target = str(tmp_path / "fifo")
    code, out = run("solve", f"--clingo-arg={option}={target}", str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.INPUT_ERROR and "full name" in out, out


@pytest.mark.parametrize("args", [["/dev/zero"], ["@/dev/zero"], ["-c"], ["--seed=1", "x.lp"]])
def test_a_clingo_argument_that_is_no_option_is_refused(args: list[str]) -> None:
    code, out = run("solve", *[f"--clingo-arg={a}" for a in args], str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.INPUT_ERROR and out.startswith("error: --clingo-arg: "), out


@pytest.mark.parametrize(("args", "problem"), [(["--clingo-arg=--stats"], "sets --stats itself"),
                                               (["--clingo-arg=--stats=2"], "sets --stats itself"),
                                               (["-e", "plain", "--horizon", "23", "--clingo-arg=-c", "--clingo-arg=horizon=5"],
                                                "the horizon is sokoasp's to set"),
                                               (["-e", "plain", "--horizon", "23", "--clingo-arg=--const=horizon=5"],
                                                "the horizon is sokoasp's to set")])
def test_clingo_options_that_sokoasp_sets_itself_are_input_errors(args: list[str], problem: str) -> None:
    code, out = run("solve", *args, str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.INPUT_ERROR and problem in out and "internal error" not in out


def test_a_status_and_a_message_that_repeats_it_are_said_once() -> None:
    code, out = run("solve", "-e", "push", "--max-horizon", "2", "-l", "3", str(ROOT / "instances" / "microban_1-5.sok"))
    (status,) = [line for line in out.splitlines() if line.startswith("status:")]
    assert code == ExitCode.NO_PLAN_UP_TO_HORIZON and status.count("no plan up to horizon") == 1, status


def test_show_solve_with_a_fixed_horizon_encoding_says_what_it_needs_and_names_the_file() -> None:
    level = str(ROOT / "instances" / "microban_1-5.sok")
    code, out = run("show", "--solve", "plain", "-l", "1", level)
    assert code == ExitCode.INPUT_ERROR and level in out and "#const horizon" in out and "--horizon" not in out


@pytest.mark.parametrize("command", [["show", "-o", "{out}.png"], ["show", "-o", "{out}.html"], ["convert", "{out}.sok"]])
def test_an_output_that_is_a_pipe_is_refused_instead_of_blocking(tmp_path: Path, command: list[str]) -> None:
    out = tmp_path / "out"
    target = Path(command[-1].format(out=out))
    os.mkfifo(target)
    level = str(ROOT / "instances" / "thesis_example.lp")
    args = [command[0], level, str(target)] if command[0] == "convert" else [command[0], level, "-o", str(target)]
    code, said = run(*args)
    assert code == ExitCode.INPUT_ERROR and "not a regular file" in said and str(target) in said


def test_a_full_disk_is_an_error_of_one_line_with_exit_code_7(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as a write fails: no file name

    monkeypatch.setattr(Path, "write_text", full)
    code, said = run("convert", str(ROOT / "instances" / "thesis_example.lp"), str(tmp_path / "x.sok"))
    assert code == ExitCode.INPUT_ERROR and said == f"error: {os.strerror(errno.ENOSPC)}\n"


def test_an_error_of_an_option_names_no_made_up_file() -> None:
    code, said = run("show", "--plan", "R", "--solve", "push", str(ROOT / "instances" / "thesis_example.lp"))
    assert code == ExitCode.INPUT_ERROR and said == "error: give one of --plan, --solve and --record\n"
