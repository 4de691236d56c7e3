"""Registry of strategy modules: one source of truth for the CLI, docs and tests.

A strategy is a set of .lp files, one per encoding it supports, under
``encodings/strategies/<file>/<encoding>.lp``. Combinations (Type1, Type2) name several.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sokoasp.asp.encodings import ENCODINGS, encodings_dir
from sokoasp.board.level import Level
from sokoasp.errors import InputError
from sokoasp.sokoban.pairs import pair_bound_facts, pair_facts


class Soundness(str, Enum):
    KEEPS_OPTIMAL = "keeps every optimal plan"
    KEEPS_SOLVABLE = "keeps solvability"
    MAY_LOSE = "may lose solutions"


THESIS_ENCODINGS = ("plain", "incremental", "split", "split-incremental")
PUSH_ENCODINGS = ("push", "push-jump", "push-parallel", "push-macro", "push-macro-parallel")
ROUTE_ENCODINGS = ("push-route", "pull-route")


ENCODINGS_OF_FACTS = PUSH_ENCODINGS  # where a strategy's own facts are read unless it says otherwise


@dataclass(frozen=True)
class Strategy:
    name: str
    thesis_name: str  # the thesis table's row name, or "" for strategies beyond the thesis
    summary: str
    soundness: Soundness
    encodings: tuple[str, ...]
    files: tuple[str, ...]  # strategy folders loaded (several for combinations)
    reconstruction: bool = False  # defined by us where the thesis gives no definition
    clingo_args: tuple[str, ...] = ()  # solver options the strategy needs
    facts: Callable[[Level], str] | None = None  # static facts of its own, computed only when it is chosen
    facts_for: tuple[str, ...] = ENCODINGS_OF_FACTS  # the encodings whose files read them


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in [
        Strategy("ff", "FF", "forbidden fields, listing 4.6 (flags corridor cells too: unsound)",
                 Soundness.MAY_LOSE, THESIS_ENCODINGS, ("ff",)),
        Strategy("dead", "", "exact dead squares from Python (simple deadlocks; for pull-route: backwards), sound FF",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS + PUSH_ENCODINGS + ROUTE_ENCODINGS, ("dead",)),
        Strategy("clutter", "Clutter", "2x2 block of boxes/walls with a box off target, listing 4.8",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS + PUSH_ENCODINGS, ("clutter",)),
        Strategy("wbtc", "WBTC", "more boxes than goals in a wall segment, listing 4.7 generalised",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS + PUSH_ENCODINGS, ("wbtc",)),
        Strategy("freeze", "", "freeze deadlocks: a box off goal that can never move again",
                 Soundness.KEEPS_OPTIMAL, PUSH_ENCODINGS + ("push-route",), ("freeze",)),
        Strategy("bound", "", ("per-state lower bound: box distances to goals (pushes, with two boxes' joint extra "
                  "pushes for push and push-jump; slides for the macro families; boxes off goals (targets) for the "
                  "route families) <= steps left"),
                 Soundness.KEEPS_OPTIMAL, ("push", "push-jump", "push-macro", "push-macro-parallel") + ROUTE_ENCODINGS, ("bound",),
                 facts=pair_bound_facts, facts_for=("push", "push-jump")),
        Strategy("pairs", "", ("two-box deadlocks: two boxes that cannot both reach goals even alone "
                  "(a table of every two-box state, searched once per level)"),
                 Soundness.KEEPS_OPTIMAL, PUSH_ENCODINGS, ("pairs",), facts=pair_facts),
        Strategy("corral", "", ("PI-corral pruning: when every push of a corral's boxes goes inwards and can be "
                  "made now, push one of them next"),
                 Soundness.KEEPS_OPTIMAL, ("push", "push-jump", "push-macro"), ("corral",)),
        Strategy("commute", "", ("partial-order reduction: of two pushes (push-macro: slides) in a row that "
                  "commute (same state either way), only one order"),
                 Soundness.KEEPS_OPTIMAL, ("push", "push-macro"), ("commute",)),
        Strategy("straight", "", "no slide continues the slide just before (same box, same direction): one longer slide does it",
                 Soundness.KEEPS_OPTIMAL, ("push-macro",), ("straight",)),
        Strategy("relevance", "", "relevance cuts: no two pushes in a row far from the previous push (opt-in)",
                 Soundness.MAY_LOSE, ("push", "push-jump"), ("relevance",)),
        Strategy("tunnel", "", "no-influence pushes: a box pushed into a tunnel is pushed on at once (opt-in)",
                 Soundness.MAY_LOSE, ("push", "push-jump", "push-parallel"), ("tunnel",)),
        Strategy("pack", "", "goal-room packing: goals filled inside out, boxes pushed onto goals stay (opt-in)",
                 Soundness.MAY_LOSE, PUSH_ENCODINGS, ("pack",)),
        Strategy("guide", "", "domain heuristic: try pushes towards the nearest goal first (prunes nothing)",
                 Soundness.KEEPS_OPTIMAL, PUSH_ENCODINGS + ROUTE_ENCODINGS, ("guide",), clingo_args=("--heuristic=Domain",)),
        Strategy("inertia", "", "domain heuristic: a box first stays where it was (prunes nothing)",
                 Soundness.KEEPS_OPTIMAL, PUSH_ENCODINGS, ("inertia",), clingo_args=("--heuristic=Domain",)),
        Strategy("moob", "MOOB", "no move off the board rectangle, listing 4.9",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS, ("moob",)),
        Strategy("ntb", "NTB", "no move undoing a non-push move, listing 4.10 (fixed)",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS, ("ntb",)),
        Strategy("type1", "Type1", "our reconstruction: clutter + moob + ntb",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS, ("clutter", "moob", "ntb"), True),
        Strategy("type2", "Type2", "our reconstruction: clutter + moob + ntb + wbtc",
                 Soundness.KEEPS_OPTIMAL, THESIS_ENCODINGS, ("clutter", "moob", "ntb", "wbtc"), True),
    ]
}


def get_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name.lower()]
    except KeyError:
        raise InputError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}") from None


# Pairs whose cuts are each proven to keep an optimal plan, but not both at once (two symmetry
# cuts may each keep only a plan the other cuts).
NOT_PROVEN_TOGETHER = (frozenset({"commute", "corral"}),)


def check_supported(names: tuple[str, ...], encoding: str) -> None:
    chosen = {get_strategy(name).name for name in names}
    for pair in NOT_PROVEN_TOGETHER:
        if pair <= chosen:
            raise InputError(f"strategies {' and '.join(sorted(pair))} are not proven to keep an optimal plan together; "
                             "choose one of them")
    for name in names:
        strategy = get_strategy(name)
        if encoding not in strategy.encodings:
            raise InputError(
                f"strategy {strategy.name!r} does not support encoding {encoding!r} "
                f"(it supports {', '.join(strategy.encodings)})"
            )


def strategy_paths(names: tuple[str, ...], encoding: str) -> list[Path]:
    """The .lp files to load, each once, in a stable order."""
    folders: list[str] = []
    for name in names:
        for folder in get_strategy(name).files:
            if folder not in folders:
                folders.append(folder)
    return [strategy_file(folder, encoding) for folder in folders]


def strategy_file(folder: str, encoding: str) -> Path:
    """The strategy's file for this encoding; the push families share ``push.lp`` unless a
    family has its own file (push-macro-parallel falls back to push-macro's, then push.lp;
    pull-route reads the atoms push-route does, and its facts are turned round, so it shares
    push-route's files)."""
    folder_path = encodings_dir() / "strategies" / folder
    candidates = [encoding]
    if encoding == "pull-route":
        candidates.append("push-route")
    if encoding.startswith("push-macro"):
        candidates.append("push-macro")
    if encoding.startswith("push"):
        candidates.append("push")
    for name in candidates:
        if (folder_path / f"{name}.lp").exists():
            return folder_path / f"{name}.lp"
    return folder_path / f"{encoding}.lp"


def strategy_clingo_args(names: tuple[str, ...]) -> list[str]:
    args: list[str] = []
    for name in names:
        args += [a for a in get_strategy(name).clingo_args if a not in args]
    return args


def strategy_facts(names: tuple[str, ...], encoding: str, level: Level) -> str:
    """The static facts of the chosen strategies that compute their own and that ``encoding``'s
    strategy files read (each once)."""
    makers: list[Callable[[Level], str]] = []
    for name in names:
        strategy = get_strategy(name)
        maker = strategy.facts
        if maker is not None and encoding in strategy.facts_for and maker not in makers:
            makers.append(maker)
    return "".join(maker(level) for maker in makers)


def soundness_of(names: tuple[str, ...]) -> Soundness:
    """The weakest guarantee of a combination."""
    order = list(Soundness)
    return max((get_strategy(n).soundness for n in names), key=order.index, default=Soundness.KEEPS_OPTIMAL)


assert all(e in ENCODINGS for s in STRATEGIES.values() for e in s.encodings)
