"""The grid's results database (SQLite): one row per finished run, committed at once, so a
killed grid loses nothing and a rerun skips what is done."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from sokoasp.result import Result
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


TIME_COLUMNS = ("ground", "solve", "total")  # a result's times with columns of their own; others go into stats


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(SCHEMA)
        self.db.commit()

    def done_keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM runs")}

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
            self.db.execute(f"INSERT OR REPLACE INTO runs ({names}) VALUES ({marks})", list(row.values()))

    def rows(self) -> list[dict[str, Any]]:
        cursor = self.db.execute("SELECT * FROM runs ORDER BY instance, configuration")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def close(self) -> None:
        self.db.close()


def phase_columns(result: Result) -> dict[str, Any]:
    """What the phases did, for the stats column: the phase whose plan it is and each report."""
    found = {"found_by": result.found_by} if result.found_by else {}
    return found | ({"phases": [asdict(report) for report in result.phases]} if result.phases else {})


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Every finished run in a results database."""
    store = Store(path)
    try:
        return store.rows()
    finally:
        store.close()
