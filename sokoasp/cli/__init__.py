"""The ``sokoasp`` command line. It only wires modules together; ``main`` is the single
place where errors and results become exit codes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from sokoasp.asp.encodings import ENCODINGS, get_encoding
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.board.facts import write_facts
from sokoasp.board.level import Level
from sokoasp.board.loading import load_all, load_level
from sokoasp.board.pddl import DOMAIN
from sokoasp.board.pddl import problem as pddl_problem
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import board_lines, write_collection, write_level
from sokoasp.errors import ExitCode, InputError, SokoaspError
from sokoasp.pipeline import DEFAULT_MAX_HORIZON, SolveConfig, probes_the_bound, solve
from sokoasp.portfolio.prove import prove_plan, race_and_prove
from sokoasp.portfolio.race import members_for, race
from sokoasp.result import Result
from sokoasp.tools.generate.command import generate
from sokoasp.tools.grid.commands import bench, grid
from sokoasp.tools.grid.store import read_rows
from sokoasp.tools.records import Entry, entries_from_runs, merge, read_record, recorded_plan, write_record
from sokoasp.tools.show.command import show
from sokoasp.worker import solve_isolated

EXIT_CODES_HELP = "\b\nExit codes:\n" + "\n".join(
    f"  {code.value}  {code.name.lower().replace('_', ' ')}" for code in ExitCode
)


@click.group(epilog=EXIT_CODES_HELP)
@click.version_option(package_name="sokoasp")
def cli() -> None:
    """Plan Sokoban with answer set programming (clingo).

    \b
    Quick start:
      sokoasp solve instances/thesis_example.lp
      sokoasp solve --encoding plain --horizon 23 instances/thesis_example.lp
      sokoasp solve --level 3 --strategy clutter ../shared/levels/microban_i.sok
      sokoasp strategies
    """


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("level_file", type=click.Path(path_type=Path))
@click.option("--encoding", "-e", type=click.Choice(list(ENCODINGS)), default="incremental", show_default=True,
              help="Encoding family (see `sokoasp encodings`).")
@click.option("--strategy", "-s", "strategies", multiple=True, type=click.Choice(list(STRATEGIES), case_sensitive=False),
              help="Strategy module to add; repeat to combine (see `sokoasp strategies`).")
@click.option("--level", "-l", "which", help="Which level of a collection file: its number (1-based) or title.")
@click.option("--horizon", type=click.IntRange(0), help="Plan length for fixed-horizon encodings "
              "(default: the file's #const horizon).")
@click.option("--min-horizon", type=click.IntRange(0), default=0, show_default=True,
              help="Incremental encodings: first horizon tried. Above the proven lower bound, "
              "a plan is no longer reported as optimal.")
@click.option("--start-factor", type=click.IntRange(1), default=1, show_default=True,
              help="Incremental encodings: first horizon = N x the proven lower bound (push-macro: N x each "
              "box's slides to its nearest goal, summed, never below the bound, after asking the bound "
              "itself for a tenth of the time limit, 6 s without one). Satisficing families "
              "often find a plan at a long horizon sooner than they refute the short ones (Rintanen 2004); "
              "above the bound, a plan is no longer reported as optimal.")
@click.option("--max-horizon", type=click.IntRange(0), default=DEFAULT_MAX_HORIZON, show_default=True,
              help="Incremental encodings: give up after this horizon.")
@click.option("--time-limit", type=click.FloatRange(min=0.01), help="Seconds; the run (grounding too) is "
              "stopped and reported as a timeout.")
@click.option("--memory-limit", type=click.IntRange(1), help="MB of address space for the solver process.")
@click.option("--staged", type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="Push families: first spend up to SECONDS on staged solving, a chain of short plans that each "
              "put one more box on a goal, with backtracking (a goal agenda: fast on levels with many boxes; "
              "incomplete, never optimal), then run the horizon loop with the time left (a loop that would start "
              "above --max-horizon leaves its time to the stages). Stages that end without a plan draw the "
              "farthest state they reached, replayed, with the moves there (backward stages: their state "
              "with the most boxes pulled onto start squares).")
@click.option("--stage-encoding", metavar="FAMILY[+FAMILY...]",
              help="With --staged: the push family of the stages (default: --encoding), e.g. push-macro stages "
              "before a pull-route horizon loop; several joined by + take turns pass by pass, each with a search "
              "of its own (push-macro+push-route: a pass of slide stages, then one of box-route stages at the same "
              "stage time, ...). pull-route stages run backwards: from the boxes on the goals, each pulls one more box "
              "onto a start square (push-macro+pull-route: both directions take turns). The stages keep the "
              "strategies their family supports.")
@click.option("--end-game/--no-end-game", default=True, show_default=True,
              help="With --staged: once a stage leaves at most five boxes off the goals, a search in Python may "
              "finish the plan (those boxes alone, else every box; sokoasp/endgame.py). Not ASP, and the result "
              "says how many boxes it placed; --no-end-game: every stage planned by clingo, as before it existed.")
@click.option("--search", type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="First spend up to SECONDS on a search in Python over the pushes of every box, from the start: "
              "best first in the order of the cheapest box-goal matching, deadlocks cut (sokoasp/boxsearch.py). "
              "Not ASP: the result says the plan came from it, and never calls it optimal. Then the other phases "
              "run as before.")
@click.option("--room-search", type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="Levels whose goals lie in a room with one to three entrances: spend up to SECONDS (after "
              "--search, if given) on a search in Python over every box's pushes with goal macros (a box pushed "
              "in at an entrance goes straight on to its goal, in the packing order; boxes may be parked in the "
              "room and pushed out again; sokoasp/roomsearch.py). "
              "Not ASP, never optimal, may lose solutions (a box on a filled goal never moves again); then the "
              "other phases run as before. Levels without such a room skip it at once.")
@click.option("--goal-room", type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="Levels whose goals all lie in a room with one entrance and no box inside: first spend up to "
              "SECONDS on the level with that room packed by goal macros (each box pushed in goes straight to its "
              "goal, in a packing order found backwards; Rolling Stone, YASS; its stages run forwards only), then "
              "the rest on the level itself. Where no corridor can stand for the room (two entrances both "
              "needed, say, or three), the SECONDS go to room stages: one short search per box into the room, each box "
              "then taken to its goal by fixed pushes. "
              "May lose solutions, never optimal; levels without such a room skip this phase.")
@click.option("--interleave", type=click.IntRange(1), default=1, show_default=True, metavar="N",
              help="Jump families (push-jump, push-macro, push-macro-parallel, push-route, pull-route): ask N "
              "horizons of the schedule in turn, in time slices that favour the shorter ones (Rintanen 2004's "
              "algorithm B), instead of one after another: a longer horizon's plan may come sooner than a "
              "shorter one's refutation.")
@click.option("--descend", is_flag=True,
              help="push-jump: ask --max-horizon first, then one push fewer than each plan found, until a horizon is "
              "refuted; the last plan is then push-optimal (with strategies that keep optimal plans). One "
              "refutation instead of one per horizon from the bound up: give a --max-horizon a plan exists at.")
@click.option("--clingo-arg", "clingo_args", multiple=True, help="Extra clingo option, e.g. --clingo-arg=--configuration=crafty.")
@click.option("--portfolio", is_flag=True, help="Race the portfolio's configurations on the cores and keep the "
              "first validated plan (see `sokoasp portfolio`); --encoding/--strategy are then not used.")
@click.option("--prove", is_flag=True, help="With --portfolio: spend the time left after the first plan on two "
              "provers racing, one per core (the push loop from the lower bound up, push-jump from the plan down): "
              "they prove the plan push-optimal or find a shorter plan (times: first_plan is when the first plan "
              "came). With --record: prove the record's plan instead, with the whole time.")
@click.option("--record", type=click.Path(path_type=Path),
              help="With --prove: the plan record (see `sokoasp plans`) whose plan for the level to prove push-optimal "
              "or beat, e.g. instances/plans/microban_i.csv.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--verbose", "-v", is_flag=True, help="Show each horizon as it is tried (on stderr).")
def solve_command(
    level_file: Path,
    encoding: str,
    strategies: tuple[str, ...],
    which: str | None,
    horizon: int | None,
    min_horizon: int,
    start_factor: int,
    max_horizon: int,
    time_limit: float | None,
    memory_limit: int | None,
    staged: float | None,
    stage_encoding: str | None,
    end_game: bool,
    interleave: int,
    search: float | None,
    room_search: float | None,
    goal_room: float | None,
    descend: bool,
    clingo_args: tuple[str, ...],
    portfolio: bool,
    prove: bool,
    record: Path | None,
    as_json: bool,
    verbose: bool,
) -> None:
    """Solve one level (.lp fact file, or .sok/.xsb text) and print a validated plan.

    The plan is a LURD string: l/u/r/d walk, L/U/R/D push. Every plan is replayed by an
    independent simulator before it is reported as solved.

    \b
    Examples:
      sokoasp solve instances/thesis_example.lp          (thesis incremental: move-optimal)
      sokoasp solve -e plain --horizon 23 instances/thesis_example.lp
      sokoasp solve -e push -s dead -s freeze -s bound -l 3 instances/microban_1-5.sok
                                                         (push-optimal, fast)
      sokoasp solve -e push-macro -s dead -s freeze -s bound --time-limit 60 LEVEL
                                                         (long plans: one slide per step)
      sokoasp solve -e push-macro-parallel -s dead -s freeze -s bound --time-limit 60 LEVEL
                                                         (many boxes: independent slides share a step)
      sokoasp solve -e push-macro -s dead -s freeze -s bound --start-factor 4 --time-limit 60 LEVEL
                                                         (hard levels: long horizons first)
      sokoasp solve -e push-route -s dead -s freeze -s bound --start-factor 3 --time-limit 60 LEVEL
                                                         (long plans, few boxes: one box route per step)
      sokoasp solve -e pull-route -s dead -s bound --start-factor 3 --time-limit 60 LEVEL
                                                         (the same backwards: boxes pulled off the goals)
      sokoasp solve -e push-macro -s dead -s freeze -s bound --start-factor 3 --interleave 3 LEVEL
                                                         (three horizons asked in turn, in time slices)
      sokoasp solve -e push-jump -s dead -s freeze -s bound --max-horizon 40 --descend LEVEL
                                                         (push-optimal from above: plans of 40, 39, ... pushes)
      sokoasp solve -e push-macro -s dead -s freeze --staged 30 --time-limit 300 LEVEL
                                                         (many boxes: one more box on a goal per stage)
      sokoasp solve -e push-macro -s dead -s freeze --goal-room 150 --staged 300 --time-limit 300 LEVEL
                                                         (a goal room: boxes go in by goal macros)
      sokoasp solve -e push-macro -s dead -s freeze -s bound --search 10 --time-limit 60 LEVEL
                                                         (first a search in Python of every box: not ASP)
      sokoasp solve -e push-macro -s dead -s freeze --room-search 60 -l 153 ../shared/levels/microban_i.sok
                                                         (that search with goal-room macros: not ASP)
      sokoasp solve --portfolio --time-limit 60 -l 59 ../shared/levels/microban_i.sok
      sokoasp solve --portfolio --prove --time-limit 60 -l 59 ../shared/levels/microban_i.sok
                                                         (then prove the plan push-optimal)
      sokoasp solve --prove --record instances/plans/microban_i.csv --time-limit 60 -l 102 ../shared/levels/microban_i.sok
                                                         (prove a record's plan push-optimal, or beat it)
    """
    loaded = load_level(level_file, which)
    config = SolveConfig(
        encoding=encoding,
        strategies=tuple(s.lower() for s in strategies),
        horizon=horizon if horizon is not None else loaded.horizon,
        min_horizon=min_horizon,
        start_factor=start_factor,
        max_horizon=max_horizon,
        clingo_args=clingo_args,
        staged=staged,
        stage_encoding=stage_encoding,
        end_game=end_game,
        interleave=interleave,
        goal_room=goal_room,
        descend=descend,
        search=search,
        room_search=room_search,
    )
    if (portfolio or record) and (strategies or staged or stage_encoding or goal_room or search or room_search
                                  or descend or not end_game):
        raise InputError(f"--{'portfolio' if portfolio else 'record'} chooses its own strategies and staging: drop "
                         "--strategy, --staged, --goal-room, --search, --room-search, --no-end-game and --descend")
    if prove and portfolio == bool(record):
        raise InputError("--prove proves the portfolio's plan or a record's push-optimal: give --portfolio or --record "
                         "(for a push-optimal plan alone: -e push -s dead -s freeze -s bound)")
    if record and not prove:
        raise InputError("--record names the plan for --prove to prove: give --prove too "
                         "(to look at a record's plan: sokoasp show --record)")
    if stage_encoding and not staged:
        raise InputError("--stage-encoding names the family of the stages: give --staged SECONDS too")
    if not end_game and not staged:
        raise InputError("--no-end-game turns off the end of staged solving: give --staged SECONDS too")
    progress = (lambda line: click.echo(line, err=True)) if verbose else None
    try:
        if record:
            plan = recorded_plan(level_file, loaded.level, record)
            result = prove_plan(loaded.level, plan, str(record), time_limit, memory_limit)
        elif portfolio:
            run_race = race_and_prove if prove else race
            result = run_race(loaded.level, time_limit=time_limit, memory_mb=memory_limit)
        elif time_limit is not None or memory_limit is not None:
            result = solve_isolated(loaded.level, config, time_limit, memory_limit, progress)
        else:
            result = solve(loaded.level, config, progress)
    except InputError as error:
        raise error.at(loaded.source) from None
    click.echo(json.dumps(result.to_dict(), indent=2) if as_json else render(loaded.source, loaded.level, result))
    sys.exit(result.status.exit_code)


cli.add_command(solve_command, name="solve")


def render(source: str, level: Level, result: Result) -> str:
    config = result.config
    lines = [
        f"level:      {source}" + (f" ({level.title})" if level.title else ""),
        f"encoding:   {config.get('encoding')}   strategies: {', '.join(config.get('strategies', [])) or 'none'}",
        f"status:     {result.status.value}" + (f" in {result.optimal_for}" if result.optimal_for else "")
        + (f": {result.message}" if result.message else ""),
    ]
    if result.plan is not None:
        lines.append(f"plan:       {result.plan or '(empty: the level is already solved)'}")
        lines.append(f"moves:      {result.moves}   pushes: {result.pushes}   horizon: {'-' if result.horizon is None else result.horizon}")
    times = result.times
    lines.append("times:      " + "   ".join(f"{k} {v:.3f} s" for k, v in times.items()))
    stats = dict(result.stats)
    for phase in ("search", "room_search", "goal_room", "staged", "proof"):
        if phase in stats:
            lines.append(f"{phase.replace('_', ' ') + ': ':<12}{stats.pop(phase)}")
    for key, who in (("room_farthest", "room stages"), ("staged_farthest", "stages")):
        if key in stats:
            lines += farthest_lines(level, str(stats.pop(key)), who)
    if "staged_home" in stats:
        lines.append("backwards:  the backward stages' state nearest the start (the boxes pulled off the goals so far)")
        lines += indented_board(str(stats.pop("staged_home")).splitlines())
    if stats:
        lines.append("clingo:     " + "   ".join(f"{k} {v}" for k, v in stats.items()))
    return "\n".join(lines)


def farthest_lines(level: Level, moves: str, who: str) -> list[str]:
    """The state the moves ``moves`` of ``who`` (stages, room stages) lead to, replayed from the
    start and drawn: where a failed search got (``sokoasp show LEVEL --plan MOVES`` plays them)."""
    reached = replay(level, moves)
    if reached.steps_done != len(moves):
        return [f"farthest:   the {who}' moves do not replay ({reached.problem})"]
    state = Level(level.floor, reached.boxes, level.goals, reached.player)
    head = (f"farthest:   the {who} got {len(reached.boxes & level.goals)} of {len(level.goals)} boxes on goals "
            f"in {len(moves)} moves (replayed; `sokoasp show --plan MOVES` plays them)")
    return [head, *indented_board(board_lines(state)), f"            moves: {moves}"]


def indented_board(rows: list[str]) -> list[str]:
    """A board's rows under the report's labels (rows above the floor left out)."""
    return ["            " + row for row in rows if row]


@cli.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--level", "-l", "which", help="Convert only this level of a collection (number or title).")
@click.option("--horizon", type=click.IntRange(0), help="Write #const horizon = N into a .lp file.")
def convert(source: Path, target: Path, which: str | None, horizon: int | None) -> None:
    """Convert a level between XSB/.sok text and the thesis fact format (.lp).

    The format is chosen by TARGET's suffix (.lp for facts, anything else XSB). A .lp file
    holds one level; a collection needs --level, or an XSB target to keep them all.
    """
    loaded = [load_level(source, which)] if which else load_all(source)
    if target.suffix.lower() == ".lp":
        if len(loaded) > 1:
            raise InputError(f"holds {len(loaded)} levels; a .lp file takes one: choose with --level", str(source))
        keep = horizon if horizon is not None else loaded[0].horizon
        text = write_facts(loaded[0].level, keep)
    elif len(loaded) == 1:
        text = write_level(loaded[0].level)
    else:
        text = write_collection([item.level for item in loaded])
    target.write_text(text, encoding="utf-8")
    click.echo(f"wrote {target} ({len(loaded)} level{'s' if len(loaded) > 1 else ''})")


cli.add_command(grid)
cli.add_command(bench)
cli.add_command(generate)
cli.add_command(show)


@cli.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--pddl", is_flag=True, required=True, help="Write IPC-style Sokoban PDDL (domain.pddl, one problem per level).")
@click.option("--level", "-l", "which", help="Export only this level of a collection (number or title).")
def export(source: Path, folder: Path, pddl: bool, which: str | None) -> None:
    """Export levels for other planners: FOLDER/domain.pddl and FOLDER/<level>.pddl.

    The domain has unit-cost move and push actions, so a cost-optimal plan is move-optimal.
    """
    loaded = [load_level(source, which)] if which else load_all(source)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "domain.pddl").write_text(DOMAIN)
    for number, item in enumerate(loaded, start=1):
        name = item.level.title or (source.stem if len(loaded) == 1 else f"{source.stem}-{number}")
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)
        (folder / f"{stem}.pddl").write_text(pddl_problem(item.level, name))
    click.echo(f"wrote {folder / 'domain.pddl'} and {len(loaded)} problem file(s)")


@cli.command(name="plans")
@click.argument("level_file", type=click.Path(path_type=Path))
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--db", "databases", multiple=True, type=click.Path(path_type=Path),
              help="A grid database (repeatable): add its best plan for each level of LEVEL_FILE that "
                   "beats the record's, and write RECORD.")
def plans_command(level_file: Path, record: Path, databases: tuple[Path, ...]) -> None:
    """Keep RECORD, a CSV of the best validated plan per level of LEVEL_FILE (fewest pushes,
    then moves), and replay every plan in it.

    \b
    Grids keep their plans in databases on the machine that ran them; a record is a small
    text file to commit and cite. Every plan is replayed by the simulator when RECORD is read
    and before a plan from a database goes in, so the count printed is a count anyone can
    check. An invalid row is an input error naming its line.
    \b
    Examples:
      sokoasp plans ../shared/levels/xsokoban_90.sok instances/plans/xsokoban_90.csv
      sokoasp plans ../shared/levels/xsokoban_90.sok instances/plans/xsokoban_90.csv --db run.sqlite
    """
    levels = [item.level for item in load_all(level_file)]
    if not record.exists() and not databases:
        raise InputError("no such file (give --db to start a record)", str(record))
    entries = read_record(record, levels) if record.exists() else {}
    if databases:
        for database in databases:
            if not database.is_file():
                raise InputError("no such results database", str(database))
            found = entries_from_runs(read_rows(database), levels, str(database))
            if not found:
                click.echo(f"{database}: no solved run of a level of {level_file.name}")
            entries, taken = merge(entries, found)
            for entry in taken:
                click.echo(f"level {entry.level}: {entry.pushes} pushes{bound_note(entry)}, "
                           f"{entry.moves} moves ({entry.configuration}, {entry.seconds:.1f} s, {database.name})")
        write_record(record, entries)
    numbers = ", ".join(str(number) for number in sorted(entries))
    proven = sum(entry.proven for entry in entries.values())
    bounded = sum(not entry.proven and entry.lower_bound is not None for entry in entries.values())
    click.echo(f"{record}: {len(entries)} of {len(levels)} levels of {level_file.name} have a replayed plan"
               + (f", {proven} proven push-optimal" if proven else "")
               + (f", {bounded} more with a proven lower bound" if bounded else "") + (f": {numbers}" if numbers else ""))


def bound_note(entry: Entry) -> str:
    if entry.proven:
        return " (proven fewest)"
    return "" if entry.lower_bound is None else f" (none has fewer than {entry.lower_bound})"


@cli.command(name="strategies")
def list_strategies() -> None:
    """List the strategy modules: thesis name, soundness, supported encodings."""
    rows = [("name", "thesis", "soundness", "encodings", "what it prunes")]
    for s in STRATEGIES.values():
        summary = s.summary + (" [reconstruction]" if s.reconstruction else "")
        rows.append((s.name, s.thesis_name or "-", s.soundness.value, ",".join(s.encodings), summary))
    click.echo(table(rows))


@cli.command(name="portfolio")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Show the members as they race under this limit: beyond 60 s the member with a goal room and "
                   "stages gives them a larger share, and the first member runs stages before its loop "
                   "(default: no limit).")
def list_portfolio(time_limit: float | None) -> None:
    """List the configurations `solve --portfolio` races, one per core.

    \b
    Example:
      sokoasp portfolio --time-limit 300
    """
    rows = [("member", "encoding", "strategies", "first horizon", "horizons in turn", "search first",
             "room search then", "goal room then", "staged then")]
    for number, member in enumerate(members_for(time_limit), start=1):
        if probes_the_bound(get_encoding(member.encoding), member):
            start = f"the bound (probed), {member.start_factor} x"
        else:
            start = "the lower bound" if member.start_factor == 1 else f"{member.start_factor} x the lower bound"
        families = member.stage_families
        in_turn = " in turn" if len(families) > 1 else ""
        staged = f"{member.staged:g} s: {' and '.join(families)} stages{in_turn}" if member.staged else "no"
        room = f"{member.goal_room:g} s on the level with macros" if member.goal_room else "no"
        room_search = f"{member.room_search:g} s in Python" if member.room_search else "no"
        search = f"{member.search:g} s in Python" if member.search else "no"
        rows.append((str(number), member.encoding, ", ".join(member.strategies) or "none", start,
                     str(member.interleave), search, room_search, room, staged))
    click.echo(table(rows))


@cli.command(name="encodings")
def list_encodings() -> None:
    """List the encoding families and what one time step means."""
    rows = [("name", "driven", "time step", "source", "summary")]
    for e in ENCODINGS.values():
        driven = "external planner" if e.planner else "incremental" if e.incremental else "fixed horizon"
        rows.append((e.name, driven, e.step_text, e.source, e.summary))
    click.echo(table(rows))


def table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)


def main(args: list[str] | None = None) -> None:
    """Entry point of the ``sokoasp`` command."""
    run(cli, args, "sokoasp")


def run(command: click.Command, args: list[str] | None = None, prog_name: str | None = None) -> None:
    """Run ``command``: the one place where errors become exit codes (no tracebacks for
    users). The measuring scripts of generators/ run through it too."""
    try:
        code = command.main(args=args, prog_name=prog_name, standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(ExitCode.ERROR)
    except click.ClickException as error:
        error.show()
        sys.exit(ExitCode.USAGE)
    except SokoaspError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # a bug: say so briefly; SOKOASP_DEBUG=1 shows the traceback
        if os.environ.get("SOKOASP_DEBUG"):
            raise
        click.echo(f"internal error: {type(error).__name__}: {error} (rerun with SOKOASP_DEBUG=1 for details)", err=True)
        sys.exit(ExitCode.ERROR)
