"""Where a room-stage run went wrong: the first state on its way to the most boxes in from which
the boxes outside the room can no longer all come in.

The states are those ``room_stage_bench.py --write`` writes (XSB, titled "LEVEL, K in", the
level's start first). For each level, the states are proven from the last backwards, each with
the room's boxes as walls (``roomstages.outside_state``): first the part proofs of the room
stages (``Traps.dead_part``: a box and those within two squares of it that cannot all be
placed alone), then a whole proof (``Traps.prove_dead``: every box placed), each with half of
``--seconds``. The walk stops at the first state not proven dead. Every entry after the first
dead state was spent in a dead end, which the stages could not know: their proofs get a share of
the stage time (milliseconds early in a run). Both proofs are sound (``tests/test_traps.py``),
so "dead" is a fact; "open" says only that no proof ended in its time.

    python generators/room_stage_bench.py ../shared/levels/xsokoban_90.sok states.sok --write -l 32,41,59 --seconds 25
    python generators/room_stage_chains.py ../shared/levels/xsokoban_90.sok states.sok --seconds 60
"""

from __future__ import annotations

import time
from pathlib import Path

import click
from room_stage_bench import read_chains

from sokoasp.asp.room_stages import outside_state
from sokoasp.board.level import Level
from sokoasp.cli import run
from sokoasp.sokoban.entrance_rooms import EntranceRoom
from sokoasp.sokoban.traps import MOST_STATES, Traps

MOST_PROOF_STATES = 20 * MOST_STATES  # a whole proof of a minute may take up this many (memory: ~2 GB)


def verdict(level: Level, room: EntranceRoom, state: Level, seconds: float) -> str:
    """How the boxes outside the room in ``state`` stand: "dead (...)", "live" (a whole proof
    found them all able to come in) or "open" (no proof ended in ``seconds``)."""
    outside = outside_state(level, room, state.boxes, state.player)
    traps = Traps(outside, pulls=False, whole=True)
    part = traps.dead_part(outside, seconds / 2)
    if part is not None:
        squares = " ".join(map(str, sorted(part)))
        return f"dead (a box on a dead square: {squares})" if len(part) == 1 else f"dead (a part of {len(part)} boxes: {squares})"
    if traps.prove_dead(outside, seconds / 2, MOST_PROOF_STATES):
        return "dead (a whole proof)"
    return "open" if traps.tried else "live"


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.argument("states_file", type=click.Path(exists=True, path_type=Path))
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Each state's proofs: half for the part proofs, half for the whole proof.")
def main(level_file: Path, states_file: Path, seconds: float) -> None:
    for which, level, room, chain in read_chains(level_file, states_file):
        first_dead = None
        for state in reversed(chain):
            began = time.perf_counter()
            found = verdict(level, room, state, seconds)
            print(f"{state.title:>14}  {found}  {time.perf_counter() - began:.1f} s", flush=True)
            if not found.startswith("dead"):
                break
            first_dead = state.title
        print(f"{which:>6}: " + ("no state of the chain proven dead" if first_dead is None
                                 else f"dead from {first_dead.split(', ')[1]}"), flush=True)


if __name__ == "__main__":
    run(main)
