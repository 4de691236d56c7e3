"""A phase owns its settings: a new phase with settings is one module plus one registry line,
and its settings are set by one spelling from the command line, a grid file and a member table.
This test module is that phase's module (``WORK``, ``Settings``, ``run``); ``echo_phase`` adds
its registry line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from corpus import HAND_MADE
from test_cli import run as run_cli
from test_cli import write
from test_grid import rows_of

from sokoasp.board.level import Level
from sokoasp.config import PhaseRun, PhaseSettings
from sokoasp.errors import InputError
from sokoasp.phases import PHASES, Phase, PhaseContext, PhaseOutcome, parse_phase
from sokoasp.portfolio.members import member_config
from sokoasp.result import PhaseReport
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import read_spec


@dataclass(frozen=True)
class EchoSettings(PhaseSettings):
    word: str = "none"  # what it says
    times: int = 1  # how often
    loud: bool = False  # in capitals


def echo(level: Level, context: PhaseContext) -> PhaseOutcome:
    """Finds no plan; its report says the settings it was given."""
    settings = context.settings
    assert isinstance(settings, EchoSettings)
    said = " ".join([settings.word.upper() if settings.loud else settings.word] * settings.times)
    return PhaseOutcome(None, PhaseReport("echo", f"echo: {said}"))


WORK, Settings, run = 10_000, EchoSettings, echo  # what the registry reads from a phase's module


@pytest.fixture
def echo_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PHASES, "echo", Phase("echo", "python", False, "says its settings", __name__))


def test_a_phase_setting_is_set_from_the_command_line(tmp_path: Path, echo_phase: None) -> None:
    level = write(tmp_path, "l.sok", HAND_MADE["turn-corner"])
    code, out = run_cli("solve", "-e", "push", "--phase", "echo=20k:word=hi,times=3,loud=on", "--json", str(level))
    assert code == 0, out
    result = json.loads(out)
    assert result["config"]["phases"] == ["echo=20k:word=hi,times=3,loud=on"]
    assert [report["note"] for report in result["phases"]] == ["echo: HI HI HI"]
    code, out = run_cli("solve", "-e", "push", "--phase", "echo=20k:times=many", str(level))
    assert code == 2 and "phase 'echo', setting 'times' must be a whole number" in out
    code, out = run_cli("solve", "-e", "push", "--phase", "echo:colour=red", str(level))
    assert code == 2 and "phase 'echo' has no setting 'colour' (its settings: word, times, loud)" in out


def test_a_phase_setting_is_set_from_a_grid_file(tmp_path: Path, echo_phase: None) -> None:
    write(tmp_path, "l.sok", HAND_MADE["turn-corner"])
    grid = write(tmp_path, "g.toml", 'encodings = ["push"]\ntime_limit = 30\n'
                 'phases = [["echo:word=hi"], [{ name = "echo", work = "20k", word = "yo", loud = true }]]\n'
                 '[[instances]]\npath = "l.sok"\n')
    spec = read_spec(grid)
    runs, _ = spec.runs()
    assert [run.configuration for run in runs] == ["push [echo 10k (word=hi)]", "push [echo 20k (word=yo, loud=on)]"]
    database = tmp_path / "r.sqlite"
    assert run_grid(spec, database, show_progress=False, note=lambda _: None).solved == 2
    recorded = sorted(phase for row in rows_of(database) for phase in json.loads(row["config"])["phases"])
    assert recorded == ["echo=10k:word=hi", "echo=20k:word=yo,loud=on"]


def test_a_phase_setting_is_set_from_a_member_table(echo_phase: None) -> None:
    for given in ("echo=20k:times=2", {"name": "echo", "work": "20k", "times": 2}):
        (run_,) = member_config({"encoding": "push", "phases": [given]}).phases
        assert PHASES["echo"].settings_of(run_) == EchoSettings(times=2) and run_.work == 20_000
    with pytest.raises(InputError, match="setting 'loud' must be on or off"):
        member_config({"encoding": "push", "phases": [{"name": "echo", "loud": "loudly"}]})


@pytest.mark.parametrize("text", ["echo=10k", "echo=20k:word=hi", "echo=5k:word=a,times=2,loud=on",
                                  "staged=250k:families=push-macro+pull-route,end-game=off", "box-search=100k:states=5000"])
def test_a_phase_is_spelled_as_it_is_read(text: str, echo_phase: None) -> None:
    assert str(parse_phase(text)) == text
    assert parse_phase(text) == parse_phase(str(parse_phase(text)))


def test_the_defaults_spell_as_the_phase_alone(echo_phase: None) -> None:
    """A run with the default settings spells as before settings existed: grid keys stay."""
    assert str(parse_phase("echo=30k:word=none,loud=off")) == "echo=30k"
    assert parse_phase("staged=50k") == PhaseRun("staged", 50_000)
