"""A self-contained HTML page that replays a plan with play/step controls (no network)."""

from __future__ import annotations

import html
import json

from sokoasp.tools.show.frames import Playback
from sokoasp.tools.show.text import board_text

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sokoasp: __TITLE__</title>
<style>
 body { font-family: system-ui, sans-serif; margin: 1.5em; background: #faf7f0; color: #222; }
 #board { font: 28px/1.05 monospace; background: #f3ead7; display: inline-block; padding: .4em .6em; border-radius: 6px; }
 #board span.w { color: #5b4636; } #board span.b { color: #c8893a; } #board span.g { color: #3c9d5d; }
 #board span.p { color: #2b59c3; } #board span.bad { color: #fff; background: #d62728; }
 button { font-size: 1em; margin-right: .3em; } #status.bad { color: #d62728; font-weight: bold; }
 #plan { font-family: monospace; word-break: break-all; max-width: 60em; } #plan b { background: #ffe08a; }
</style></head><body>
<h1>__TITLE__</h1>
<div><button id="start">&#8676;</button><button id="back">&#8592; step</button><button id="play">play</button>
<button id="next">step &#8594;</button><button id="end">&#8677;</button>
<label>speed <input id="speed" type="range" min="1" max="20" value="6"></label></div>
<p id="status"></p>
<pre id="board"></pre>
<p id="plan"></p>
<script>
const DATA = __DATA__;
let index = 0, timer = null;
const $ = (id) => document.getElementById(id);
function paint(text, bad) {
  const cls = {"#": "w", "$": "b", "*": "g", ".": "g", "@": "p", "+": "p"};
  return text.split("").map(c => cls[c] ? `<span class="${(bad && (c === "@" || c === "+")) ? "bad" : cls[c]}">${c}</span>` : c).join("");
}
function show(i) {
  index = Math.max(0, Math.min(DATA.frames.length - 1, i));
  const f = DATA.frames[index], last = index === DATA.frames.length - 1, bad = last && DATA.problem;
  $("board").innerHTML = paint(f.board, bad);
  let status = `move ${f.step}/${DATA.plan.length}, push ${f.pushes}`;
  if (last && DATA.problem) status += ` \u2014 illegal ${DATA.problem}`;
  else if (last && DATA.plan.length) status += DATA.solved ? " \u2014 solved" : " \u2014 boxes off goals";
  $("status").textContent = status;
  $("status").className = bad ? "bad" : "";
  const done = f.step;
  $("plan").innerHTML = DATA.plan.slice(0, done) + (done < DATA.plan.length ? `<b>${DATA.plan[done]}</b>` + DATA.plan.slice(done + 1) : "");
}
function stop() { clearInterval(timer); timer = null; $("play").textContent = "play"; }
$("play").onclick = () => {
  if (timer) return stop();
  if (index === DATA.frames.length - 1) show(0);
  $("play").textContent = "pause";
  timer = setInterval(() => { if (index >= DATA.frames.length - 1) return stop(); show(index + 1); }, 1000 / $("speed").value);
};
$("next").onclick = () => { stop(); show(index + 1); };
$("back").onclick = () => { stop(); show(index - 1); };
$("start").onclick = () => { stop(); show(0); };
$("end").onclick = () => { stop(); show(DATA.frames.length - 1); };
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") $("next").click();
  if (e.key === "ArrowLeft") $("back").click();
  if (e.key === " ") $("play").click();
});
show(location.hash === "#end" ? DATA.frames.length - 1 : 0);
if (location.hash === "#play") $("play").click();  // start playing at once (used by the browser test)
</script></body></html>
"""


def html_page(playback: Playback) -> str:
    data = {
        "plan": playback.plan,
        "problem": playback.problem,
        "solved": playback.solved,
        "frames": [{"step": f.step, "pushes": f.pushes, "board": board_text(playback.level, f)} for f in playback.frames],
    }
    payload = json.dumps(data).replace("</", "<\\/")  # never close the script tag early
    title = html.escape(playback.level.title or "level")
    return PAGE.replace("__TITLE__", title).replace("__DATA__", payload)
