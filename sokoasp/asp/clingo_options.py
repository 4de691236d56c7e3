"""The clingo options a user may pass to sokoasp's runs (``--clingo-arg``, a grid's ``options``).

Options are checked by their full names against an allow-list of clasp's search and
preprocessing options, none of which reads or writes a file; clingo would take any unique
prefix of a name (``--configurat`` for ``--configuration``), so prefixes are refused, and no
option reaches a ``clingo.Control`` in the parent before it has passed this list.
"""

from __future__ import annotations

from functools import cache

import clingo

from sokoasp.errors import InputError

CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many")  # clasp's presets

ALLOWED = frozenset("""
configuration share learn-explicit sat-prepro trans-ext eq supp-models no-ufs-check no-gamma eq-dfs
solve-limit parallel-mode global-restarts distribute integrate enum-mode project models opt-mode
opt-stop opt-strategy opt-usc-shrink opt-heuristic lookahead heuristic score-res score-other sign-def
vsids-progress dom-mod save-progress init-watches update-mode acyc-prop seed partial-check
sign-def-disj rand-freq rand-prob no-lookback forget-on-step strengthen otfs update-lbd update-act
reverse-arcs contraction loops restarts reset-restarts counter-restarts block-restarts local-restarts
shuffle deletion del-grow del-cfl del-init del-estimate del-max del-glue del-on-restart const warn
""".split())  # clasp's solving options; none names a file

SHORT = {"-c": "const", "-n": "models", "-t": "parallel-mode", "-W": "warn"}  # each takes the next argument


def check_clingo_args(args: tuple[str, ...], source: str = "--clingo-arg") -> None:
    """Refuse options outside the allow-list, abbreviated names, a ``--configuration`` that is not
    a preset, ``--stats`` and the horizon constant (sokoasp sets both), then values clingo does
    not take, naming ``source`` (where the options were given). clingo's own message is not shown."""
    names = option_names(args, source)
    for name, value in names:
        if name == "stats":
            raise InputError("sokoasp sets --stats itself (every result holds clingo's statistics)", source)
        if name not in ALLOWED:
            raise InputError(f"the clingo option --{name[:40]} is not one sokoasp passes on: give a solving "
                             "option by its full name (see clingo --help=3)", source)
        if name == "configuration" and value not in CONFIGURATIONS:
            raise InputError(f"--configuration takes one of clasp's presets ({', '.join(CONFIGURATIONS)}), "
                             f"not a file or {value[:40]!r}", source)
        if name == "const" and value.partition("=")[0].strip() == "horizon":
            raise InputError("the horizon is sokoasp's to set: give --horizon, not a clingo constant", source)
    if args and not clingo_takes(args):
        raise InputError(f"clingo does not take the option(s) {' '.join(args)[:80]!r} (see clingo --help)", source)


def option_names(args: tuple[str, ...], source: str) -> list[tuple[str, str]]:
    """Each option as (long name, value): ``--name=value``, ``--flag``, or a short option and the
    argument after it. Anything else (a file name, ``@file``) is refused."""
    names: list[tuple[str, str]] = []
    rest = iter(args)
    for arg in rest:
        if arg in SHORT:
            value = next(rest, None)
            if value is None:
                raise InputError(f"the clingo option {arg} needs a value after it", source)
            names.append((SHORT[arg], value))
        elif arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            names.append((name, value))
        else:
            raise InputError(f"{arg[:40]!r} is not a clingo option (give --name=value)", source)
    return names


@cache
def clingo_takes(args: tuple[str, ...]) -> bool:
    """Whether clingo accepts ``args`` (already allow-listed), asked once per set: a parent that
    forks solver workers from several threads must not be inside clingo while another thread forks."""
    try:
        clingo.Control(list(args), logger=lambda code, msg: None)
    except RuntimeError:
        return False
    return True
