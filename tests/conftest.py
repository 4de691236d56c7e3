import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402


@pytest.fixture
def no_end_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stages without their end game (sokoasp/endgame.py), for tests of how the stages
    themselves fail, restart and report: on the tiny levels of the tests the end game would
    finish the plan first. Forked portfolio members inherit it."""
    from sokoasp.asp import staged

    monkeypatch.setattr(staged, "finish", lambda *args, **kwargs: None)
