"""Names that stay true: every command, option, module and file that a help text, a docs page,
the README, an .lp header or a docstring names exists. A rename that leaves a stale reference
behind fails here."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from sokoasp.cli import cli as main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LP_FILES = sorted((ROOT / "encodings").rglob("*.lp"))
PACKAGE_FILES = sorted((ROOT / "sokoasp").rglob("*.py"))

FILE_REFERENCE = re.compile(r"(?<![\w/.-])((?:sokoasp|encodings|tests|benchmarks|docs)/[\w/.-]*\w\.(?:py|lp|toml|md))")
MODULE_REFERENCE = re.compile(r"(?<![\w/.])(sokoasp(?:\.\w+)+)")
PLUGIN_GROUPS = {"sokoasp.encodings", "sokoasp.strategies", "sokoasp.phases"}  # entry point groups, not only modules
SHORT_REFERENCE = re.compile(r"``(\w+)\.(\w+)(?:\.\w+)*``")  # ``module.name`` by the module's own name
INVOCATION = re.compile(r"(?:^|[\s`(])sokoasp ([a-z][\w-]*)((?: [^\s`|#;)]+)*)")


def commands(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


COMMANDS = dict(commands())
# a module's own name -> its dotted names (several where two folders hold a module of one name)
SHORT_NAMES: dict[str, list[str]] = {}
for module_path in PACKAGE_FILES:
    dotted = ".".join(module_path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    SHORT_NAMES.setdefault(dotted.rsplit(".", 1)[-1], []).append(dotted)


def options_of(command: click.Command) -> set[str]:
    return {name for parameter in command.params for name in (*parameter.opts, *parameter.secondary_opts)} | {"--help"}


def help_texts() -> Iterator[tuple[str, str]]:
    for path, command in COMMANDS.items():
        with click.Context(command, info_name="sokoasp " + " ".join(path)) as context:
            yield f"sokoasp {' '.join(path)} --help", command.get_help(context)


def lp_headers() -> Iterator[tuple[str, str]]:
    for path in LP_FILES:
        lines = path.read_text().splitlines()
        header = "\n".join(line for line in lines[: next((n for n, line in enumerate(lines) if not line.startswith("%")), len(lines))])
        yield str(path.relative_to(ROOT)), header


def docstrings_and_comments() -> Iterator[tuple[str, str]]:
    for path in PACKAGE_FILES:
        text = path.read_text()
        docs = [ast.get_docstring(node) or "" for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)]
        comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
        yield str(path.relative_to(ROOT)), "\n".join(docs + comments)


def texts() -> Iterator[tuple[str, str]]:
    yield from ((str(page.relative_to(ROOT)), page.read_text()) for page in PAGES)
    yield from help_texts()
    yield from lp_headers()
    yield from docstrings_and_comments()


def module_exists(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or a module and attributes of it."""
    parts = dotted.rstrip(".").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


FILE_SUFFIXES = {"py", "lp", "toml", "md", "csv"}  # ``traps.py``, ``members.toml``: file names


def short_name_exists(module: str, name: str) -> bool:
    """Whether some module of that name has ``name``, itself or on one of its classes (a
    configuration's field, as in ``config.encoding``)."""
    for dotted in SHORT_NAMES[module]:
        found = importlib.import_module(dotted)
        classes = [value for value in vars(found).values() if isinstance(value, type)]
        if hasattr(found, name) or any(hasattr(kind, name) for kind in classes):
            return True
    return False


def stale_references(where: str, text: str) -> list[str]:
    stale = [f"{where}: file {name}" for name in FILE_REFERENCE.findall(text)
             if not (ROOT / name).exists() and not (ROOT / "sokoasp" / name).exists()]
    stale += [f"{where}: module {name}" for name in MODULE_REFERENCE.findall(text)
              if name not in PLUGIN_GROUPS and not module_exists(name)]
    stale += [f"{where}: {module}.{name}" for module, name in SHORT_REFERENCE.findall(text)
              if module in SHORT_NAMES and name not in FILE_SUFFIXES and not short_name_exists(module, name)]
    for first, rest in INVOCATION.findall(text):
        words = rest.split()
        path = (first, words[0]) if words and (first, words[0]) in COMMANDS else (first,)
        if path not in COMMANDS:
            if first in {name[0] for name in COMMANDS} or rest.startswith(" -"):
                stale.append(f"{where}: command sokoasp {' '.join(path)}")
            continue
        known = options_of(COMMANDS[path])
        for word in words:
            option = word.split("=", 1)[0]
            if option.startswith("--") and option not in known:
                stale.append(f"{where}: option {option} of sokoasp {' '.join(path)}")
    return stale


def test_every_name_in_the_docs_helps_headers_and_docstrings_exists() -> None:
    stale = [problem for where, text in texts() for problem in stale_references(where, text)]
    assert stale == []


@pytest.mark.parametrize("text, problem", [
    ("run `sokoasp solve --stage-encoding push-macro LEVEL`", "option --stage-encoding"),
    ("see sokoasp/asp/staged.py", "file sokoasp/asp/staged.py"),
    ("``sokoasp.asp.stage_session``", "module sokoasp.asp.stage_session"),
    ("sokoasp grid run --help says `sokoasp solve --portfolio`", "option --portfolio"),
    ("``sokoasp.phases.PHASEZ``", "module sokoasp.phases.PHASEZ"),
    ("the end game (``end_game.finnish``)", "end_game.finnish"),
])
def test_a_stale_name_is_found(text: str, problem: str) -> None:
    assert any(problem in found for found in stale_references("page", text))


def test_true_names_pass() -> None:
    text = ("`sokoasp solve -e push --phase staged=50k --time-limit 60 LEVEL`, sokoasp/phases/staged/search.py, "
            "``sokoasp.phases.PHASES``, sokoasp grid run --db x.sqlite, encodings/push.lp, ``end_game.finish``")
    assert stale_references("page", text) == []
