"""Fetch level collections that the project never tuned on, for measuring how its solvers
generalise: Debian's cavepacker-data package holds David W. Skinner's Microban II (135
levels) and Sasquatch I-IX (50 each, from KSokoban), GRIGoRusha's levels (140 + 40 special,
public domain) and XSokoban's 90 (not written: ../shared/levels has them). The package is downloaded at a pinned
version and checked against its SHA-256; only the standard library is used (a .deb is an ar
archive holding data.tar.xz). Each set is written as one XSB collection, its levels in the
package's order, each titled by its map file:

    python benchmarks/scripts/debian_levels.py downloads/levels
    sokoasp grid run benchmarks/grids/microban-ii-60-portfolio.toml --db microban-ii.sqlite --workers 1
"""

from __future__ import annotations

import hashlib
import io
import lzma
import tarfile
import urllib.request
from pathlib import Path, PurePosixPath

import click

from sokoasp.cli import run
from sokoasp.errors import SokoaspError

URL = "http://deb.debian.org/debian/pool/main/c/caveexpress/cavepacker-data_2.5.2-1_all.deb"
SHA256 = "22474be83a49e8432c2021e6a1d6616677832b5c889b508fff1b2814174f4b0d"
MAPS = PurePosixPath("usr/share/games/cavepacker/maps")
SETS = {  # collection written: the prefix of its map files
    "microban_ii": "microban02_",
    "gri": "gri0",
    "gri_special": "grigrspecial",
    **{f"sasquatch_{n}": f"sasquatch0{n}_" for n in range(1, 10)},
}


def download(url: str, expected: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            data: bytes = response.read()
    except OSError as error:
        raise SokoaspError(f"{url}: cannot download ({error})") from error
    if hashlib.sha256(data).hexdigest() != expected:
        raise SokoaspError(f"{url}: SHA-256 is not the pinned {expected}")
    return data


def ar_member(archive: bytes, name: str) -> bytes:
    """One member of an ar archive (the container of a .deb)."""
    position = 8  # after the "!<arch>\n" magic
    while position + 60 <= len(archive):
        header = archive[position:position + 60]
        member = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        if member == name:
            return archive[position + 60:position + 60 + size]
        position += 60 + size + size % 2
    raise SokoaspError(f"the package has no {name}")


def map_files(deb: bytes) -> dict[str, str]:
    """The .sok map files of the package, by file name."""
    data = lzma.decompress(ar_member(deb, "data.tar.xz"))
    maps = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for info in tar.getmembers():
            path = PurePosixPath(info.name.removeprefix("./"))
            extracted = tar.extractfile(info) if path.parent == MAPS and path.suffix == ".sok" else None
            if extracted is not None:
                maps[path.stem] = extracted.read().decode("latin-1")
    return maps


def board_text(map_text: str) -> str:
    """The board of a map file: its comment lines (";") and metadata lines ("Author: ...") dropped."""
    return "\n".join(line.rstrip() for line in map_text.splitlines() if line.strip() and line.lstrip()[0] in "#@+$*.-_")


def collection(maps: dict[str, str], prefix: str) -> str:
    names = sorted(name for name in maps if name.startswith(prefix))
    return "".join(f"; {name}\n\n{board_text(maps[name])}\n\n" for name in names)


@click.command(help=__doc__)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def main(folder: Path) -> None:
    maps = map_files(download(URL, SHA256))
    folder.mkdir(parents=True, exist_ok=True)
    for name, prefix in SETS.items():
        text = collection(maps, prefix)
        (folder / f"{name}.sok").write_text(text)
        click.echo(f"{folder / name}.sok: {text.count('; ')} levels")


if __name__ == "__main__":
    run(main)
