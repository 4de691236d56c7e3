"""sokoasp: Sokoban planning with answer set programming on clingo."""

from .driver import SolveConfig, solve
from .level import Level
from .loading import load_level
from .result import Result, Status
from .simulator import replay

__all__ = ["Level", "Result", "SolveConfig", "Status", "load_level", "replay", "solve"]
