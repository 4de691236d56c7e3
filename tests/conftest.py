import sys
from pathlib import Path

# Test modules mirror the package in folders and share helpers by module name (helpers, corpus,
# oracle, and a few test modules' fixtures): every folder of tests/ is importable.
TESTS = Path(__file__).parent
sys.path[:0] = [str(TESTS), *(str(folder) for folder in sorted(TESTS.iterdir()) if folder.is_dir() and folder.name[0] != "_")]

import pytest  # noqa: E402


@pytest.fixture
def no_end_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stages without their end game (sokoasp/sokoban/end_game.py), for tests of how the stages
    themselves fail, restart and report: on the tiny levels of the tests the end game would
    finish the plan first. Forked portfolio members inherit it."""
    from sokoasp.phases.staged import search as staged
    from sokoasp.sokoban.end_game import Finish

    monkeypatch.setattr(staged, "finish", lambda *args, **kwargs: Finish(None, 0))
