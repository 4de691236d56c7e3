"""Plots from the results database (matplotlib, no display needed): cactus, heatmap, scatter."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sokoasp.tools.grid.report import Row, par_time, summarise  # noqa: E402


def save(figure: plt.Figure, stem: Path) -> list[Path]:
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return paths


def cactus(rows: list[Row], stem: Path) -> list[Path]:
    """Solved instances (x) against the time needed to solve that many (y), per configuration."""
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for configuration in sorted({r["configuration"] for r in rows}):
        times = sorted(float(r["total_time"]) for r in rows if r["configuration"] == configuration and r["solved"])
        axes.step(range(1, len(times) + 1), times, where="post", label=configuration, marker=".")
    axes.set_xlabel("instances solved")
    axes.set_ylabel("time per instance (s)")
    axes.set_yscale("log")
    axes.set_title("Cactus plot")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7)
    return save(figure, stem)


def heatmap(rows: list[Row], stem: Path, statistic: str = "median") -> list[Path]:
    """Configuration x class: share of instances solved (colour) and PAR time (text)."""
    configurations, classes, cells = summarise(rows, statistic)
    share = [[cells[(c, k)].solved / cells[(c, k)].runs if (c, k) in cells else float("nan") for k in classes]
             for c in configurations]
    figure, axes = plt.subplots(figsize=(1.4 * len(classes) + 3, 0.5 * len(configurations) + 1.5))
    image = axes.imshow(share, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    axes.set_xticks(range(len(classes)), classes, rotation=30, ha="right")
    axes.set_yticks(range(len(configurations)), configurations)
    for i, c in enumerate(configurations):
        for j, k in enumerate(classes):
            if (c, k) in cells:
                axes.text(j, i, f"{cells[(c, k)].value:.1f}s", ha="center", va="center", fontsize=7)
    figure.colorbar(image, label="share solved")
    axes.set_title(f"{statistic} time (unsolved = limit) and share solved")
    return save(figure, stem)


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
