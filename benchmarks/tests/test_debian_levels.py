"""benchmarks/scripts/debian_levels.py unpacks a .deb (an ar archive holding data.tar.xz) with the
standard library and writes each level set as a collection that sokoasp reads back; tested on
a package built here, so no download is needed."""

from __future__ import annotations

import io
import lzma
import tarfile
from pathlib import Path

import pytest
from scripts import script

from sokoasp.board.xsb import read_levels
from sokoasp.errors import SokoaspError

ROOT = Path(__file__).resolve().parent.parent


def map_file(row: str) -> str:
    wall = "#" * len(row)
    return f"; 1\n\n{wall}\n{row}\n{wall}\nAuthor: somebody\nTitle: one\n"


def tar_xz(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return lzma.compress(buffer.getvalue())


def ar(members: dict[str, bytes]) -> bytes:
    out = b"!<arch>\n"
    for name, data in members.items():
        out += f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n".encode() + data + b"\n" * (len(data) % 2)
    return out


def test_a_package_becomes_collections_in_file_order() -> None:
    debian_levels = script("debian_levels")
    maps = "./usr/share/games/cavepacker/maps/"
    deb = ar({"debian-binary": b"2.0\n", "control.tar.xz": b"x",
              "data.tar.xz": tar_xz({maps + "microban02_0002.sok": map_file("#@$ .#"),
                                     maps + "microban02_0001.sok": map_file("#@$.#"), maps + "microban02_0001.sol": "R",
                                     "./usr/share/doc/README": "no level"})})
    files = debian_levels.map_files(deb)
    assert sorted(files) == ["microban02_0001", "microban02_0002"]
    levels = read_levels(debian_levels.collection(files, "microban02_"), "microban_ii.sok")
    assert [level.title for level in levels] == ["microban02_0001", "microban02_0002"]
    assert [len(level.floor) for level in levels] == [3, 4]


def test_a_package_without_the_member_is_an_error() -> None:
    with pytest.raises(SokoaspError, match="no data.tar.xz"):
        script("debian_levels").ar_member(b"!<arch>\n", "data.tar.xz")


def test_a_download_that_is_not_the_pinned_package_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.deb"
    other.write_bytes(b"!<arch>\n")
    with pytest.raises(SokoaspError, match="SHA-256 is not the pinned"):
        script("debian_levels").download(other.as_uri(), "0" * 64)
    with pytest.raises(SokoaspError, match="cannot download"):
        script("debian_levels").download((tmp_path / "missing.deb").as_uri(), "0" * 64)
