"""sokoasp: Sokoban planning with answer set programming on clingo."""

from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.board.simulator import replay
from sokoasp.pipeline import SolveConfig, solve
from sokoasp.result import Result, Status

__all__ = ["Level", "Result", "SolveConfig", "Status", "load_level", "replay", "solve"]
