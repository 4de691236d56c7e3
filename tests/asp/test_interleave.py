"""Interleaved horizons (``--interleave``, driver.run_interleaved) against the breadth-first
oracles: when every horizon's first time slice runs out, so that shorter horizons are asked
again with longer ones grounded, a jump family still finds a plan, replayed, at a horizon no
shorter than the fewest steps, and refutes the horizon below."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from corpus import HAND_MADE, random_corpus
from helpers import assert_replays, level_of
from oracle import bfs_box_moves, bfs_pushes, bfs_slides

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.session import Session
from sokoasp.config import Clock
from sokoasp.errors import InputError

SOLVABLE = {**HAND_MADE, **random_corpus(10)}
# The fewest steps of each jump family (push-macro-parallel: at most the fewest slides).
FEWEST_STEPS: dict[str, Callable[[str], int | None]] = {
    "push-jump": bfs_pushes, "push-macro": bfs_slides, "push-macro-parallel": bfs_slides,
    "push-route": bfs_box_moves, "pull-route": bfs_box_moves,
}


def test_every_jump_family_has_an_oracle() -> None:
    assert sorted(FEWEST_STEPS) == sorted(e.name for e in ENCODINGS.values() if e.jumps)


@pytest.fixture
def first_slices_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every horizon's first time slice ends with no answer (as on a hard level), after its
    steps are grounded: the next round asks the shorter horizons with longer ones grounded."""
    solve_once = Session.solve
    seen: set[tuple[int, int]] = set()

    def solve(self: Session, budget: float | None = None) -> bool | None:
        if budget is not None and (id(self), self.asked) not in seen:
            seen.add((id(self), self.asked))
            return None
        return solve_once(self, budget)

    monkeypatch.setattr(Session, "solve", solve)


@pytest.mark.usefixtures("first_slices_run_out")
@pytest.mark.parametrize("encoding", sorted(FEWEST_STEPS))
def test_interleaved_horizons_find_a_plan_within_the_fewest_steps_and_none_below(encoding: str) -> None:
    revisited = 0
    for name, text in sorted(SOLVABLE.items()):
        level = level_of(text)
        fewest = FEWEST_STEPS[encoding](text)
        assert fewest is not None, name
        lines: list[str] = []
        found = solve(level, SolveConfig(encoding=encoding, interleave=3, max_horizon=fewest + 4), progress=lines.append)
        asked = [int(line.split()[1].rstrip(":")) for line in lines]
        assert found.status.solved and found.horizon is not None, (name, found.message)
        assert found.pushes >= bfs_pushes(text)
        assert_replays(level, found.plan)
        revisited += any(later < earlier for earlier, later in zip(asked, asked[1:], strict=False))
        if encoding != "push-macro-parallel":
            assert found.horizon >= fewest, name
        if encoding != "push-macro-parallel" and fewest > 0:
            below = solve(level, SolveConfig(encoding=encoding, interleave=3, max_horizon=fewest - 1))
            assert below.status is Status.NO_PLAN_UP_TO_HORIZON and below.horizon == fewest - 1, (name, below.message)
    assert revisited, "no level asked a shorter horizon again after a longer one: the test did not test that"


def test_interleaving_a_family_without_jumps_is_refused() -> None:
    """push asks for exactly h pushes at horizon h: a refuted horizon says nothing of shorter ones."""
    with pytest.raises(InputError, match="--interleave needs a jump family"):
        solve(level_of(HAND_MADE["two-boxes"]), SolveConfig(encoding="push", interleave=3))


def test_asking_a_horizon_again_counts_its_rules_once() -> None:
    """clingo reports the last grounding's rules at every solve; a session that solves again
    without grounding adds none."""
    level = level_of(HAND_MADE["two-boxes"])
    encoding = ENCODINGS["push-macro"]
    session = Session(level, encoding, SolveConfig(encoding="push-macro"), Clock(), revisiting=True)
    session.ask(3)
    session.ask(2)  # grounds check(2) only
    once = session.rules
    session.ask(3)
    session.ask(2)
    assert once > 0 and session.rules == once
