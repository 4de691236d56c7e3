"""Plots from the results database (matplotlib, no display needed): cactus, heatmaps of share
solved and of speed-up against a baseline, scatter."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402

from sokoasp.tools.grid.report import Row, par_time, speedups, summarise, thesis_header, thesis_order  # noqa: E402

SPEEDUP_SCALE = 30.0  # the speed-up heatmap's colours saturate here (and at 1/30): past it the text tells


def save(figure: plt.Figure, stem: Path) -> list[Path]:
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return paths


def cactus(rows: list[Row], stem: Path) -> list[Path]:
    """Solved instances (x) against the time needed to solve that many (y), per configuration."""
    figure, axes = plt.subplots(figsize=(8, 4.5))
    configurations = sorted({r["configuration"] for r in rows})
    colours = plt.get_cmap("tab10" if len(configurations) <= 10 else "tab20")
    for index, configuration in enumerate(configurations):
        times = sorted(float(r["total_time"]) for r in rows if r["configuration"] == configuration and r["solved"])
        axes.step(range(1, len(times) + 1), times, where="post", label=configuration, marker=".",
                  color=colours(index % colours.N))
    axes.set_xlabel("instances solved")
    axes.set_ylabel("time per instance (s)")
    axes.set_yscale("log")
    axes.set_title("Instances solved within a time, per configuration (cactus plot)")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return save(figure, stem)


def heatmap(rows: list[Row], stem: Path, statistic: str = "median", thesis: bool = False) -> list[Path]:
    """Configuration x class: share of instances solved (colour) and PAR time (text); ``thesis``:
    classes in the thesis's order, named in words."""
    configurations, classes, cells = summarise(rows, statistic)
    classes = class_order(classes, thesis)
    share = [[cells[(c, k)].solved / cells[(c, k)].runs if (c, k) in cells else float("nan") for k in classes]
             for c in configurations]
    figure, axes = grid_axes(configurations, classes, thesis)
    image = axes.imshow(share, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    for i, c in enumerate(configurations):
        for j, k in enumerate(classes):
            if (c, k) in cells:
                axes.text(j, i, f"{cells[(c, k)].value:.1f}s", ha="center", va="center", fontsize=7)
    figure.colorbar(image, label="share solved")
    axes.set_title(f"{statistic} time (unsolved = limit) and share solved")
    return save(figure, stem)


def speedup(rows: list[Row], baseline: str, stem: Path, statistic: str = "median", thesis: bool = False) -> list[Path]:
    """Configuration x class: the baseline's PAR time over the configuration's on the instances both
    ran (> 1: faster), on a log colour scale that saturates at 30x so that small differences
    show; a ratio against an unsolved baseline is a lower bound."""
    configurations, classes, _ = summarise(rows, statistic)
    classes = class_order(classes, thesis)
    cells = speedups(rows, baseline, statistic)
    others = [c for c in configurations if c != baseline]
    ratios = [[cells.get((c, k), math.nan) for k in classes] for c in others]
    figure, axes = grid_axes(others, classes, thesis)
    image = axes.imshow(ratios, cmap="RdBu", norm=LogNorm(1 / SPEEDUP_SCALE, SPEEDUP_SCALE, clip=True), aspect="auto")
    for i, line in enumerate(ratios):
        for j, ratio in enumerate(line):
            if math.isfinite(ratio):
                dark = abs(math.log(max(ratio, 1e-9))) > 0.6 * math.log(SPEEDUP_SCALE)
                axes.text(j, i, f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2g}x", ha="center", va="center",
                          fontsize=7, color="white" if dark else "black")
    figure.colorbar(image, label=f"speed-up against {baseline} (blue: faster)", extend="both")
    axes.set_title(f"Speed-up of the {statistic} time against {baseline} on the same instances (unsolved = limit)")
    return save(figure, stem)


def class_order(classes: list[str], thesis: bool) -> list[str]:
    return sorted(classes[:-1], key=thesis_order) + ["all"] if thesis else classes


def grid_axes(configurations: list[str], classes: list[str], thesis: bool) -> tuple[plt.Figure, plt.Axes]:
    """Axes for a configuration x class picture, labelled."""
    figure, axes = plt.subplots(figsize=(0.9 * len(classes) + 4, 0.45 * len(configurations) + 2))
    labels = [thesis_header(k) for k in classes] if thesis else classes
    axes.set_xticks(range(len(classes)), labels, rotation=35, ha="right", fontsize=8)
    axes.set_yticks(range(len(configurations)), configurations, fontsize=8)
    return figure, axes


def scatter(rows: list[Row], first: str, second: str, stem: Path) -> list[Path]:
    """Per instance: time of ``first`` (x) against ``second`` (y); unsolved at the limit."""
    a = {r["instance_hash"]: r for r in rows if r["configuration"] == first}
    b = {r["instance_hash"]: r for r in rows if r["configuration"] == second}
    common = sorted(set(a) & set(b))
    xs = [max(par_time(a[h]), 1e-3) for h in common]
    ys = [max(par_time(b[h]), 1e-3) for h in common]
    figure, axes = plt.subplots(figsize=(5, 5))
    axes.scatter(xs, ys, s=14, alpha=0.7)
    top = max(xs + ys + [1.0])
    axes.plot([1e-3, top], [1e-3, top], color="grey", lw=0.8)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(f"{first} (s)")
    axes.set_ylabel(f"{second} (s)")
    axes.set_title("Per-instance time (unsolved = limit)")
    return save(figure, stem)
