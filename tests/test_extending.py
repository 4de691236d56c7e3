"""docs/extending.md runs as written: its files are written, its commands run in order in a
fresh folder (with the checkout's instances/ and examples/ beside them), each with the exit code
the text gives (0 unless it says "exits N"). `pip install` installs into a folder of the test's
own, put on the path of the commands after it, so the test environment stays as it was."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "extending.md"
BLOCK = re.compile(r"```(\w+)([^\n]*)\n(.*?)```", re.S)


def steps() -> list[tuple[str, str, str]]:
    """The doc's files ("file", path, text) and commands ("run", line, expected exit code)."""
    found: list[tuple[str, str, str]] = []
    for kind, info, body in BLOCK.findall(DOC.read_text()):
        named = re.search(r"file=(\S+)", info)
        if named:
            found.append(("file", named.group(1), body))
        elif kind == "console":
            for line in body.splitlines():
                if line.startswith("$ "):
                    command, _, comment = line[2:].partition("#")
                    code = re.search(r"exits (\d+)", comment)
                    found.append(("run", command.strip(), code.group(1) if code else "0"))
    return found


def test_the_doc_has_files_and_commands_for_each_member_kind() -> None:
    kinds = [step for step in steps() if step[0] == "run"]
    assert any("audit" in line for _, line, _ in kinds) and any("pip install" in line for _, line, _ in kinds)
    assert any(code == "1" for _, _, code in kinds)  # the planted bug is caught


def test_every_command_of_the_extending_tutorial_runs(tmp_path: Path) -> None:
    for name in ("instances", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    site = tmp_path / "site"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH", "")]))}
    tools = Path(sys.executable).parent
    for kind, first, second in steps():
        if kind == "file":
            path = tmp_path / first
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(second)
            continue
        words = shlex.split(first)
        if words[:2] == ["pip", "install"]:
            words = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), *words[2:]]
        else:
            words[0] = str(tools / words[0])
        done = subprocess.run(words, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == int(second), f"{first}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, first
    assert (tmp_path / "found" / "audit-no-left-push.sok").is_file()
