"""Seeing plans: frames follow the simulator, illegal moves are highlighted, every output
format is written, and the HTML player works in a real headless browser."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import level_of
from PIL import Image
from test_cli import run

from sokoasp.board.simulator import replay
from sokoasp.tools.show.frames import play
from sokoasp.tools.show.html import html_page
from sokoasp.tools.show.picture import animate, picture
from sokoasp.tools.show.text import ascii_playback

PLAN = "urDldRRluurD"  # two-boxes, a valid 12-move plan
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_frames_follow_the_simulator() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    playback = play(level, PLAN)
    assert playback.solved and not playback.problem and len(playback.frames) == len(PLAN) + 1
    assert playback.frames[-1].boxes == replay(level, PLAN).boxes
    assert [f.pushes for f in play(level, PLAN, every="push").frames] == [0, 1, 2, 3, 4]


def test_illegal_plan_stops_at_the_first_illegal_move() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    playback = play(level, "urDllll")
    assert playback.problem.startswith("step 5") and "wall" in playback.problem
    assert playback.frames[-1].step == 4
    text = ascii_playback(playback)
    assert "!! illegal step 5" in text


def test_pictures_and_animation(tmp_path: Path) -> None:
    level = level_of(HAND_MADE["two-boxes"])
    playback = play(level, PLAN, every="push")
    for name in ("end.png", "end.svg"):
        assert picture(playback, tmp_path / name, shade_dead=True).stat().st_size > 1000
    gif = animate(playback, tmp_path / "plan.gif")
    with Image.open(gif) as image:
        assert image.n_frames == len(playback.frames)


def test_show_command_outputs_and_exit_codes(tmp_path: Path) -> None:
    source = tmp_path / "l.sok"
    source.write_text(HAND_MADE["two-boxes"])
    code, out = run("show", "--solve", "push", "-o", str(tmp_path / "a.html"), "-o", str(tmp_path / "a.gif"), str(source))
    assert code == 0 and "-- solved" in out and (tmp_path / "a.gif").exists()
    code, out = run("show", "--plan", "urDllll", "-o", str(tmp_path / "bad.png"), str(source))
    assert code == 7 and "illegal" in out and (tmp_path / "bad.png").exists()
    code, out = run("show", "-o", str(tmp_path / "x.bmp"), str(source))
    assert code == 7 and "unknown output type" in out


def test_html_is_self_contained() -> None:
    page = html_page(play(level_of(HAND_MADE["two-boxes"]), PLAN))
    assert "http://" not in page and "https://" not in page and "<script src" not in page


def browser_dom(page: Path, fragment: str, profile: Path) -> str:
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--virtual-time-budget=20000", "--dump-dom", f"{page.as_uri()}{fragment}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120).stdout


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (installed by .ci/run)")
def test_html_player_in_headless_chromium(tmp_path: Path) -> None:
    level = level_of(HAND_MADE["two-boxes"])
    good, bad = tmp_path / "good.html", tmp_path / "bad.html"
    good.write_text(html_page(play(level, PLAN)))
    bad.write_text(html_page(play(level, "urDllll")))
    played = browser_dom(good, "#play", tmp_path / "p1")
    assert f"move {len(PLAN)}/{len(PLAN)}, push 4 — solved" in played  # the play button ran to the end
    assert 'class="g">*</span>' in played
    assert "move 0/" in browser_dom(good, "", tmp_path / "p2")
    broken = browser_dom(bad, "#end", tmp_path / "p3")
    assert 'class="bad"' in broken and "illegal step 5" in broken
