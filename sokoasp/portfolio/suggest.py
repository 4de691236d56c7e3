"""Choosing the portfolio's members from grid data (``sokoasp grid report --suggest-portfolio K``):
greedy set cover over the configurations' solved instances. It costs one pass over the rows a
member chosen; the cover it finds is within a factor ln(n) of the smallest."""

from __future__ import annotations

from typing import Any


def choose_members(rows: list[dict[str, Any]], size: int) -> list[str]:
    """Greedy set cover over grid rows: the configuration solving most instances first, then
    the one adding most instances not yet solved (ties: lower total time)."""
    solved: dict[str, set[str]] = {}
    time_of: dict[str, float] = {}
    for row in rows:
        config = row["configuration"]
        solved.setdefault(config, set())
        time_of[config] = time_of.get(config, 0.0) + (row["total_time"] if row["solved"] else row["time_limit"])
        if row["solved"]:
            solved[config].add(row["instance_hash"])
    chosen: list[str] = []
    covered: set[str] = set()
    while len(chosen) < size and len(chosen) < len(solved):
        best = max((c for c in solved if c not in chosen), key=lambda c: (len(solved[c] - covered), -time_of[c]))
        chosen.append(best)
        covered |= solved[best]
    return chosen
