"""The HTML report's charts: matplotlib figures rendered to inline SVG text.

Every chart is drawn on a :class:`matplotlib.figure.Figure` made directly (never
through :mod:`matplotlib.pyplot`, so no global figure state is left behind) and saved
as SVG into a string. Output is deterministic: the SVG hash salt is fixed, the date and
other metadata are left out, and glyphs are drawn as paths from matplotlib's bundled
DejaVu Sans, so the page needs no font. The same report gives the same bytes.

Several SVGs sit in one HTML document, so :func:`inline_svg` prefixes every ``id`` a
figure defines (glyphs, clip paths, markers) and every reference to it with a name
unique to the chart; without that, two charts would define ``DejaVuSans-30`` twice.

Charts (each takes report rows and returns SVG markup, or ``""`` when there is nothing
to draw):

- :func:`pass_hat_k_chart`: the pass^k curve of each mode;
- :func:`rates_chart`: the headline rates (shares of trials: wrong variant final and
  shown, unsupported claim, abandoned and missing hand-off) with their Wilson intervals,
  per mode;
- :func:`handoffs_chart`: pass rate against the number of required hand-offs;
- :func:`facet_chart`: pass rate per value of one tag facet (one chart per facet).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from remit.harness.rates import RATES, Rate
from remit.harness.stats import Interval
from remit.reports.model import BreakdownCell, FacetRow, HandoffRow, ModeReport
from remit.reports.safe import html_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

# matplotlib is imported where a chart is drawn, not with this module: it costs about
# 0.4 s, and every remit command would pay it for the HTML report few of them write.

__all__ = [
    "CHART_STYLE",
    "facet_chart",
    "handoffs_chart",
    "inline_svg",
    "mode_colours",
    "pass_hat_k_chart",
    "rates_chart",
]

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#7f7f7f")
"""Colour-blind-friendlier tab10 subset; modes take colours in run order."""

_HEADLINE: tuple[Rate, ...] = tuple(r for r in RATES if not r.per_item)
"""The rates the rates chart draws: the shares of trials."""

_MAX_MARKED = 30
"""Curves with more points than this are drawn without markers and with automatic ticks."""

_PROLOGUE = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_STYLE = re.compile(r"<style[^>]*>.*?</style>\s*", re.DOTALL)
_IDS = re.compile(r'(\bid="|href="#|url\(#)([^")]+)')


CHART_STYLE = "svg.chart *{stroke-linejoin:round;stroke-linecap:butt}\n"
"""The rule matplotlib puts in each SVG's own ``<style>``, scoped to the charts."""


def _style() -> AbstractContextManager[None]:
    """matplotlib settings for the report's charts, in force only inside ``with``:
    a fixed SVG hash salt (stable ids), glyphs as paths from the bundled DejaVu Sans."""
    import matplotlib as mpl  # noqa: PLC0415 - see the note at the imports

    return mpl.rc_context({
        "svg.hashsalt": "remit-report",
        "figure.autolayout": False,  # a figure whose layout has run keeps no engine
        "figure.constrained_layout.use": False,
        "svg.fonttype": "path",
        "font.family": "DejaVu Sans",
        "font.size": 9.0,
        "axes.spines.top": False,
        "axes.spines.right": False,
    })


def mode_colours(modes: Sequence[str]) -> dict[str, str]:
    """A colour per mode, in run order, shared by every chart of a report."""
    return {mode: _PALETTE[i % len(_PALETTE)] for i, mode in enumerate(modes)}


def inline_svg(figure: Figure, name: str, label: str) -> str:
    """A figure as SVG markup ready to sit inside HTML.

    The XML prologue, doctype, namespace declarations, metadata and style are dropped
    (the page includes :data:`CHART_STYLE` instead); ids are prefixed with ``name``;
    the root gets ``role="img"``, an ``aria-label`` and a ``<title>``.

    Args:
        figure: the figure to render.
        name: a prefix unique within the page (letters, digits, ``-``).
        label: what the chart shows, for screen readers and tooltips.
    """
    buffer = io.StringIO()
    with _style():
        _lay_out(figure)
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None,
                                                       "Format": None, "Type": None})
    text = _METADATA.sub("", _PROLOGUE.sub("", buffer.getvalue(), count=1))
    # matplotlib's <style> would apply to the whole HTML page; CHART_STYLE scopes it
    text = _STYLE.sub("", text)
    # inline SVG in HTML needs no namespace declarations; dropping them leaves no URL at all
    text = text.replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', "").replace(
        ' xmlns="http://www.w3.org/2000/svg"', "")
    text = _IDS.sub(lambda m: f"{m.group(1)}{name}-{m.group(2)}", text)
    safe = html_text(label)
    text = text.replace("<svg ", f'<svg class="chart" role="img" aria-label="{safe}" ', 1)
    head_end = text.index(">", text.index("<svg ")) + 1
    return f"{text[:head_end]}\n<title>{safe}</title>{text[head_end:]}".rstrip() + "\n"


def _lay_out(figure: Figure) -> None:
    """Run the figure's constrained layout now, with the SVG renderer, and drop the
    layout engine.

    Saving a figure that has a layout engine draws it twice: once with drawing
    disabled, to run the layout, then for real. Laid out beforehand with the renderer
    the save uses, the figure is drawn once, to the same SVG (the report tests and a
    10,000-trial report compare the bytes).
    """
    from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: PLC0415 - see the imports

    engine = figure.get_layout_engine()
    if engine is None:
        return
    FigureCanvasSVG(figure)  # text is measured by the renderer that draws it
    engine.execute(figure)
    figure.set_layout_engine(None)


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    with _style():
        from matplotlib.figure import Figure  # noqa: PLC0415 - see the note at the imports

        figure = Figure(figsize=(width, height), layout="constrained")
        axes = figure.add_subplot()
    return figure, axes


def _finish(axes: Axes, *, ylabel: str, legend: bool = True) -> None:
    axes.set_ylabel(ylabel)
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    if legend:
        axes.legend(frameon=False, fontsize=8)


def _errors(intervals: Sequence[Interval]) -> list[list[float]]:
    """Error bar lengths below and above each value (never negative)."""
    return [[max(0.0, i.value - i.low) for i in intervals],
            [max(0.0, i.high - i.value) for i in intervals]]


def pass_hat_k_chart(modes: Sequence[ModeReport], colours: dict[str, str]) -> str:
    """pass^k against k, one line per mode (``""`` when no mode has a curve)."""
    if not any(m.pass_hat_k for m in modes):
        return ""
    with _style():
        figure, axes = _figure(5.2, 3.0)
        ks_all = sorted({p.k for m in modes for p in m.pass_hat_k})
        marker = "o" if len(ks_all) <= _MAX_MARKED else ""
        for mode in modes:
            ks = [p.k for p in mode.pass_hat_k]
            axes.plot(ks, [p.value for p in mode.pass_hat_k], marker=marker, markersize=4,
                      color=colours[mode.mode], label=mode.mode)
        if len(ks_all) <= _MAX_MARKED:
            axes.set_xticks(ks_all)
        else:
            from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - see the imports

            axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
        axes.set_xlabel("k (trials that must all pass)")
        axes.set_ylim(0.0, 1.02)
        _finish(axes, ylabel="pass^k")
    return inline_svg(figure, "chart-passk", "pass^k curve per mode")


def _tick(rate: Rate) -> str:
    """A headline rate's label on two short lines (every one is a share of trials)."""
    return (rate.label.removesuffix(" (trials)").replace(" (", "\n(")
            .replace(" claim", "\nclaim").replace(" hand", "\nhand"))


def rates_chart(modes: Sequence[ModeReport], colours: dict[str, str],
                unmeasured: Sequence[str] = ()) -> str:
    """The headline failure rates (shares of trials) per mode as bars with Wilson 95%
    error bars, leaving out the rates in ``unmeasured`` (not measured by the run's
    scorer)."""
    rates = [r for r in _HEADLINE if r.key not in unmeasured]
    if not modes or not rates:
        return ""
    with _style():
        figure, axes = _figure(6.0, 3.0)
        width = 0.8 / len(modes)
        for index, mode in enumerate(modes):
            intervals = [r.of(mode) for r in rates]
            xs = [x + (index - (len(modes) - 1) / 2) * width for x in range(len(rates))]
            axes.bar(xs, [i.value for i in intervals], width=width * 0.92,
                     color=colours[mode.mode], label=mode.mode, alpha=0.85)
            axes.errorbar(xs, [i.value for i in intervals], yerr=_errors(intervals),
                          fmt="none", ecolor="#222222", elinewidth=0.9, capsize=3)
        axes.set_xticks(range(len(rates)), [_tick(r) for r in rates], fontsize=8)
        axes.set_ylim(0.0, max(0.05, *(r.of(m).high for m in modes for r in rates)) * 1.1)
        _finish(axes, ylabel="share of trials (Wilson 95%)")
    return inline_svg(figure, "chart-rates", "failure rates with 95% intervals per mode")


def _cells_by_mode(rows: Sequence[Sequence[BreakdownCell]],
                   modes: Sequence[str]) -> dict[str, list[BreakdownCell | None]]:
    by_mode: dict[str, list[BreakdownCell | None]] = {m: [] for m in modes}
    for cells in rows:
        found = {c.mode: c for c in cells}
        for mode in modes:
            by_mode[mode].append(found.get(mode))
    return by_mode


def handoffs_chart(rows: Sequence[HandoffRow], modes: Sequence[str],
                   colours: dict[str, str]) -> str:
    """Pass rate against the number of required hand-offs, one line per mode."""
    if not rows:
        return ""
    with _style():
        figure, axes = _figure(5.2, 3.0)
        by_mode = _cells_by_mode([r.cells for r in rows], modes)
        spread = 0.08
        for index, mode in enumerate(modes):
            points = [(r.handoffs, c.pass_rate) for r, c in zip(rows, by_mode[mode],
                                                                   strict=True)
                      if c is not None and c.trials]
            if not points:
                continue
            shift = (index - (len(modes) - 1) / 2) * spread
            xs = [h + shift for h, _ in points]
            intervals = [i for _, i in points]
            axes.errorbar(xs, [i.value for i in intervals], yerr=_errors(intervals),
                          marker="o", markersize=4, capsize=3, linewidth=1.2,
                          color=colours[mode], label=mode)
        axes.set_xticks([r.handoffs for r in rows])
        axes.set_xlabel("required hand-offs (owner actions the goal needs)")
        axes.set_ylim(-0.02, 1.05)
        _finish(axes, ylabel="pass rate (95% interval)")
    return inline_svg(figure, "chart-handoffs", "pass rate by required hand-offs per mode")


def facet_chart(facet: str, rows: Sequence[FacetRow], modes: Sequence[str],
                colours: dict[str, str], index: int) -> str:
    """Pass rate per value of one tag facet: horizontal bars per mode with intervals.

    Args:
        facet: the facet's name (``product``, ``perturbation``...).
        rows: the facet's rows (all with ``facet == facet``).
        modes: the modes, in run order.
        colours: :func:`mode_colours`.
        index: the chart's position, to keep its SVG ids unique in the page.
    """
    if not rows:
        return ""
    with _style():
        figure, axes = _figure(5.2, 0.9 + 0.28 * len(rows) * max(1, len(modes)))
        by_mode = _cells_by_mode([r.cells for r in rows], modes)
        height = 0.8 / max(1, len(modes))
        # first value at the top: rows are drawn bottom-up
        positions = list(range(len(rows)))[::-1]
        for number, mode in enumerate(modes):
            cells = by_mode[mode]
            ys = [p + ((len(modes) - 1) / 2 - number) * height for p in positions]
            intervals = [c.pass_rate if c is not None else None for c in cells]
            shown = [(y, i) for y, i in zip(ys, intervals, strict=True) if i is not None]
            if not shown:
                continue
            axes.barh([y for y, _ in shown], [i.value for _, i in shown],
                      height=height * 0.9, color=colours[mode], label=mode, alpha=0.85,
                      xerr=_errors([i for _, i in shown]),
                      error_kw={"ecolor": "#222222", "elinewidth": 0.8, "capsize": 2})
        axes.set_yticks(positions, [r.value for r in rows])
        axes.set_xlim(0.0, 1.05)
        axes.set_xlabel("pass rate (95% interval)")
        axes.grid(axis="x", color="#dddddd", linewidth=0.6)
        axes.set_axisbelow(True)
        axes.legend(frameon=False, fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0),
                    ncols=max(1, len(modes)), borderaxespad=0.2)
    return inline_svg(figure, f"chart-facet{index}", f"pass rate by {facet} per mode")
