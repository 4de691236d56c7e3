"""Levels as PDDL in the style of the IPC Sokoban domain (STRIPS, unit costs: a plan that
is optimal for the planner is optimal in moves), and PDDL plans back to LURD strings."""

from __future__ import annotations

import re

from sokoasp.board.level import DIRECTIONS, LETTER_OF, Cell, Level, add
from sokoasp.errors import SokoaspError

DOMAIN = """(define (domain sokoban)
  (:requirements :strips :typing)
  (:types cell dir)
  (:predicates (player ?c - cell) (box ?c - cell) (clear ?c - cell) (adj ?a ?b - cell ?d - dir))
  (:action move
    :parameters (?from ?to - cell ?d - dir)
    :precondition (and (player ?from) (clear ?to) (adj ?from ?to ?d))
    :effect (and (player ?to) (not (player ?from)) (clear ?from) (not (clear ?to))))
  (:action push
    :parameters (?p ?from ?to - cell ?d - dir)
    :precondition (and (player ?p) (box ?from) (clear ?to) (adj ?p ?from ?d) (adj ?from ?to ?d))
    :effect (and (player ?from) (not (player ?p)) (box ?to) (not (box ?from)) (clear ?p) (not (clear ?to)))))
"""


def cell_name(cell: Cell) -> str:
    return f"c_{cell[0]}_{cell[1]}"


def problem(level: Level, name: str = "level") -> str:
    cells = sorted(level.floor, key=lambda c: (c[1], c[0]))
    init = [f"(player {cell_name(level.player)})"]
    init += [f"(box {cell_name(c)})" for c in sorted(level.boxes)]
    init += [f"(clear {cell_name(c)})" for c in cells if c not in level.boxes and c != level.player]
    for cell in cells:
        for letter, delta in DIRECTIONS.items():
            if add(cell, delta) in level.floor:
                init.append(f"(adj {cell_name(cell)} {cell_name(add(cell, delta))} {letter})")
    goal = " ".join(f"(box {cell_name(c)})" for c in sorted(level.goals))
    safe = re.sub(r"[^A-Za-z0-9_-]", "-", name) or "level"
    return (
        f"(define (problem {safe}) (:domain sokoban)\n"
        f"  (:objects {' '.join(cell_name(c) for c in cells)} - cell l u r d - dir)\n"
        f"  (:init\n    " + "\n    ".join(init) + ")\n"
        f"  (:goal (and {goal})))\n"
    )


STEP = re.compile(r"\((move|push)((?:\s+[\w-]+)+)\)")


def plan_from_pddl(text: str) -> str:
    """LURD string from a plan file of ``(move FROM TO D)`` / ``(push P FROM TO D)`` lines."""
    letters = []
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith(";"):
            continue
        match = STEP.fullmatch(line)
        if not match:
            raise SokoaspError(f"unexpected plan step {line!r}")
        direction = match.group(2).split()[-1]
        if direction not in DIRECTIONS:
            raise SokoaspError(f"unknown direction in plan step {line!r}")
        letters.append(direction.upper() if match.group(1) == "push" else direction)
    return "".join(letters)


assert set(LETTER_OF.values()) == set(DIRECTIONS)
