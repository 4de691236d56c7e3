"""sokoasp: Sokoban planning with answer set programming on clingo. The names below are the
public API (docs/api.md); everything else may change between versions. Each is imported when
first used, so a command that needs few of them starts quickly."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sokoasp.asp.encodings import ENCODINGS
    from sokoasp.asp.strategies import STRATEGIES
    from sokoasp.board.level import Level
    from sokoasp.board.loading import load_level
    from sokoasp.board.simulator import replay
    from sokoasp.config import PhaseRun, SolveConfig
    from sokoasp.optimizer import Optimized, optimize
    from sokoasp.phases import PHASES
    from sokoasp.phases.base import Phase, PhaseContext, PhaseOutcome
    from sokoasp.pipeline import solve
    from sokoasp.portfolio.race import race
    from sokoasp.result import PhaseReport, Result, Status

__version__ = "0.1.0"  # the one place it is written: pyproject.toml reads it

# each public name and the module that holds it
PUBLIC = {"ENCODINGS": "sokoasp.asp.encodings", "STRATEGIES": "sokoasp.asp.strategies", "Level": "sokoasp.board.level",
          "load_level": "sokoasp.board.loading", "replay": "sokoasp.board.simulator", "PhaseRun": "sokoasp.config",
          "SolveConfig": "sokoasp.config",
          "optimize": "sokoasp.optimizer", "Optimized": "sokoasp.optimizer", "PHASES": "sokoasp.phases",
          "Phase": "sokoasp.phases.base", "PhaseContext": "sokoasp.phases.base", "PhaseOutcome": "sokoasp.phases.base",
          "solve": "sokoasp.pipeline",
          "race": "sokoasp.portfolio.race", "PhaseReport": "sokoasp.result", "Result": "sokoasp.result",
          "Status": "sokoasp.result"}

__all__ = ["ENCODINGS", "PHASES", "STRATEGIES", "Level", "Optimized", "Phase", "PhaseContext", "PhaseOutcome",
           "PhaseReport", "PhaseRun", "Result", "SolveConfig",
           "Status", "load_level", "optimize", "race", "replay", "solve"]


def __getattr__(name: str) -> Any:
    if name not in PUBLIC:
        raise AttributeError(f"module 'sokoasp' has no attribute {name!r}")
    value = getattr(importlib.import_module(PUBLIC[name]), name)
    globals()[name] = value
    return value
