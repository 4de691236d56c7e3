"""The grid's results database (SQLite): one row per finished run, committed at once, so a
killed grid loses nothing and a rerun skips what is done (and runs again what ended in an error). One writer at a time (a lock file
beside the database); a solved row is never replaced by an unsolved one. The database is in WAL
mode: after a kill, the committed rows may still be in the ``-wal`` file beside it, so copy both
(or open it once with sokoasp, which folds them in)."""

from __future__ import annotations

import errno
import fcntl
import json
import math
import os
import re
import sqlite3
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from sokoasp.errors import InputError
from sokoasp.result import Result, Status
from sokoasp.tools.grid.spec import Run

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    instance TEXT NOT NULL,
    instance_hash TEXT NOT NULL,
    instance_class TEXT NOT NULL,
    boxes INTEGER NOT NULL,
    configuration TEXT NOT NULL,
    encoding TEXT NOT NULL,
    strategies TEXT NOT NULL,
    clingo_options TEXT NOT NULL,
    time_limit REAL NOT NULL,
    memory_limit INTEGER,
    status TEXT NOT NULL,
    solved INTEGER NOT NULL,
    optimal_for TEXT,
    plan TEXT,
    moves INTEGER,
    pushes INTEGER,
    horizon INTEGER,
    ground_time REAL,
    solve_time REAL,
    total_time REAL,
    peak_memory_mb REAL,
    stats TEXT,
    config TEXT,
    message TEXT,
    finished_at REAL NOT NULL
)
"""


COLUMNS = {name: (kind, "NOT NULL" in rest or "PRIMARY" in rest)
           for name, kind, rest in re.findall(r"^\s+(\w+) (TEXT|INTEGER|REAL)(.*)$", SCHEMA, re.M)}  # name: (type, required)
JSON_COLUMNS = ("stats", "config")  # text holding a JSON object (or null)
STATUSES = {status.value for status in Status}
TIME_COLUMNS = ("ground", "solve", "total")  # a result's times with columns of their own; others go into stats


class Store:
    """A results database; ``writer``: the one process that records runs into it."""

    def __init__(self, path: Path, writer: bool = False) -> None:
        self.path = path
        if path.is_dir() or not path.parent.is_dir():
            raise InputError("a results database is a file in an existing folder", str(path))
        self.lock = take_lock(path) if writer else None
        try:
            self.db = sqlite3.connect(path, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(SCHEMA)
            self.db.commit()
            names = {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}
        except sqlite3.DatabaseError as error:
            self.release()
            raise InputError(f"not a results database ({error})", str(path)) from None
        missing = [name for name in COLUMNS if name not in names]
        if missing:
            self.close()
            raise InputError(f"not a results database of sokoasp: its runs table has no {', '.join(missing[:3])}",
                             str(path))

    def done_keys(self) -> set[str]:
        """The runs a rerun skips: every run recorded, but those that ended in an error (a limit of
        the machine, a full disk, a bug since fixed), which run again."""
        return {row[0] for row in self.db.execute("SELECT key FROM runs WHERE status != ?", (Status.ERROR.value,))}

    def record(self, run: Run, result: Result) -> None:
        times = result.times
        other_times = {f"{name}_seconds": value for name, value in times.items() if name not in TIME_COLUMNS}
        row = {
            "key": run.key,
            "instance": run.instance.name,
            "instance_hash": run.instance.digest,
            "instance_class": run.instance.instance_class,
            "boxes": len(run.instance.level.boxes),
            "configuration": run.configuration,
            "encoding": run.encoding,
            "strategies": ",".join(run.strategies),
            "clingo_options": " ".join(run.clingo_options),
            "time_limit": run.time_limit,
            "memory_limit": run.memory_limit,
            "status": result.status.value,
            "solved": int(result.status.solved),
            "optimal_for": result.optimal_for,
            "plan": result.plan,
            "moves": result.moves,
            "pushes": result.pushes,
            "horizon": result.horizon,
            "ground_time": times.get("ground"),
            "solve_time": times.get("solve"),
            "total_time": times.get("total"),
            "peak_memory_mb": result.stats.get("peak_memory_mb"),
            "stats": json.dumps(result.stats | other_times | phase_columns(result)),  # first_plan_seconds of --prove runs
            "config": json.dumps(result.config),
            "message": result.message,
            "finished_at": time.time(),
        }
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.db:  # one transaction per run: committed before the next run is recorded
            kept = self.db.execute("SELECT solved FROM runs WHERE key = ?", (row["key"],)).fetchone()
            if kept is not None and kept[0] and not row["solved"]:
                return  # a solved run stays solved
            self.db.execute(f"INSERT OR REPLACE INTO runs ({names}) VALUES ({marks})", list(row.values()))

    def rows(self) -> list[dict[str, Any]]:
        """Every row, each checked against the schema (a database is input: it may come from
        elsewhere, or have been edited)."""
        cursor = self.db.execute("SELECT * FROM runs ORDER BY instance, configuration")
        names = [d[0] for d in cursor.description]
        return [checked_row(dict(zip(names, row, strict=True)), str(self.path)) for row in cursor]

    def close(self) -> None:
        """Fold the write-ahead log into the database file, close it, and let the next writer in."""
        if self.lock is not None:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        self.release()

    def release(self) -> None:
        if self.lock is not None:
            self.lock.close()  # closing the file releases its lock
            self.lock = None


def take_lock(path: Path) -> TextIO:
    """The lock of the database's one writer (``DATABASE.lock`` beside the file the path leads to,
    so a link to the database meets the same lock; held until closed or the process ends);
    another writer is refused at once. The lock file is never opened through a link, nor
    truncated."""
    database = path.resolve()
    lock = database.with_name(database.name + ".lock")
    try:
        handle = os.fdopen(os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644), "w")
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputError(f"the lock file {lock} is a link: remove it", str(path)) from None
        raise
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise InputError("another `sokoasp grid run` is writing to this database: wait for it to end, "
                         "or give another --db", str(path)) from None
    return handle


def phase_columns(result: Result) -> dict[str, Any]:
    """What the phases did, for the stats column: the phase whose plan it is and each report."""
    found = {"found_by": result.found_by} if result.found_by else {}
    return found | ({"phases": [asdict(report) for report in result.phases]} if result.phases else {})


def checked_row(row: dict[str, Any], source: str) -> dict[str, Any]:
    """``row`` when each column holds its type (times finite and not negative, the JSON columns
    objects); an input error naming the row otherwise."""
    for name, (kind, required) in COLUMNS.items():
        value = row[name]
        if value is None and not required:
            continue
        if kind == "TEXT":
            fits = isinstance(value, str)
        elif kind == "INTEGER":
            fits = isinstance(value, int) and value >= 0
        else:
            fits = isinstance(value, int | float) and 0 <= value < math.inf
        if fits and name in JSON_COLUMNS:
            try:
                fits = isinstance(json.loads(value), dict | None)
            except ValueError:
                fits = False
        if name == "status" and fits:
            fits = value in STATUSES
        if not fits:
            raise InputError(f"run {str(row.get('key'))[:40]!r}: the column {name} holds {str(value)[:40]!r}, "
                             f"not {'a JSON object' if name in JSON_COLUMNS else 'a status' if name == 'status' else kind.lower()}",
                             source)
    return row


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every finished run in a results database."""
    store = Store(path)
    try:
        return store.rows()
    finally:
        store.close()
