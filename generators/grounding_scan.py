"""Time the grounding of every encoding family with each strategy it supports, alone, on one
level: the base program and the first STEPS steps, no solving. A rule that gringo grounds
badly shows as one slow pair (freeze's both_dead/4 took 17.5 s on Microban II 133 before it
was rewritten; BENCHMARKS.md, "Levels never tuned on"):

    python generators/grounding_scan.py downloads/levels/microban_ii.sok -l 133
    python generators/grounding_scan.py ../shared/levels/xsokoban_90.sok -l 90 -e push-macro -e pull-route

--stage times the control of staged solving instead (sokoasp/stage_session.py), whose boxes
are external atoms that may stand on any square: the route families' step took 6 to 7 s a step
there on XSokoban until the box count became a fact (BENCHMARKS.md, "The second member's loop: box
routes up to 60 s; stage sessions").
"""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.asp.encodings import ENCODINGS, Encoding, get_encoding
from sokoasp.asp.session import Clock, Session, SolveConfig
from sokoasp.asp.stage_session import StageControl, stage_facts
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.cli import run


def grounding_seconds(level: Level, encoding: Encoding, strategies: tuple[str, ...], steps: int, stage: bool) -> float:
    """Seconds to ground the base and ``steps`` steps in the solver's own session, or
    (``stage``) in a stage session's control, the base with the stage programs included."""
    clock = Clock()
    config = SolveConfig(encoding=encoding.name, strategies=strategies)
    if stage:
        StageControl(level, encoding, config, clock, stage_facts(level, encoding.reverse)).session.ground_up_to(steps)
    else:
        Session(level, encoding, config, clock).ground_up_to(steps)
    return clock.ground


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--level", "which", help="Which level of a collection (number or title).")
@click.option("-e", "--encoding", "names", multiple=True, help="An incremental family (repeatable; default: all).")
@click.option("--steps", default=2, show_default=True, type=click.IntRange(min=0), help="Steps grounded after the base.")
@click.option("--stage", is_flag=True, help="Time a stage session's control (staged solving) instead.")
def main(level_file: Path, which: str | None, names: tuple[str, ...], steps: int, stage: bool) -> None:
    level = load_level(level_file, which).level
    families = [get_encoding(name) for name in names] or [e for e in ENCODINGS.values() if e.incremental and not e.planner]
    click.echo("encoding\tstrategy\tseconds")
    for encoding in families:
        for strategies in [(), *((name,) for name, s in STRATEGIES.items() if encoding.name in s.encodings)]:
            seconds = grounding_seconds(level, encoding, strategies, steps, stage)
            click.echo(f"{encoding.name}\t{'+'.join(strategies) or '-'}\t{seconds:.2f}")


if __name__ == "__main__":
    run(main)
