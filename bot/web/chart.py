"""A rating history as an inline SVG line chart, drawn on the server: no script and no chart library needed,
and it scales with the page (a phone shows the same chart narrower).

Colours and markers as the bots' PNG chart (``bot/render/chart.py``): Okabe–Ito, readable with every common
colour-vision deficiency, one marker shape per game.
"""
from __future__ import annotations

from html import escape

STYLES = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
WIDTH, HEIGHT = 480, 280
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 40


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = (high - low) / (count - 1)
    return [low + i * step for i in range(count)]


def rating_svg(series: dict[str, list[float]], x_label: str, y_label: str) -> str:
    """The SVG markup (safe to put in a page: every text is escaped) of one line per game; x is the number of
    the rated game, y the rating after it."""
    values = [v for points in series.values() for v in points]
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    longest = max(len(points) for points in series.values())
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (longest - 1) if longest > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(y_label)}" '
             f'xmlns="http://www.w3.org/2000/svg">']
    for tick in _ticks(low, high):
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.1f}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">{escape(x_label)}</text>')
    for number, (name, points) in enumerate(series.items()):
        colour = STYLES[number % len(STYLES)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        parts.append(f'<g><title>{escape(name)}</title>'
                     f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="3"/>')
        for i, v in enumerate(points):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{colour}"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def legend(series: dict[str, list[float]]) -> list[tuple[str, str]]:
    """(game, colour) in the order of the lines."""
    return [(name, STYLES[number % len(STYLES)]) for number, name in enumerate(series)]
