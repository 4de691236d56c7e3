"""Plan records (``sokoasp plans``): built from grid databases, every plan replayed, bad rows
named by line, the better plan kept; and the records shipped in instances/plans replay."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from corpus import HAND_MADE
from oracle import bfs_pushes
from test_cli import run

from sokoasp import SolveConfig, solve
from sokoasp.board.simulator import count_pushes
from sokoasp.board.xsb import read_levels
from sokoasp.errors import InputError
from sokoasp.tools.grid.run import run_grid
from sokoasp.tools.grid.spec import build_spec, load_instances
from sokoasp.tools.records import checked_entry, merge, read_record, write_record

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "levels"
DOWNLOADED = ROOT / "downloads" / "levels"
NAMES = ["one-push", "turn-corner", "two-boxes", "corridor"]


def collection(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.sok"
    path.write_text("\n".join(f"; {name}\n{HAND_MADE[name]}" for name in NAMES))
    return path


def grid_database(tmp_path: Path, levels: Path) -> Path:
    database = tmp_path / "r.sqlite"
    spec = build_spec(load_instances(levels), ["push"], [()], [()], 30, None, 60)
    run_grid(spec, database, show_progress=False, note=lambda _: None)
    return database


def rows_of(record: Path) -> list[dict[str, str]]:
    with record.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_record_from_a_grid_database_holds_each_levels_push_optimal_plan(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    database = grid_database(tmp_path, levels)
    record = tmp_path / "record.csv"
    code, out = run("plans", str(levels), str(record), "--db", str(database))
    assert code == 0, out
    assert f"4 of 4 levels of {levels.name} have a replayed plan, 4 proven push-optimal: 1, 2, 3, 4" in out
    rows = rows_of(record)
    assert [int(row["pushes"]) for row in rows] == [bfs_pushes(HAND_MADE[name]) for name in NAMES]
    assert all(row["configuration"] == "push" and row["proven"] == "push-optimal" for row in rows)
    code, again = run("plans", str(levels), str(record))  # reading alone replays and counts
    assert code == 0 and "4 of 4 levels" in again
    other = tmp_path / "other.sok"
    other.write_text(HAND_MADE["walk-around"])
    code, out = run("plans", str(other), str(tmp_path / "other.csv"), "--db", str(database))
    assert code == 0 and "no solved run of a level of other.sok" in out and "0 of 1 levels" in out


def test_a_row_whose_plan_fails_replay_is_an_input_error_naming_its_line(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    record = tmp_path / "record.csv"
    run("plans", str(levels), str(record), "--db", str(grid_database(tmp_path, levels)))
    rows = rows_of(record)
    rows[1]["plan"] = "l" + rows[1]["plan"]  # turn-corner: the player starts against the west wall
    with record.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    code, out = run("plans", str(levels), str(record))
    assert code == 7 and f"{record}:3: the plan of level 2 fails replay: step 1" in out
    assert "Traceback" not in out


@pytest.mark.parametrize(("text", "problem"), [
    ("level,plan\n1,R\n", ":1: not a plan record: no column title, pushes, moves, configuration, seconds"),
    ("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,2,1,push,0.1,R\n",
     ":2: level 1: the plan has 1 pushes and 1 moves, the row says 2 and 1"),
    ("level,title,pushes,moves,configuration,seconds,plan\n9,t,1,1,push,0.1,R\n",
     ":2: level 9 is not in the collection (1..4)"),
    ("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,1,1,push,0.1,R\n1,one-push,1,1,push,0.1,R\n",
     ":3: level 1 has a row already"),
    ("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,1,1\n", ":2: expected 7 fields"),
    ("level,title,pushes,moves,configuration,seconds,plan\n1,another,1,1,push,0.1,R\n", ":2: level 1: the row's title 'another'"),
    ("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,1,1,push,0.1,R,extra\n", ":2: expected 7 fields"),
    ("level,title,pushes,moves,configuration,seconds,plan\none,t,1,1,push,0.1,R\n", ":2: level: 'one' is not a level number"),
    ("level,title,pushes,moves,proven,configuration,seconds,plan\n1,one-push,1,1,yes,push,0.1,R\n",
     ":2: proven: 'yes' is neither empty nor 'push-optimal'"),
    ("level,title,pushes,moves,lower_bound,configuration,seconds,plan\n1,one-push,1,1,2,push,0.1,R\n",
     ":2: the plan of level 1 has 1 pushes, fewer than its lower bound 2"),
    ("level,title,pushes,moves,lower_bound,configuration,seconds,plan\n1,one-push,1,1,x,push,0.1,R\n",
     ":2: lower_bound: 'x' is not a number of pushes"),
])
def test_bad_records_are_input_errors(tmp_path: Path, text: str, problem: str) -> None:
    record = tmp_path / "record.csv"
    record.write_text(text)
    code, out = run("plans", str(collection(tmp_path)), str(record))
    assert code == 7 and problem in out, out


def test_a_missing_record_or_database_is_an_input_error(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    code, out = run("plans", str(levels), str(tmp_path / "none.csv"))
    assert code == 7 and "none.csv: no such file (give --db to start a record)" in out
    code, out = run("plans", str(levels), str(tmp_path / "new.csv"), "--db", str(tmp_path / "none.sqlite"))
    assert code == 7 and "none.sqlite: no such results database" in out and not (tmp_path / "new.csv").exists()


def test_merging_keeps_the_plan_with_fewer_pushes_then_fewer_moves() -> None:
    levels = read_levels(HAND_MADE["both-ways"], "<test>")  # #.$ $.# with the player below the gap
    short = checked_entry(levels, 1, "uLrR", "a", 1.0)
    detour = checked_entry(levels, 1, "uLrlrR", "b", 1.0)
    other = checked_entry(levels, 1, "uRlL", "c", 1.0)
    assert (short.pushes, short.moves, detour.pushes, detour.moves) == (2, 4, 2, 6)
    for first, second in ((short, detour), (detour, short)):
        merged, _ = merge({1: first}, {1: second})
        assert merged[1] is short
    merged, taken = merge({1: short}, {1: other})  # same pushes and moves: the record's plan stays
    assert merged[1] is short and taken == []
    fewer_moves = replace(short, pushes=3, moves=3)  # more pushes, fewer moves (merge compares, never replays)
    merged, taken = merge({1: fewer_moves}, {1: detour})
    assert merged[1] is detour and taken == [detour]


def test_a_record_without_the_proven_column_reads_and_is_written_with_it(tmp_path: Path) -> None:
    record = tmp_path / "record.csv"
    record.write_text("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,1,1,push,0.1,R\n")
    levels = read_levels(collection(tmp_path).read_text(), "<test>")
    entries = read_record(record, levels)
    assert not entries[1].proven
    write_record(record, entries)
    assert rows_of(record)[0]["proven"] == "" and read_record(record, levels) == entries


def test_a_proof_marks_the_plan_with_as_many_pushes_and_a_shorter_plan_refutes_it() -> None:
    levels = read_levels(HAND_MADE["both-ways"], "<test>")
    short = checked_entry(levels, 1, "uLrR", "a", 1.0)
    detour = checked_entry(levels, 1, "uLrlrR", "b", 1.0, proven=True)  # same pushes, more moves, proven
    merged, taken = merge({1: short}, {1: detour})
    assert merged[1] == replace(short, lower_bound=short.pushes) and merged[1].proven and taken == [merged[1]]
    merged, taken = merge({1: merged[1]}, {1: detour})  # nothing new the second time
    assert taken == []
    longer = replace(checked_entry(levels, 1, "uLrR", "c", 1.0), pushes=3, lower_bound=3)  # proven; merge never replays
    with pytest.raises(InputError, match="fewer than the 3 that 'c' proved the fewest: that proof is wrong"):
        merge({1: short}, {1: longer})
    merged, _ = merge({1: short}, {1: replace(longer, lower_bound=None)})
    assert merged[1] is short and not merged[1].proven


def test_the_higher_lower_bound_is_kept_and_proves_a_plan_it_meets() -> None:
    levels = read_levels(HAND_MADE["both-ways"], "<test>")  # two pushes at best
    detour = checked_entry(levels, 1, "uLrlrR", "a", 1.0, lower_bound=1)
    assert (detour.pushes, detour.lower_bound, detour.proven) == (2, 1, False)
    bounded = checked_entry(levels, 1, "uLrlrR", "b", 1.0, lower_bound=2)  # same plan, a proof that meets it
    merged, taken = merge({1: detour}, {1: bounded})
    assert merged[1].lower_bound == 2 and merged[1].proven and taken == [merged[1]]
    merged, taken = merge({1: bounded}, {1: detour})  # the lower bound never goes down
    assert merged[1] == bounded and taken == []
    short = checked_entry(levels, 1, "uLrR", "c", 1.0)
    merged, _ = merge({1: bounded}, {1: short})  # fewer moves, and the bound it now meets
    assert merged[1].plan == "uLrR" and merged[1].proven
    wrong = replace(detour, lower_bound=3)  # merge never replays: a bound above a replayed plan
    with pytest.raises(InputError, match="fewer than the 3 that 'a' proved no plan goes under: that proof is wrong"):
        merge({1: short}, {1: wrong})
    with pytest.raises(ValueError, match="fewer than its lower bound 3"):
        checked_entry(levels, 1, "uLrR", "d", 1.0, lower_bound=3)


def test_a_records_lower_bounds_are_written_and_read_back(tmp_path: Path) -> None:
    levels = read_levels(collection(tmp_path).read_text(), "<test>")  # level 1: one push east
    record = tmp_path / "record.csv"
    entries = {1: checked_entry(levels, 1, "R", "a", 1.0, lower_bound=0), 2: checked_entry(levels, 1, "R", "b", 1.0, proven=True)}
    for entry in entries.values():
        write_record(record, {1: entry})
        assert read_record(record, levels) == {1: entry}
    assert rows_of(record)[0]["lower_bound"] == "1"  # a proven plan's pushes are its lower bound


@pytest.mark.parametrize("record", sorted((ROOT / "instances" / "plans").glob("*.csv")), ids=lambda p: p.stem)
def test_the_shipped_records_replay(record: Path) -> None:
    places = [SHARED / f"{record.stem}.sok", DOWNLOADED / f"{record.stem}.sok"]  # generators/debian_levels.py
    levels_file = next((place for place in places if place.exists()), None)
    if levels_file is None:
        pytest.skip(f"{record.stem}.sok is neither next to this checkout nor downloaded")
    levels = read_levels(levels_file.read_text(), str(levels_file))
    entries = read_record(record, levels)
    assert len(entries) == len(rows_of(record)) > 0


def test_show_plays_a_levels_plan_from_a_record(tmp_path: Path) -> None:
    levels = collection(tmp_path)
    record = tmp_path / "record.csv"
    run("plans", str(levels), str(record), "--db", str(grid_database(tmp_path, levels)))
    code, out = run("show", "-l", "3", "--record", str(record), "-o", str(tmp_path / "end.png"), str(levels))
    assert code == 0 and "-- solved" in out and (tmp_path / "end.png").exists()
    rows = rows_of(record)
    record.write_text(record.read_text().replace("\n" + ",".join(rows[2].values()) + "\n", "\n"))
    code, out = run("show", "-l", "3", "--record", str(record), str(levels))
    assert code == 7 and "the record has no plan for level 3 of tiny.sok" in out
    code, out = run("show", "-l", "3", "--record", str(record), "--plan", "R", str(levels))
    assert code == 7 and "give one of --plan, --solve and --record" in out


@pytest.mark.parametrize(("column", "value", "problem"), [
    ("seconds", "nan", "is not a time"),
    ("seconds", "inf", "is not a time"),
    ("seconds", "-5", "is not a time"),
    ("lower_bound", "\uff13", "is not a number of pushes"),
    ("proven", "push-optimal", "one of the two is wrong"),
])
def test_a_record_row_that_contradicts_itself_or_holds_no_time_is_refused(tmp_path: Path, column: str, value: str,
                                                                          problem: str) -> None:
    levels = collection(tmp_path)
    record = tmp_path / "record.csv"
    write_record(record, {1: checked_entry(read_levels(levels.read_text(), "t"), 1, "R", "push", 1.0)})  # one-push
    rows = rows_of(record)
    rows[0][column] = value
    if column == "proven":
        rows[0]["lower_bound"] = str(int(rows[0]["pushes"]) - 1)  # a bound below the pushes it calls optimal
    with record.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(InputError, match=problem) as caught:
        read_record(record, read_levels(levels.read_text(), "t"))
    assert "record.csv:2:" in str(caught.value)


def test_a_record_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    levels = read_levels(collection(tmp_path).read_text(), "t")
    record = tmp_path / "record.csv"
    write_record(record, {1: checked_entry(levels, 1, "R", "push", 1.0)})
    plain = read_record(record, levels)
    record.write_bytes(b"\xef\xbb\xbf" + record.read_bytes())
    assert read_record(record, levels) == plain


def test_a_record_is_written_through_a_new_file_and_never_through_a_link(tmp_path: Path) -> None:
    """A link where an older sokoasp wrote its temporary ``.partial`` file leaves its target as
    it was; no temporary file is left behind."""
    record = tmp_path / "record.csv"
    record.write_text("level,title,pushes,moves,configuration,seconds,plan\n1,one-push,1,1,push,0.1,R\n")
    levels = read_levels(collection(tmp_path).read_text(), "<test>")
    entries = read_record(record, levels)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "record.csv.partial").symlink_to(precious)
    write_record(record, entries)
    assert precious.read_text() == "keep me\n" and read_record(record, levels) == entries
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith(".partial") and not path.is_symlink()) == []


def test_plans_optimize_rewrites_a_row_only_with_a_shorter_replayed_plan(tmp_path: Path) -> None:
    levels_path = collection(tmp_path)
    levels = read_levels(levels_path.read_text(), "<test>")
    best = solve(levels[1], SolveConfig(encoding="incremental")).plan  # turn-corner, move-optimal
    assert best is not None and best[0] != "l"
    detour = "rl" + best  # a step right and back first
    record = tmp_path / "record.csv"
    write_record(record, {1: checked_entry(levels, 1, "R", "by hand", 1.0, proven=True, lower_bound=1),
                          2: checked_entry(levels, 2, detour, "by hand", 1.0)})
    code, out = run("plans", str(levels_path), str(record), "--optimize", "20k")
    after = read_record(record, levels)
    assert code == 0 and (after[2].pushes, after[2].moves) == (count_pushes(best), len(best))
    assert after[2].configuration == "by hand [optimized pareto]" and after[1].plan == "R"
    assert f"level 2: {count_pushes(best)} -> {count_pushes(best)} pushes, {len(detour)} -> {len(best)} moves" in out


def test_plans_optimize_writes_a_proven_bound_though_the_plan_stays(tmp_path: Path) -> None:
    """A plan that is already the shortest is kept as it is, and the whole-level search's proof
    goes into its row: the lower bound rises to its pushes, and the record counts it proven."""
    levels_path = collection(tmp_path)
    levels = read_levels(levels_path.read_text(), "<test>")
    best = solve(levels[1], SolveConfig(encoding="incremental")).plan
    assert best is not None
    record = tmp_path / "record.csv"
    write_record(record, {2: checked_entry(levels, 2, best, "by hand", 1.0)})
    code, out = run("plans", str(levels_path), str(record), "--optimize", "20k")
    after = read_record(record, levels)[2]
    assert code == 0 and after.plan == best and after.configuration == "by hand"
    assert after.proven and after.lower_bound == bfs_pushes(HAND_MADE[NAMES[1]]) == count_pushes(best)
    assert "(proven push-optimal)" in out and "1 proven push-optimal" in out
