"""Tables from a grid's runs: the thesis-style table (one row per configuration, one column per
instance class; a cell is the mean or median time with unsolved runs counted as the time limit,
as the thesis counts 900 s, and the solved count), the thesis's three-table layout, speed-ups
against a baseline, and the runs as CSV (written by ``grid export``, read back for reports)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sokoasp.board.loading import read_text
from sokoasp.errors import InputError

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


AGGREGATES = {"median": statistics.median, "mean": statistics.mean}  # a cell's statistic of its PAR times


def summarise(rows: list[Row], statistic: str = "median") -> tuple[list[str], list[str], dict[tuple[str, str], Cell]]:
    """Configurations, classes, and the cell of each (configuration, class)."""
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        groups[(row["configuration"], row["instance_class"])].append(row)
        groups[(row["configuration"], "all")].append(row)
    aggregate = AGGREGATES[statistic]
    cells = {
        key: Cell(aggregate([par_time(r) for r in group]), sum(r["solved"] for r in group), len(group))
        for key, group in groups.items()
    }
    configurations = sorted({r["configuration"] for r in rows})
    classes = sorted({r["instance_class"] for r in rows}) + ["all"]
    return configurations, classes, cells


THESIS_CLASS = re.compile(r"(?:(zone)-)?(rect|nonrect)-(small|large)-(\d+)")  # the generated portfolio's class names
THESIS_TABLES = ("Rectangular", "Non-rectangular", "Zone-separated", "Other classes")  # the thesis's three, then the rest


def thesis_order(name: str) -> tuple[int, int, int, int, str]:
    """The thesis's column order: plain before zone-separated, rectangular before
    non-rectangular, small before large, then by boxes; other classes after, by name."""
    match = THESIS_CLASS.fullmatch(name)
    if match is None:
        return (2, 0, 0, 0, name)
    zone, structure, size, boxes = match.groups()
    return (int(zone is not None), int(structure == "nonrect"), int(size == "large"), int(boxes), "")


def thesis_place(name: str) -> tuple[str, str]:
    """The class's table in the thesis's layout and its column header there."""
    match = THESIS_CLASS.fullmatch(name)
    if match is None:
        return THESIS_TABLES[3], name
    zone, structure, size, boxes = match.groups()
    if zone:
        return THESIS_TABLES[2], f"{'rect.' if structure == 'rect' else 'non-rect.'} {size} {boxes}"
    return THESIS_TABLES[structure == "nonrect"], f"{size} {boxes}"


def thesis_header(name: str) -> str:
    """A class's name in words: ``zone-rect-small-5`` -> "Zone-separated rect. small 5"."""
    table, column = thesis_place(name)
    return column if table == THESIS_TABLES[3] else f"{table} {column}"


def table_lines(configurations: list[str], columns: list[tuple[str, str]],
                cells: dict[tuple[str, str], Cell]) -> list[str]:
    """A Markdown table: one row per configuration, one column per (header, class)."""
    out = [f"| configuration | {' | '.join(header for header, _ in columns)} |", "|---" * (len(columns) + 1) + "|"]
    for configuration in configurations:
        texts = [cells[(configuration, c)].text() if (configuration, c) in cells else "-" for _, c in columns]
        out.append(f"| {configuration} | {' | '.join(texts)} |")
    return out


def cell_legend(rows: list[Row], statistic: str) -> str:
    limit = max((r["time_limit"] for r in rows), default=0)
    return f"Cells: {statistic} time in seconds, unsolved runs counted as the time limit ({limit:g} s); (solved/runs)."


def markdown_table(rows: list[Row], statistic: str = "median") -> str:
    """One table: one row per configuration, one column per class, and all classes together."""
    configurations, classes, cells = summarise(rows, statistic)
    return "\n".join([*table_lines(configurations, [(c, c) for c in classes], cells), "", cell_legend(rows, statistic)])


def length_table(rows: list[Row]) -> str:
    """Plan length beside time: per configuration, the summed moves and pushes of its plans for the
    instances every configuration solved (so the sums compare like with like)."""
    plans: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for row in rows:
        if row["solved"] and row.get("moves") is not None and row.get("pushes") is not None:
            plans[row["configuration"]][row["instance_hash"]] = (int(row["moves"]), int(row["pushes"]))
    configurations = sorted({row["configuration"] for row in rows})
    common = set.intersection(*(set(plans[name]) for name in configurations)) if configurations else set()
    lines = [f"Plan length on the {len(common)} instances every configuration solved:", "",
             "| configuration | moves | pushes |", "|---|---|---|"]
    for name in configurations:
        lines.append(f"| {name} | {sum(plans[name][key][0] for key in common)} | "
                     f"{sum(plans[name][key][1] for key in common)} |")
    return "\n".join(lines)


def thesis_tables(rows: list[Row], statistic: str = "mean") -> str:
    """The thesis's layout (chapter 5): a table for rectangular, one for non-rectangular and one
    for zone-separated boards, columns by size then boxes; classes of other names in a fourth."""
    configurations, classes, cells = summarise(rows, statistic)
    tables: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name in sorted(classes[:-1], key=thesis_order):
        table, header = thesis_place(name)
        tables[table].append((header, name))
    out: list[str] = []
    for title in (t for t in THESIS_TABLES if t in tables):
        out += [f"**{title}**", "", *table_lines(configurations, tables[title], cells), ""]
    return "\n".join([*out, cell_legend(rows, statistic)])


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


def speedups(rows: list[Row], baseline: str, statistic: str = "median") -> dict[tuple[str, str], float]:
    """(configuration, class) -> the baseline's time over the configuration's (``statistic`` of the
    PAR times), on the instances both ran; class "all": every such instance. > 1: faster."""
    base = {r["instance_hash"]: r for r in rows if r["configuration"] == baseline}
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for row in rows:
        if row["configuration"] != baseline and row["instance_hash"] in base:
            pair = (par_time(base[row["instance_hash"]]), par_time(row))
            pairs[(row["configuration"], row["instance_class"])].append(pair)
            pairs[(row["configuration"], "all")].append(pair)
    aggregate = AGGREGATES[statistic]
    return {key: aggregate([b for b, _ in both]) / max(aggregate([c for _, c in both]), 1e-3)
            for key, both in pairs.items()}


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


RUN_COLUMNS = ["instance", "instance_hash", "instance_class", "boxes", "configuration", "encoding", "strategies", "clingo_options",
               "status", "solved", "optimal_for", "moves", "pushes", "horizon", "ground_time", "solve_time",
               "total_time", "peak_memory_mb", "time_limit", "memory_limit", "phases", "found_by", "clingo", "sokoasp", "message", "plan"]


def runs_csv(rows: list[Row]) -> str:
    """One CSV row per run: the level, its class, the configuration, the outcome, the limits, the
    versions that ran it, the phase that found the plan ("": the horizon loop) and the plan (LURD),
    so a reader can replay it."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, RUN_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        config = json.loads(row.get("config") or "{}")
        found_by = json.loads(row.get("stats") or "{}").get("found_by", "")
        writer.writerow({**row, "instance": portable(row["instance"]), "phases": " ".join(config.get("phases", [])),
                         "found_by": found_by, "clingo": config.get("clingo", ""), "sokoasp": config.get("sokoasp", "")})
    return buffer.getvalue()


def portable(name: str) -> str:
    """An instance name (``file`` or ``file#number``) with the file relative to the working folder
    when it lies inside it, so exported runs name no machine's folders."""
    path, mark, number = name.rpartition("#") if "#" in name else (name, "", "")
    try:
        path = str(Path(path).relative_to(Path.cwd())) if Path(path).is_absolute() else path
    except ValueError:
        pass
    return path + mark + number


CSV_NUMBERS: dict[str, type] = {"boxes": int, "solved": int, "moves": int, "pushes": int, "horizon": int,
                                "memory_limit": int, "ground_time": float, "solve_time": float, "total_time": float,
                                "peak_memory_mb": float, "time_limit": float}
CSV_NEEDED = ("instance", "instance_class", "configuration", "status", "solved", "total_time", "time_limit")


def read_runs_csv(path: Path) -> list[Row]:
    """The runs of a CSV written by ``sokoasp grid export``, typed as the database's rows (a
    missing ``instance_hash`` is the instance's name)."""
    source = str(path)
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    missing = [name for name in CSV_NEEDED if name not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"not a runs CSV of `sokoasp grid export`: no column {missing[0]!r}", source, 1)
    rows: list[Row] = []
    try:
        for row in reader:
            rows.append(typed(row, source, reader.line_num))
    except csv.Error as error:
        raise InputError(f"not valid CSV ({error})", source, reader.line_num) from None
    return rows


def typed(row: dict[str, str], source: str, line: int) -> Row:
    out: Row = dict(row)
    for name, kind in CSV_NUMBERS.items():
        text = (row.get(name) or "").strip()
        try:
            out[name] = kind(text) if text else None
        except ValueError:
            raise InputError(f"column {name!r} holds {text[:20]!r}, not a number", source, line) from None
    if out["solved"] not in (0, 1) or out["time_limit"] is None or not math.isfinite(out["time_limit"]):
        raise InputError("'solved' must be 0 or 1 and 'time_limit' a number of seconds", source, line)
    if out["solved"] and (out["total_time"] is None or not math.isfinite(out["total_time"])):
        raise InputError("a solved run needs its 'total_time'", source, line)
    out["instance_hash"] = row.get("instance_hash") or row["instance"]
    out["plan"] = row.get("plan") or None
    return out
