"""A rating history as a PNG line chart (matplotlib, Agg), one line per game, readable on a phone."""
from __future__ import annotations

import io

import matplotlib

from bot.i18n import _

matplotlib.use("Agg")  # no screen: draw into memory
from matplotlib.figure import Figure  # noqa: E402

# Okabe–Ito colours with distinct markers: readable with every common colour-vision deficiency
STYLES = [("#0072B2", "o"), ("#D55E00", "s"), ("#009E73", "^"), ("#CC79A7", "D"), ("#E69F00", "v"),
          ("#56B4E9", "P")]


def rating_chart(title: str, series: dict[str, list[float]]) -> bytes:
    """PNG bytes (900×480): each series is a game's rating after each of its rated games."""
    figure = Figure(figsize=(9, 4.8), dpi=100, facecolor="#FAF7F0")
    axes = figure.add_subplot()
    axes.set_facecolor("#FAF7F0")
    for number, (name, points) in enumerate(series.items()):
        colour, marker = STYLES[number % len(STYLES)]
        axes.plot(range(1, len(points) + 1), points, color=colour, marker=marker, linewidth=2.5, markersize=7,
                  label=name)
    axes.set_title(title, fontsize=15, loc="left")
    axes.set_xlabel(_("rated games"), fontsize=12)
    axes.set_ylabel(_("rating (μ − 3σ)"), fontsize=12)
    axes.grid(True, color="#DDD8CC")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.legend(loc="best", fontsize=11)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
