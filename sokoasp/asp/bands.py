"""Clingo controls by band of horizons, for searches that ask many questions in one grounding.

Every step a control has grounded weighs on each of its solve calls, idle steps too, by an order
of magnitude on large levels. A search whose questions are mostly short, with a long
one now and then, asks each horizon in the control of its band (``CONTROL_STEPS``), grounded no
further than the band needs; the controls past the first are made when first asked. Used by the
staged search (``sokoasp.phases.staged.search``) and the room stages (``sokoasp.phases.staged.room_stages``).

Both search in passes, and each pass after the first makes a share of random decisions of its
own (``randomize``: randomized restarts, Gomes, Selman & Kautz 1998), so that it does not walk
the stage plans of the pass before again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

import clingo

from sokoasp.asp.session import Session
from sokoasp.config import Clock

# Horizons up to 8 are asked in the first control, those up to 27 in a second, the longer ones in
# a third. 8 and 27 are horizons of the jump schedule (session.horizons).
CONTROL_STEPS = (8, 27)
RANDOM_DECISIONS = 0.02  # a randomized pass's share of random decisions (clasp --rand-freq)


class HasSession(Protocol):
    session: Session


Control = TypeVar("Control", bound=HasSession)


class Bands(Generic[Control]):
    """One control for each band of horizons, made by ``make`` (the first at once). A question
    (``new_question``) switches each control it asks in once (``switch``: its start state,
    goal, ...), when it first asks there."""

    def __init__(self, make: Callable[[Clock], Control], clock: Clock) -> None:
        self.make = make
        self.controls: list[Control | None] = [make(clock)] + [None] * len(CONTROL_STEPS)
        self.switched: list[int] = []  # the bands switched to the question asked now
        self.seed: int | None = None  # randomize()'s, for the controls made later

    @property
    def first(self) -> Control:
        """The control of the shortest horizons."""
        control = self.controls[0]
        assert control is not None
        return control

    def made(self) -> list[Control]:
        return [control for control in self.controls if control is not None]

    def randomize(self, seed: int) -> None:
        """From now on, every control makes a share of random decisions, seeded by ``seed``."""
        self.seed = seed
        for control in self.made():
            randomize(control.session.control, seed)

    def new_question(self) -> None:
        self.switched = []

    def control(self, horizon: int, clock: Clock, switch: Callable[[Control], None]) -> Control:
        """The control of ``horizon``'s band, made with ``clock`` if need be, and switched to the
        question asked now unless it has been since ``new_question``."""
        band = sum(horizon > steps for steps in CONTROL_STEPS)
        control = self.controls[band]
        if control is None:
            control = self.controls[band] = self.make(clock)
            if self.seed is not None:
                randomize(control.session.control, self.seed)
        if band not in self.switched:
            switch(control)
            self.switched.append(band)
        return control


def randomize(control: clingo.Control, seed: int) -> None:
    """``RANDOM_DECISIONS`` of ``control``'s decisions at random, seeded by ``seed``."""
    solver = control.configuration.solver
    solver.seed = str(seed)  # type: ignore[union-attr]
    solver.rand_freq = str(RANDOM_DECISIONS)  # type: ignore[union-attr]
