"""The audit: each shipped strategy classified as its registry says, the strategies that claim to
lose solutions shown losing on a found counterexample, a planted bug caught, the same verdict
for the same seed, and the command's output and exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oracle import bfs_moves, bfs_pushes

from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.strategies import STRATEGIES, Soundness
from sokoasp.board.xsb import read_levels, write_level
from sokoasp.tools.audit import Audit, AuditSettings, Finding, Kind, Verdict, audit, judge, level_stream

SOKOASP = str(Path(sys.executable).parent / "sokoasp")
QUICK = AuditSettings(levels=40, larger=5)  # the default run's share; the full stream is a slow test
NO_LEFT = "%! strategy: no-left\n%! summary: s\n%! families: push\n%! soundness: keeps-optimal\n#program step(t).\n:- push(X,Y,-1,0,t).\n"
KEEPING = sorted(name for name, s in STRATEGIES.items() if s.soundness is Soundness.KEEPS_OPTIMAL)


def check_finding(report: Audit) -> None:
    """A finding's optimum is the breadth-first one, and the member indeed fell short of it."""
    found = report.finding
    assert found is not None
    text = write_level(found.level)
    assert found.optimum == (bfs_moves(text) if report.unit == "moves" else bfs_pushes(text))
    assert found.found is None or found.found >= found.optimum


@pytest.mark.parametrize("name", KEEPING)
def test_a_strategy_that_keeps_optimal_plans_is_consistent_with_its_claim(name: str) -> None:
    report = audit(name, settings=QUICK)
    assert report.verdict is Verdict.CONSISTENT and report.kept >= 30, (report.summary, report.finding)


@pytest.mark.parametrize("name,kind", [("ff", Kind.UNSOLVABLE), ("pack", Kind.UNSOLVABLE), ("relevance", Kind.HORIZON)])
def test_a_strategy_that_may_lose_is_shown_losing_within_the_default_budget(name: str, kind: Kind) -> None:
    report = audit(name)
    assert report.finding is not None and report.finding.kind is kind, report.summary
    assert report.verdict is Verdict.AS_CLAIMED and not report.contradicted
    check_finding(report)


def test_a_planted_bug_contradicts_its_claim(tmp_path: Path) -> None:
    (tmp_path / "no-left").mkdir()
    (tmp_path / "no-left" / "push.lp").write_text(NO_LEFT)
    report = audit(f"{tmp_path}/no-left/")
    assert report.contradicted and report.finding is not None
    check_finding(report)


def test_the_same_seed_gives_the_same_levels_and_verdict() -> None:
    first = [write_level(level) for level, _ in level_stream(5, 20, 5)]
    assert first == [write_level(level) for level, _ in level_stream(5, 20, 5)]
    assert first != [write_level(level) for level, _ in level_stream(6, 20, 5)]
    assert audit("ff", settings=AuditSettings(seed=5)) == audit("ff", settings=AuditSettings(seed=5))


SPLIT = ("split", "split-incremental")  # x and y in separate atoms: minutes for the stream


@pytest.mark.parametrize("name", [pytest.param(name, marks=[pytest.mark.slow] if name in SPLIT else [])
                                  for name, encoding in ENCODINGS.items() if not encoding.planner])
def test_every_shipped_family_passes_its_own_audit(name: str) -> None:
    report = audit(name, settings=QUICK)
    assert report.unit == ("moves" if ENCODINGS[name].unit == "move" else "pushes")
    assert report.claim == ("finds a shortest plan" if ENCODINGS[name].proves_optimum else "finds a plan when one exists")
    assert report.verdict is Verdict.CONSISTENT and report.kept >= 30, report.summary


def test_the_command_writes_the_counterexample_and_exits_1_on_a_contradiction(tmp_path: Path) -> None:
    (tmp_path / "no-left").mkdir()
    (tmp_path / "no-left" / "push.lp").write_text(NO_LEFT)
    done = subprocess.run([SOKOASP, "audit", "./no-left/", "--json", "--out", "found"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["contradicted"] and report["verdict"] == "contradicted"
    written = tmp_path / "found" / "audit-no-left-push.sok"
    assert written.read_text() == report["finding"]["level"]
    ff = subprocess.run([SOKOASP, "audit", "ff"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert ff.returncode == 0 and "verdict:    as claimed: it may lose solutions" in ff.stdout
    assert (tmp_path / "audit-ff-incremental.sok").is_file()


@pytest.mark.parametrize("args,problem", [
    (["nope"], "'nope' is neither a strategy nor an encoding family"),
    (["push", "--family", "push"], "is an encoding family: --family is for strategies"),
    (["ff", "--family", "push"], "does not serve family 'push'"),
    (["fast-downward"], "runs an external planner"),
])
def test_bad_audits_are_one_line_errors(tmp_path: Path, args: list[str], problem: str) -> None:
    done = subprocess.run([SOKOASP, "audit", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode in (2, 7) and problem in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name,family", [(name, family) for name in KEEPING for family in STRATEGIES[name].encodings
                                         if family not in ("split", "plain")])
def test_every_family_of_a_keeping_strategy_is_consistent_on_the_default_stream(name: str, family: str) -> None:
    assert not audit(name, family).contradicted


def test_a_claim_to_keep_solvability_allows_a_lost_optimum_but_not_a_lost_plan() -> None:
    level = read_levels("#####\n#@$.#\n#####\n", "x")[0]
    for kind, contradicted in ((Kind.OPTIMUM_LOST, False), (Kind.HORIZON, False), (Kind.UNSOLVABLE, True), (Kind.REPLAY, True)):
        report = Audit("mine", "push", "pushes", Soundness.KEEPS_SOLVABLE.value, kept=3, finding=Finding(kind, level, 4, 2, 3))
        report.verdict, report.summary = judge(report)
        assert report.contradicted is contradicted, (kind, report.summary)



def test_an_interrupted_audit_prints_what_it_saw_and_exits_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from test_cli import run

    from sokoasp.tools import audit as auditing

    checked = auditing.check_level
    calls: list[int] = []

    def stopped_at_the_sixth(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 6:
            raise KeyboardInterrupt  # Ctrl-C in the sixth level's solve
        return checked(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(auditing, "check_level", stopped_at_the_sixth)
    monkeypatch.chdir(tmp_path)
    code, out = run("audit", "clutter", "--json")
    report, _ = json.JSONDecoder().raw_decode(out)  # stdout first, then the progress on stderr
    assert code == 130 and report["interrupted"] and report["kept"] + report["skipped"] >= 5
    assert "then interrupted" in report["summary"] and report["verdict"] == "consistent"


def test_a_strategy_folder_with_a_bad_header_is_audited_as_the_folder_it_is(tmp_path: Path) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "incremental.lp").write_text(":- a.\n")
    done = subprocess.run([SOKOASP, "audit", "./bad/"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 7 and "incremental.lp: the file has no header" in done.stderr
