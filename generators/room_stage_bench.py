"""One room stage from fixed states: a repeatable measure of the room stages' stage question
(sokoasp/roomstages.py: push one more box into the goal room, the end state tested after the
entry), where timed runs of the room stages walk other states on every run.

The states are those a room-stage run reached: ``--write`` runs the room stages on each level
for ``--seconds`` and writes the state after each entry on the way to the most boxes in (XSB,
titled "LEVEL, K in"). Without ``--write`` the file is read, and from each state one stage, in
a control of its own (grounding included), gets ``--stage-seconds``. Prints each state's time,
the clingo models turned away on the way and whether a plan was kept; then the states with a
plan, the models in all and the total seconds. Run two installed copies on the same file,
side by side, to compare them.

    python generators/room_stage_bench.py ../shared/levels/xsokoban_90.sok states.sok --write -l 32,41,59
    python generators/room_stage_bench.py ../shared/levels/xsokoban_90.sok states.sok --stage-seconds 10
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import groupby
from pathlib import Path

import click
import clingo

from sokoasp.asp.room_stages import EntryEnds, RoomStages, play_pushes
from sokoasp.asp.session import Clock, SolveConfig
from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.board.xsb import read_levels, write_collection
from sokoasp.cli import run
from sokoasp.sokoban.entrance_rooms import EntranceRoom, find_entrance_room, next_entries

CONFIG = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), max_horizon=400)


def entry_states(level: Level, seconds: float) -> tuple[list[Level], str]:
    """The level's start and the states after each entry on the way to the most boxes a run
    of the room stages of ``seconds`` brought in; and the run's note."""
    room = find_entrance_room(level)
    if room is None:
        return [], "no entrance room"
    stages = RoomStages(level, room, CONFIG, Clock(limit=seconds))
    pushes = stages.run()
    states = [level]
    for entry in [] if pushes is not None else stages.farthest:
        after = play_pushes(level.floor, states[-1].boxes, states[-1].player, entry)
        assert after is not None
        states.append(replace(level, boxes=after[0], player=after[1]))
    return states, f"{stages.most_in} of {len(room.goals)} in" if pushes is None else "filled"


class CountedEnds(EntryEnds):
    """``EntryEnds`` that counts the models clingo offers."""

    models = 0

    def on_model(self, model: clingo.Model) -> bool:
        self.models += 1
        return super().on_model(model)


def read_chains(level_file: Path, states_file: Path) -> Iterator[tuple[str, Level, EntranceRoom, list[Level]]]:
    """The states of ``states_file`` (as ``--write`` writes them) level by level: the level's
    name, the level of ``level_file``, its room and its states in the file's order."""
    states = read_levels(states_file.read_text(), str(states_file))
    for which, chain in groupby(states, key=lambda state: state.title.split(",")[0]):
        level = load_level(level_file, which).level
        room = find_entrance_room(level)
        if room is None:
            raise click.ClickException(f"{states_file}: level {which} of {level_file} has no entrance room")
        yield which, level, room, list(chain)


def one_stage(level: Level, room: EntranceRoom, state: Level, seconds: float) -> tuple[float, int, bool]:
    """Seconds spent on one stage from ``state``, the models turned away, and whether a plan was kept."""
    stages = RoomStages(level, room, CONFIG, Clock(limit=seconds + 30))
    stages.stage_seconds, stages.pass_end = seconds, time.perf_counter() + seconds + 30
    options = next_entries(room, state.boxes & room.goals)
    ends = CountedEnds(state.boxes, lambda pushes: stages.after_entry(options, state.boxes, state.player, pushes))
    began = time.perf_counter()
    pushes = stages.stage(options, state.boxes, state.player, ends)
    kept = pushes is not None and ends.kept is not None
    return time.perf_counter() - began, ends.models - kept, kept


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.argument("states_file", type=click.Path(path_type=Path))
@click.option("--write", is_flag=True, help="Run the room stages and write the states to STATES_FILE.")
@click.option("-l", "--levels", default="", help="With --write: levels of LEVEL_FILE (numbers or titles), comma-separated.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="With --write: the room stages' time on each level.")
@click.option("--stage-seconds", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Each stage's time.")
def main(level_file: Path, states_file: Path, write: bool, levels: str, seconds: float, stage_seconds: float) -> None:
    if write and not levels:
        raise click.UsageError("--write needs the levels to run (-l)")
    if write:
        boards: list[Level] = []
        for which in levels.split(","):
            level = load_level(level_file, which).level
            states, note = entry_states(level, seconds)
            boards += [replace(state, title=f"{which}, {k} in") for k, state in enumerate(states)]
            print(f"{which:>6}  {len(states)} states  ({note})", flush=True)
        states_file.write_text(write_collection(boards))
        return
    kept = models = 0
    total = 0.0
    for _, level, room, states in read_chains(level_file, states_file):
        for state in states:
            took, turned, found = one_stage(level, room, state, stage_seconds)
            kept, models, total = kept + found, models + turned, total + took
            print(f"{state.title:>14}  {took:6.2f} s  {turned:5d} turned away  {'plan' if found else '-'}", flush=True)
    print(f"plans {kept}; models turned away {models}; seconds {total:.1f}")


if __name__ == "__main__":
    run(main)
