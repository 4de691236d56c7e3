"""Staged solving: a chain of short clingo searches in the push families, each putting one more
box on a goal, with backtracking and an end game in Python (``sokoasp.phases.staged.search``). ASP; may
lose solutions (a goal agenda is incomplete), never optimal. When it ends without a plan it
reports the farthest state it reached and, backwards, the state nearest the start."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sokoasp.asp.encodings import get_encoding
from sokoasp.asp.strategies import check_supported
from sokoasp.board.level import Level
from sokoasp.config import PhaseSettings, SolveConfig
from sokoasp.phases.base import PhaseContext, PhaseOutcome, settings_as
from sokoasp.phases.staged.search import check_stage_families, check_stage_strategies, loop_strategies, solve_staged
from sokoasp.result import PhaseReport

NAME = "staged"
WORK = 300_000  # about 25 s of stages and end games: the end game searches 10,000 to 20,000 states a second on small levels


@dataclass(frozen=True)
class Settings(PhaseSettings):
    families: tuple[str, ...] = ()  # the stages' push families, taking turns pass by pass (none: the encoding's own)
    end_game: bool = True  # the last few boxes by a search in Python (sokoasp.sokoban.end_game)

    def __post_init__(self) -> None:
        check_stage_families(self.families)  # push families alone (raises InputError)


def families_of(config: SolveConfig, settings: Settings) -> tuple[str, ...]:
    """The push families the stages run in: the settings', or the encoding's own."""
    return settings.families or (config.encoding,)


def settings_in(config: SolveConfig) -> Settings | None:
    """The settings of the staged phase of ``config`` (None: it has none)."""
    run = config.phase(NAME)
    return None if run is None else settings_as(Settings, run)


def stage_families(config: SolveConfig) -> tuple[str, ...]:
    """The push families of the stages of ``config`` (none without the staged phase)."""
    settings = settings_in(config)
    return () if settings is None else families_of(config, settings)


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    settings = context.settings
    assert isinstance(settings, Settings)
    outcome = solve_staged(level, context.config, families_of(context.config, settings), settings.end_game, context.clock,
                           context.progress)
    note = outcome.describe(len(level.boxes))
    if outcome.plan is None:
        context.progress(note)
    return PhaseOutcome(outcome.plan, PhaseReport(NAME, note, outcome.farthest or "", outcome.home_board(level)))


def check(config: SolveConfig, settings: PhaseSettings) -> None:
    """Every stage family is a push family, and every strategy serves the stages or the loop."""
    assert isinstance(settings, Settings)
    families = families_of(config, settings)
    check_stage_families(families)
    if families == (config.encoding,):
        check_supported(config.strategies, config.encoding)
    check_stage_strategies(config, families)


def loop_config(config: SolveConfig, settings: PhaseSettings) -> SolveConfig:
    """The horizon loop after the stages keeps the strategies its own family supports."""
    return replace(config, strategies=loop_strategies(config))


def forwards_only(config: SolveConfig, settings: Settings) -> Settings:
    """The settings for a level that is solved forwards only (a goal room's macros): the forward
    families alone, or all of them if none is forward."""
    forward = tuple(family for family in families_of(config, settings) if not get_encoding(family).reverse)
    return replace(settings, families=forward) if settings.families and forward else settings
