"""sokoasp: Sokoban planning with answer set programming on clingo. The names below are the
public API (docs/api.md); everything else may change between versions."""

from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.board.simulator import replay
from sokoasp.config import PhaseRun, SolveConfig
from sokoasp.phases import PHASES
from sokoasp.pipeline import solve
from sokoasp.portfolio.race import race
from sokoasp.result import PhaseReport, Result, Status

__all__ = ["ENCODINGS", "PHASES", "STRATEGIES", "Level", "PhaseReport", "PhaseRun", "Result", "SolveConfig", "Status",
           "load_level", "race", "replay", "solve"]
