"""Writing output files safely: whole or not at all, never through a link, never into a pipe."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sokoasp.errors import InputError


def writable(path: Path) -> Path:
    """``path`` as an output file: refused when it exists and is no regular file (a folder, a
    FIFO that would block the writer, a device). Returns ``path``."""
    if path.is_dir():
        raise InputError("is a directory, expected a file to write", str(path))
    if path.exists() and not path.is_file():
        raise InputError("not a regular file (a pipe or a device?): give a file to write", str(path))
    return path


def write_new(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a new temporary file beside it, renamed into place: a
    crash leaves the old file whole, and a link at ``path`` is replaced, never written through."""
    if path.is_dir() and not path.is_symlink():
        raise InputError("is a directory, expected a file to write", str(path))
    handle = tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", suffix=".partial",
                                         delete=False, newline="", encoding="utf-8")  # created exclusively
    try:
        with handle:
            handle.write(text)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
    return path


def new_folder(path: Path) -> Path:
    """A folder to write into: made when missing; a link to a folder is refused (files written
    there would land where the link leads)."""
    if path.is_symlink():
        raise InputError("is a symbolic link: give a real folder to write into", str(path))
    path.mkdir(parents=True, exist_ok=True)
    return path
