"""One registry per kind of member (encodings, strategies, phases): the shipped members, then
those installed packages register through entry points, then files named by path.

Plugins are looked up the first time a name is not a shipped one or the list is read whole, so
a run that names shipped members alone never scans the installed packages. A name spelled as a
path (with a ``/`` or ending in ``.lp``) is a user's file or folder, read by the kind's loader
and then known by its own name for the rest of the process (not listed: the listings show the
shipped members and the plugins, each with its origin). A plugin or file whose name clashes
with another member is refused.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from sokoasp.errors import InputError

SHIPPED = "sokoasp"


class Named(Protocol):
    @property
    def name(self) -> str: ...


M = TypeVar("M", bound=Named)


def is_path(text: str) -> bool:
    """Whether a member name is spelled as a path: a user's file or folder, not a registered name."""
    return "/" in text or os.sep in text or text.endswith(".lp")


class Registry(MutableMapping[str, M], Generic[M]):
    """The members of one kind by name, in order: shipped, plugins, and members registered from
    Python (``REGISTRY[name] = member``); files read so far are found by name but not listed."""

    def __init__(self, kind: str, group: str, shipped: Callable[[], Iterable[M]],
                 from_path: Callable[[Path], M] | None = None, from_plugin: Callable[[object], M] | None = None) -> None:
        self.kind, self.group = kind, group
        self.shipped, self.from_path, self.from_plugin = shipped, from_path, from_plugin
        self.members: dict[str, M] = {}
        self.origins: dict[str, str] = {}
        self.paths: dict[Path, M] = {}  # files read so far, by their resolved path
        self.files: dict[str, M] = {}  # the same by name: known to lookups, not listed
        self.shipped_read = self.plugins_read = False

    def __getitem__(self, name: str) -> M:
        self.read_shipped()
        if name not in self.members:
            self.read_plugins()
        if name not in self.members and name in self.files:
            return self.files[name]
        return self.members[name]

    def __iter__(self) -> Iterator[str]:
        self.read_shipped()
        self.read_plugins()
        return iter(list(self.members))

    def __len__(self) -> int:
        return len(list(iter(self)))

    def __setitem__(self, name: str, member: M) -> None:
        """Register ``member`` from Python code (a script or a test); one replacing a member of
        that name keeps its origin."""
        assert name == member.name, (name, member.name)
        self.read_shipped()
        self.add(member, self.origins.get(name, "registered in Python"))

    def __delitem__(self, name: str) -> None:
        del self.members[name]
        del self.origins[name]

    def origin(self, name: str) -> str:
        self[name]
        return self.origins[name]

    def get_member(self, text: str) -> M:
        """The member named ``text``, or read from the path ``text``; an InputError lists the known names."""
        if is_path(text) and self.from_path is not None:
            return self.read_path(Path(text))
        try:
            return self[text]
        except KeyError:
            also = " or the path of your own (with a /)" if self.from_path is not None else ""
            raise InputError(f"unknown {self.kind} {text!r}; choose from {', '.join(self)}{also}") from None

    def read_shipped(self) -> None:
        if not self.shipped_read:
            self.shipped_read = True
            for member in self.shipped():
                self.add(member, SHIPPED)

    def read_path(self, path: Path) -> M:
        assert self.from_path is not None
        key = path.resolve()
        if key not in self.paths:
            self.read_shipped()
            member = self.from_path(path)
            self.check_new(member.name, str(path))
            self.paths[key] = self.files[member.name] = member
            self.origins[member.name] = f"file {path}"
        return self.paths[key]

    def read_plugins(self) -> None:
        """Add the members installed packages register under ``group``; an entry point that fails
        to load, is not a member, or clashes with another is an InputError naming it."""
        if self.plugins_read:
            return
        self.plugins_read = True
        from importlib.metadata import entry_points  # only here: a scan of the installed packages

        for point in sorted(entry_points(group=self.group), key=lambda p: p.name):
            where = f"entry point {point.name} = {point.value}" + (f" of package {point.dist.name}" if point.dist else "")
            try:
                loaded = point.load()
            except Exception as error:  # a plugin's import: any error of its code is the plugin's
                raise InputError(f"cannot load {self.kind} plugin: {type(error).__name__}: {error}", where) from None
            member = self.plugin_member(loaded, where)
            if member.name != point.name:
                raise InputError(f"the entry point's name must be the {self.kind}'s, {member.name!r}", where)
            self.check_new(member.name, where)
            self.add(member, f"plugin {point.dist.name if point.dist else point.value}")

    def plugin_member(self, loaded: object, where: str) -> M:
        if self.from_path is not None and isinstance(loaded, str | Path):
            return self.from_path(Path(loaded))
        if self.from_plugin is None:
            raise InputError(f"a {self.kind} plugin's entry point names a path to its file", where)
        try:
            return self.from_plugin(loaded)
        except TypeError as error:
            raise InputError(str(error), where) from None

    def check_new(self, name: str, where: str) -> None:
        if name in self.members or name in self.files:
            raise InputError(f"{self.kind} {name!r} clashes with the {self.kind} of that name from {self.origins[name]}: "
                             "give yours another name", where)

    def add(self, member: M, origin: str) -> None:
        self.members[member.name] = member
        self.origins[member.name] = origin


def of_type(kind: type[M], what: str) -> Callable[[object], M]:
    """A plugin loader that takes objects of ``kind`` as they are."""

    def take(loaded: object) -> M:
        if not isinstance(loaded, kind):
            raise TypeError(f"a {what} plugin's entry point names a {kind.__name__} (or a path), not {type(loaded).__name__}")
        return loaded

    return take
