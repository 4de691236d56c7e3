"""Tables from the results database: the thesis-style table (one row per configuration,
one column per instance class; a cell is the mean or median time with unsolved runs
counted as the time limit, as the thesis counts 900 s, and the solved count)."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

Row = dict[str, Any]


def par_time(row: Row) -> float:
    """The run's time, or its time limit when it did not solve (penalised average runtime)."""
    return float(row["total_time"]) if row["solved"] else float(row["time_limit"])


@dataclass(frozen=True)
class Cell:
    value: float
    solved: int
    runs: int

    def text(self) -> str:
        return f"{self.value:.2f} ({self.solved}/{self.runs})"


def summarise(rows: list[Row], statistic: str = "median") -> tuple[list[str], list[str], dict[tuple[str, str], Cell]]:
    """Configurations, classes, and the cell of each (configuration, class)."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        groups[(row["configuration"], row["instance_class"])].append(row)
        groups[(row["configuration"], "all")].append(row)
    aggregate = statistics.median if statistic == "median" else statistics.mean
    cells = {
        key: Cell(aggregate([par_time(r) for r in group]), sum(r["solved"] for r in group), len(group))
        for key, group in groups.items()
    }
    configurations = sorted({r["configuration"] for r in rows})
    classes = sorted({r["instance_class"] for r in rows}) + ["all"]
    return configurations, classes, cells


THESIS_CLASS = re.compile(r"(?:(zone)-)?(rect|nonrect)-(small|large)-(\d+)")  # the generated portfolio's class names


def thesis_order(name: str) -> tuple[int, int, int, int, str]:
    """The thesis's column order: plain before zone-separated, rectangular before
    non-rectangular, small before large, then by boxes; other classes after, by name."""
    match = THESIS_CLASS.fullmatch(name)
    if match is None:
        return (2, 0, 0, 0, name)
    zone, structure, size, boxes = match.groups()
    return (int(zone is not None), int(structure == "nonrect"), int(size == "large"), int(boxes), "")


def thesis_header(name: str) -> str:
    match = THESIS_CLASS.fullmatch(name)
    if match is None:
        return name
    zone, structure, size, boxes = match.groups()
    words = {"rect": "rectangular", "nonrect": "non-rectangular"}
    return f"{'zones, ' if zone else ''}{words[structure]} {size} {boxes}"


def markdown_table(rows: list[Row], statistic: str = "median", thesis: bool = False) -> str:
    """The table: one row per configuration, one column per class (``thesis``: in the thesis's
    layout, structure x size x boxes, with plain headers)."""
    configurations, classes, cells = summarise(rows, statistic)
    if thesis:
        classes = [*sorted(classes[:-1], key=thesis_order), "all"]
    headers = [thesis_header(c) for c in classes] if thesis else classes
    out = [f"| configuration | {' | '.join(headers)} |", "|---" * (len(classes) + 1) + "|"]
    for configuration in configurations:
        texts = [cells[(configuration, c)].text() if (configuration, c) in cells else "-" for c in classes]
        out.append(f"| {configuration} | {' | '.join(texts)} |")
    limit = max((r["time_limit"] for r in rows), default=0)
    out.append("")
    out.append(f"Cells: {statistic} time in seconds, unsolved runs counted as the time limit ({limit:g} s); "
               "(solved/runs).")
    return "\n".join(out)


def csv_table(rows: list[Row], statistic: str = "median") -> str:
    configurations, classes, cells = summarise(rows, statistic)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["configuration", "class", f"{statistic}_par_time", "solved", "runs"])
    for configuration in configurations:
        for c in classes:
            if (configuration, c) in cells:
                cell = cells[(configuration, c)]
                writer.writerow([configuration, c, round(cell.value, 4), cell.solved, cell.runs])
    return buffer.getvalue()


def ratio_table(rows: list[Row], baseline: str) -> str:
    """Per configuration: solved count, median PAR time, and the median per-instance time ratio
    baseline/configuration over instances both ran (> 1 means faster than the baseline)."""
    by_config: dict[str, dict[str, Row]] = defaultdict(dict)
    for row in rows:
        by_config[row["configuration"]][row["instance_hash"]] = row
    if baseline not in by_config:
        raise KeyError(baseline)
    base = by_config[baseline]
    lines = ["| configuration | solved | median time (s) | median speed-up vs baseline | geometric mean speed-up |",
             "|---|---|---|---|---|"]
    for configuration, runs in sorted(by_config.items(), key=lambda kv: kv[0] != baseline):
        common = [h for h in runs if h in base]
        ratios = [max(par_time(base[h]), 1e-3) / max(par_time(runs[h]), 1e-3) for h in common]
        median_time = statistics.median(par_time(r) for r in runs.values())
        solved = sum(r["solved"] for r in runs.values())
        geo = statistics.geometric_mean(ratios) if ratios else float("nan")
        med = statistics.median(ratios) if ratios else float("nan")
        name = configuration + (" (baseline)" if configuration == baseline else "")
        lines.append(f"| {name} | {solved}/{len(runs)} | {median_time:.2f} | {med:.1f}x | {geo:.1f}x |")
    lines.append("")
    lines.append("Unsolved runs count as the time limit, so a speed-up against an unsolved baseline run is a lower bound.")
    return "\n".join(lines)


RUN_COLUMNS = ["instance", "instance_class", "boxes", "configuration", "encoding", "strategies", "clingo_options",
               "status", "solved", "optimal_for", "moves", "pushes", "horizon", "ground_time", "solve_time",
               "total_time", "peak_memory_mb", "time_limit", "memory_limit", "phases", "clingo", "sokoasp", "message"]


def runs_csv(rows: list[Row]) -> str:
    """One CSV row per run: the level, its class, the configuration, the outcome, the limits and
    the versions that ran it."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, RUN_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        config = json.loads(row.get("config") or "{}")
        writer.writerow({**row, "phases": " ".join(config.get("phases", [])), "clingo": config.get("clingo", ""),
                         "sokoasp": config.get("sokoasp", "")})
    return buffer.getvalue()
