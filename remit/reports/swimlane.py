"""A trial's swimlane: the four parties on horizontal lanes, its events along the trail.

Drawn as hand-written SVG (a report may hold thousands of trials; a matplotlib figure
per trial would cost far more time and bytes). The x axis is the trail's steps in
order, one column per step that has a message or a decision, labelled with the step
and the simulated minute, so long idle waits do not stretch the picture.

Marks (each carries a ``<title>``, the browser's tooltip, so no script is needed):

- a message is a thin line with an arrowhead from the sender's lane to the
  addressee's: grey for ``message``, blue for ``ask``;
- a hand-off is a thick orange line: solid when ``request_action`` opens it, dotted
  for ``follow_up``;
- an authority decision is a square on the acting role's lane, green when allowed and
  red when denied, its tooltip giving every unmet condition (a denial's reasons) in
  full; when an allowed write was decided by another role's grant (the agent acting on
  ``g-finance-approve@agent``), a purple dotted line joins it to a hollow circle on the
  lane of the role whose authority was used;
- the divergence (:func:`remit.reports.divergence`: where the agent's choices made the
  failure inevitable) is a red band across all lanes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from remit.reports.model import ApprovalTrail, DecisionRow, TranscriptLine
from remit.reports.safe import html_text

__all__ = ["LANES", "SWIMLANE_LEGEND", "SWIMLANE_STYLE", "swimlane_svg"]

LANES: tuple[tuple[str, str], ...] = (
    ("agent", "agent"),
    ("buyer", "buyer"),
    ("technical_owner", "technical owner"),
    ("finance", "finance"),
)
"""The lanes, top to bottom: (role value, label)."""

SWIMLANE_LEGEND = (
    '<p class="legend">Swimlanes: <span class="k k-msg">&#8594;</span> message '
    '<span class="k k-ask">&#8594;</span> ask '
    '<span class="k k-ho">&#8594;</span> hand-off request (dotted: follow-up) '
    '<span class="k k-ok">&#9632;</span> decision allowed '
    '<span class="k k-no">&#9632;</span> decision denied '
    '<span class="k k-auth">&#9675;</span> authority of another role used '
    '<span class="k k-div">&#9646;</span> first divergence from the plan. '
    "Hover a mark for its details.</p>"
)
"""The key to the swimlane marks, shown once above the trials."""

_LEFT = 104
_TOP = 14
_LANE = 30
_RIGHT = 12
_BOTTOM = 26
_MAX_WIDTH = 1400
_COLUMN = 30
_MIN_COLUMN = 7

_MESSAGE_CLASS = {"message": "t-msg", "ask": "t-ask", "request_action": "t-ho",
                  "follow_up": "t-fu", "withdraw": "t-wd"}
"""CSS class per message tool; the page's style sheet (SWIMLANE_STYLE) colours them."""

SWIMLANE_STYLE = """
svg.swimlane{display:block;font:10px "DejaVu Sans",sans-serif}
svg.swimlane .lane{font-size:11px;fill:#1b1f23}
svg.swimlane .ax{font-size:9px;fill:#5a6470;text-anchor:middle}
svg.swimlane .ax.end{text-anchor:end}
svg.swimlane .l0{fill:#f6f8fa}svg.swimlane .l1{fill:#fff}
svg.swimlane .ll{stroke:#c8ccd0;stroke-width:.8}
svg.swimlane .dv{fill:#d62728;fill-opacity:.16;stroke:#d62728;stroke-width:1}
svg.swimlane polygon{stroke:none}
svg.swimlane .t-msg{stroke:#8a8a8a;fill:#8a8a8a;stroke-width:1.2}
svg.swimlane .t-ask{stroke:#1f77b4;fill:#1f77b4;stroke-width:1.4}
svg.swimlane .t-ho{stroke:#e07b00;fill:#e07b00;stroke-width:2.6}
svg.swimlane .t-fu{stroke:#e07b00;fill:#e07b00;stroke-width:2;stroke-dasharray:2 2}
svg.swimlane .t-wd{stroke:#e07b00;fill:#e07b00;stroke-width:1.4;stroke-dasharray:5 3}
svg.swimlane .ok{fill:#2ca02c;stroke:#1a1a1a;stroke-width:.6}
svg.swimlane .no{fill:#d62728;stroke:#1a1a1a;stroke-width:.6}
svg.swimlane .au{stroke:#9467bd;stroke-width:1.4;stroke-dasharray:2 2}
svg.swimlane .auc{fill:#fff;stroke:#9467bd;stroke-width:1.6}
"""
"""The swimlanes' CSS, for the page's style sheet (marks carry classes, not colours)."""


@functools.lru_cache(maxsize=4096)  # a page draws the same few hundred coordinates
def _n(value: float) -> str:
    """A coordinate, short: ``12`` or ``12.5``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _lane_y(role: str | None) -> float | None:
    for index, (value, _) in enumerate(LANES):
        if value == role:
            return _TOP + _LANE / 2 + index * _LANE
    return None


def _arrow(x: float, y1: float, y2: float) -> str:
    """An arrowhead at (x, y2) pointing away from y1."""
    size = 5.0 if y2 > y1 else -5.0
    return (f'<polygon points="{_n(x)},{_n(y2)} {_n(x - 3.5)},{_n(y2 - size)} '
            f'{_n(x + 3.5)},{_n(y2 - size)}"/>')


def _message(line: TranscriptLine, x: float) -> str:
    y1, y2 = _lane_y(line.sender), _lane_y(line.to)
    css = _MESSAGE_CLASS.get(line.tool, "t-msg")
    handoff = f" [{line.handoff_id}]" if line.handoff_id else ""
    tip = html_text(f"{line.step} @{line.minute}m {line.sender} {line.tool} -> {line.to}{handoff}")
    if y1 is None or y2 is None or y1 == y2:
        y = y1 if y1 is not None else y2
        if y is None:
            return ""
        return (f'<circle class="{css}" cx="{_n(x)}" cy="{_n(y)}" r="3"><title>{tip}</title>'
                "</circle>")
    end = y2 - 6 if y2 > y1 else y2 + 6
    return (f'<g class="{css}"><title>{tip}</title><line x1="{_n(x)}" y1="{_n(y1)}" '
            f'x2="{_n(x)}" y2="{_n(end)}"/>{_arrow(x, y1, y2 - (1 if y2 > y1 else -1))}</g>')


def _decision(row: DecisionRow, x: float) -> str:
    y = _lane_y(row.role)
    if y is None:
        return ""
    verdict = "allowed" if row.allowed else "DENIED"
    deciding = ", ".join(row.deciding) or "no grant"
    reasons = row.unmet or (() if row.allowed else row.reasons)
    why = "".join(f"; {reason}" for reason in reasons)  # in full: a tooltip wraps
    tip = html_text(f"{row.step} @{row.minute}m {row.role} {row.action} {verdict} by "
                    f"{deciding}{why}")
    square = (f'<rect class="{"ok" if row.allowed else "no"}" x="{_n(x - 4.5)}" '
              f'y="{_n(y - 4.5)}" width="9" height="9"><title>{tip}</title></rect>')
    other = _lane_y(row.authority) if row.allowed and row.authority else None
    if other is None or row.authority == row.role:
        return square
    return (f'<line class="au" x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x)}" y2="{_n(other)}"/>'
            f'<circle class="auc" cx="{_n(x)}" cy="{_n(other)}" r="4.5"><title>{tip} '
            f"(under {html_text(row.authority or '')}'s authority)</title></circle>{square}")


def _columns(trail: ApprovalTrail) -> list[tuple[int, int]]:
    """(step, minute) of every column, in trail order."""
    seen: dict[int, int] = {}
    points = [(d.step, d.minute) for d in trail.decisions]
    points += [(line.step, line.minute) for line in trail.transcript]
    for step, minute in sorted(points):
        seen.setdefault(step, minute)
    if trail.divergence is not None:
        seen.setdefault(trail.divergence.step, trail.divergence.minute)
    return sorted(seen.items())


def _axis(columns: Sequence[tuple[int, int]], xs: dict[int, float], bottom: float,
          column: float) -> list[str]:
    every = max(1, int(44 // column) + 1)
    marks = []
    for index, (step, minute) in enumerate(columns):
        if index % every and index != len(columns) - 1:
            continue
        x = _n(xs[step])
        marks.append(f'<text x="{x}" y="{bottom + 11}" class="ax">{step}</text>'
                     f'<text x="{x}" y="{bottom + 21}" class="ax">{minute}m</text>')
    return marks


def _lanes(width: float) -> list[str]:
    parts = []
    for index, (_, name) in enumerate(LANES):
        y = _TOP + index * _LANE
        middle = _n(y + _LANE / 2)
        parts.append(f'<rect class="l{index % 2}" x="0" y="{y}" width="{_n(width)}" '
                     f'height="{_LANE}"/><text x="6" y="{_n(y + _LANE / 2 + 4)}" '
                     f'class="lane">{name}</text><line class="ll" x1="{_LEFT}" y1="{middle}" '
                     f'x2="{_n(width - _RIGHT)}" y2="{middle}"/>')
    return parts


def swimlane_svg(trail: ApprovalTrail, label: str) -> str:
    """The swimlane of one trial's approval trail, as an ``<svg>`` element.

    The marks carry CSS classes; the page includes :data:`SWIMLANE_STYLE`.

    Args:
        trail: the trial's approval trail (decisions, transcript, divergence).
        label: what the picture shows, for screen readers (e.g. the trial's id).

    Returns:
        SVG markup (no ids, so any number of swimlanes can share a page); ``""`` when the
        trail has neither messages nor decisions.
    """
    columns = _columns(trail)
    if not columns:
        return ""
    column = max(_MIN_COLUMN, min(_COLUMN, (_MAX_WIDTH - _LEFT - _RIGHT) / len(columns)))
    xs = {step: _LEFT + column * (i + 0.5) for i, (step, _) in enumerate(columns)}
    width = _LEFT + column * len(columns) + _RIGHT
    bottom = _TOP + _LANE * len(LANES)
    height = bottom + _BOTTOM
    parts = [f'<svg class="swimlane" width="{_n(width)}" height="{height}" '
             f'viewBox="0 0 {_n(width)} {height}" role="img" aria-label="{html_text(label)}">',
             *_lanes(width)]
    if trail.divergence is not None:
        x = xs[trail.divergence.step]
        tip = html_text(f"first divergence at step {trail.divergence.step} "
                        f"(t={trail.divergence.minute}m): plan expected "
                        f"{trail.divergence.expected}")
        parts.append(f'<rect class="dv" x="{_n(x - column / 2)}" y="{_TOP - 4}" '
                     f'width="{_n(column)}" height="{bottom - _TOP + 8}"><title>{tip}</title>'
                     "</rect>")
    parts.append(f'<text x="{_LEFT - 6}" y="{bottom + 11}" class="ax end">step</text>'
                 f'<text x="{_LEFT - 6}" y="{bottom + 21}" class="ax end">minute</text>')
    parts += _axis(columns, xs, bottom, column)
    offsets: dict[int, int] = {}
    for line in trail.transcript:
        shift = offsets.get(line.step, 0)
        offsets[line.step] = shift + 1
        nudge = ((shift % 3) - 1) * min(4.0, column / 5) if shift else 0.0
        parts.append(_message(line, xs[line.step] + nudge))
    parts += [_decision(row, xs[row.step]) for row in trail.decisions]
    parts.append("</svg>")
    return "".join(parts)
