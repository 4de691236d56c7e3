"""Registry of strategy modules: one source of truth for the CLI, docs and tests.

A strategy is a folder of .lp files, one per encoding family (or group of families) it supports:
``encodings/strategies/<name>/``, a user's folder named by path, or a plugin's. Each file's
header (``STRATEGY_KEYS``, see ``sokoasp.asp.headers``) says which strategy it belongs to, the
families it serves and the soundness it claims; the files of a folder agree on the claim.
Combinations (Type1, Type2) load several strategies together and claim the weakest soundness
of their parts.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sokoasp.asp.encodings import ENCODINGS, SHIPPED_FAMILIES, encodings_dir
from sokoasp.asp.headers import Header, read_header
from sokoasp.board.level import Level
from sokoasp.errors import InputError
from sokoasp.registry import SHIPPED, Registry, is_path, of_type


class Soundness(str, Enum):
    KEEPS_OPTIMAL = "keeps every optimal plan"
    KEEPS_SOLVABLE = "keeps solvability"
    MAY_LOSE = "may lose solutions"


CLAIMS = {"keeps-optimal": Soundness.KEEPS_OPTIMAL, "keeps-solvable": Soundness.KEEPS_SOLVABLE,
          "may-lose": Soundness.MAY_LOSE}  # a header's spelling of each claim
STRATEGY_KEYS = frozenset({"strategy", "summary", "families", "soundness", "thesis", "clingo", "facts"})
SHARED_KEYS = ("strategy", "summary", "soundness", "thesis", "clingo")  # the files of one strategy agree on these
MOST_FILES = 64  # files of one strategy folder: far more than there are families
MAKER = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")  # module:function


@dataclass(frozen=True)
class StrategyFile:
    """One program of a strategy: the families it serves and the Python facts it reads, if any
    (``module:function`` taking a Level and giving facts, called only when the file is loaded)."""

    path: Path
    families: tuple[str, ...]
    facts: str = ""
    line: int = 0  # of the families, for errors


@dataclass(frozen=True)
class Strategy:
    name: str
    thesis_name: str  # the thesis table's row name, or "" for strategies beyond the thesis
    summary: str
    soundness: Soundness
    encodings: tuple[str, ...]  # the families it supports
    files: tuple[StrategyFile, ...]  # its programs (a combination: its parts')
    reconstruction: bool = False  # defined by us where the thesis gives no definition
    clingo_args: tuple[str, ...] = ()  # solver options the strategy needs

    @property
    def combination(self) -> bool:
        """Whether it loads several strategies' folders together."""
        return len({file.path.parent for file in self.files}) > 1

    def files_for(self, encoding: str) -> tuple[StrategyFile, ...]:
        return tuple(file for file in self.files if encoding in file.families)


def strategy_from_folder(folder: Path) -> Strategy:
    """The strategy whose programs are the .lp files of ``folder``, from their headers; raises
    InputError naming the file and line of anything wrong."""
    if not folder.is_dir():
        raise InputError("a strategy is a folder of .lp files, one per family it serves; "
                         + ("this is not a folder" if folder.exists() else "no such folder"), str(folder))
    paths = sorted(folder.glob("*.lp"))
    if not paths or len(paths) > MOST_FILES:
        raise InputError("the strategy folder holds no .lp file" if not paths else
                         f"the strategy folder holds {len(paths)} .lp files: at most {MOST_FILES}, one per family", str(folder))
    headers = [read_header(path, STRATEGY_KEYS) for path in paths]
    first = headers[0]
    for header in headers[1:]:
        for key in SHARED_KEYS:
            if header.text(key, "") != first.text(key, ""):
                raise header.error(f"{key} differs from {first.path.name}'s: the files of a strategy agree on it", key)
    files = tuple(strategy_file(header) for header in headers)
    served = [family for file in files for family in file.families]
    twice = sorted({family for family in served if served.count(family) > 1})
    if twice:
        raise InputError(f"two files serve family {twice[0]!r}: each family has one file", str(folder))
    order = {family: rank for rank, family in enumerate(SHIPPED_FAMILIES)}
    served.sort(key=lambda family: order.get(family, len(order)))
    return Strategy(name=first.name("strategy"), thesis_name=first.text("thesis", ""), summary=first.text("summary"),
                    soundness=CLAIMS[first.choice("soundness", tuple(CLAIMS))], encodings=tuple(served), files=files,
                    clingo_args=first.words("clingo", ""))


def strategy_file(header: Header) -> StrategyFile:
    families = header.words("families")
    facts = header.text("facts", "")
    if facts and not MAKER.fullmatch(facts):
        raise header.error(f"facts names a Python function as module:function, not {facts!r}", "facts")
    if header.text("clingo", ""):
        from sokoasp.asp.clingo_options import check_clingo_args

        try:
            check_clingo_args(header.words("clingo"))
        except InputError as error:
            raise header.error(error.problem, "clingo") from None
    return StrategyFile(header.path, families, facts, header.lines["families"])


def combination(name: str, thesis_name: str, parts: tuple[Strategy, ...]) -> Strategy:
    """The strategies ``parts`` loaded together: the families all serve, the weakest claim."""
    summary = f"our reconstruction: {' + '.join(part.name for part in parts)}"
    families = tuple(family for family in parts[0].encodings if all(family in part.encodings for part in parts))
    return Strategy(name, thesis_name, summary, weakest(part.soundness for part in parts), families,
                    tuple(file for part in parts for file in part.files), reconstruction=True,
                    clingo_args=tuple(dict.fromkeys(arg for part in parts for arg in part.clingo_args)))


SHIPPED_FOLDERS = ("ff", "dead", "clutter", "wbtc", "freeze", "bound", "pairs", "corral", "commute", "straight",
                   "relevance", "tunnel", "pack", "guide", "inertia", "moob", "ntb")  # the listing's order


def shipped_strategies() -> list[Strategy]:
    folders = {name: strategy_from_folder(encodings_dir() / "strategies" / name) for name in SHIPPED_FOLDERS}
    type1 = tuple(folders[name] for name in ("clutter", "moob", "ntb"))
    return [*folders.values(), combination("type1", "Type1", type1), combination("type2", "Type2", (*type1, folders["wbtc"]))]


STRATEGIES: Registry[Strategy] = Registry("strategy", "sokoasp.strategies", shipped_strategies, strategy_from_folder,
                                          of_type(Strategy, "strategy"))


def get_strategy(name: str) -> Strategy:
    """The strategy registered as ``name`` (any case), or read from the folder ``name`` spells."""
    return STRATEGIES.get_member(name if is_path(name) else name.lower())


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
            check_families(strategy)
            own = None if STRATEGIES.origin(strategy.name) == SHIPPED or strategy.combination else str(strategy.files[0].path.parent)
            raise InputError(f"strategy {strategy.name!r} does not support encoding {encoding!r} (it supports "
                             f"{', '.join(strategy.encodings)}{'; no file of the folder names it in its families' if own else ''})",
                             own)


def check_families(strategy: Strategy) -> None:
    """Refuse a family its files name that no encoding has (a typo, or a family of your own whose
    file -e has not named), naming the file and line."""
    for file in strategy.files:
        for family in file.families:
            if family not in ENCODINGS:
                raise InputError(f"unknown family {family!r} (known: {', '.join(ENCODINGS)}; a family of your own is "
                                 "known once -e names its file)", str(file.path), file.line)


def strategy_paths(names: tuple[str, ...], encoding: str) -> list[Path]:
    """The .lp files to load, each once, in a stable order."""
    return list(dict.fromkeys(file.path for file in chosen_files(names, encoding)))


def chosen_files(names: tuple[str, ...], encoding: str) -> list[StrategyFile]:
    return [file for name in names for file in get_strategy(name).files_for(encoding)]


def strategy_clingo_args(names: tuple[str, ...]) -> list[str]:
    args: list[str] = []
    for name in names:
        args += [a for a in get_strategy(name).clingo_args if a not in args]
    return args


def strategy_facts(names: tuple[str, ...], encoding: str, level: Level) -> str:
    """The static facts computed in Python that the chosen strategies' files for ``encoding``
    read (each maker once)."""
    makers = dict.fromkeys(file.facts for file in chosen_files(names, encoding) if file.facts)
    return "".join(fact_maker(maker)(level) for maker in makers)


def fact_maker(spelled: str) -> Callable[[Level], str]:
    module, _, function = spelled.partition(":")
    try:
        maker: Callable[[Level], str] = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as error:
        raise InputError(f"a strategy's facts name {spelled!r}, which cannot be imported: {error}") from None
    return maker


def weakest(claims: Iterable[Soundness]) -> Soundness:
    order = list(Soundness)
    return max(claims, key=order.index, default=Soundness.KEEPS_OPTIMAL)


def soundness_of(names: tuple[str, ...]) -> Soundness:
    """The weakest guarantee of a combination."""
    return weakest(get_strategy(n).soundness for n in names)
