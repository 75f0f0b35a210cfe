"""Agents whose every string is hostile to the reader of a report or a terminal.

:class:`HostileAgent` puts :data:`HOSTILE` (markup, script and image tags, terminal
escape sequences, a clipboard write, bidirectional overrides, NUL, C1 controls, rich
markup, table and code-fence characters) and a 10 KB string into every place an agent
writes: a message with structured claims about an SKU it invents, an ``ask``, line
edits and a product lookup with that SKU, a write with invented evidence and
justification, a hand-off request, a call to a tool named by that text, and its
``end`` summary. :class:`RaisingAgent` raises an exception whose text is hostile.

Load them with ``--agent tests.hostile_agents:hostile`` or
``tests.hostile_agents:raising``. :func:`leaks` finds what a human-facing output lets
through raw.
"""

from __future__ import annotations

import re

from remit.actors import Briefing, Observation, TrialInfo
from remit.world import ToolCall

__all__ = ["HOSTILE", "LONG", "MARKERS", "HostileAgent", "RaisingAgent", "hostile", "leaks",
           "raising"]

HOSTILE = ("<script>alert(1)</script> <img src=x onerror=alert(1)> "
           "\x1b[31mRED\x1b]0;pwned\x07 \x1b]52;c;ZXZpbA==\x07 \u202eevil\u202c \u2066iso\u2069 "
           "\u200f\u061c nul\x00 bell\x07 cr\r del\x7f csi\x9b31m [bold]markup[/bold] "
           "[link=https://evil.example]click[/link] a | b `tick` ```fence``` "
           "*em* _u_ [x](javascript:alert(1)) ![i](https://evil.example/p.png) &amp; "
           "\\ end")
"""One string with every kind of hostile text (no lone surrogate: the store cannot hold
one; the writers' handling of those is tested on reports built in memory)."""

LONG = HOSTILE + " " + "x" * 7_500
"""A 7.8 KB string that starts hostile: as long as the world accepts a string to be (its
limit is 8 KiB; a longer one is refused at the boundary and never reaches a reader)."""

MARKERS = ("alert(1)", "pwned", "ZXZpbA==", "evil", "markup", "click")
"""Words of :data:`HOSTILE` that show where its text landed in an output."""

_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                  "\ud800-\udfff]")
"""Characters no human-facing output may carry raw (tab and newline may)."""


def leaks(text: str) -> list[str]:
    """The raw control, bidi and surrogate characters in ``text``, as their escapes."""
    return sorted({f"\\u{ord(ch):04x}" for ch in _RAW.findall(text)})


class HostileAgent:
    """Writes :data:`HOSTILE` everywhere an agent can write, then ends (see the module
    docstring). It makes no valid write, so every trial fails."""

    def __init__(self, info: TrialInfo) -> None:
        self.info = info
        self.quote_id = ""
        self.made = 0

    def start(self, briefing: Briefing) -> None:
        self.quote_id = briefing.quote_id

    def _script(self) -> list[ToolCall]:
        quote = self.quote_id
        return [
            ToolCall(tool="message", arguments={
                "to": "buyer", "text": LONG,
                "claims": [{"sku": HOSTILE, "attribute": "pn", "value": 16, "unit": "bar"}]}),
            ToolCall(tool="ask", arguments={"to": "buyer", "facts": [HOSTILE],
                                            "text": HOSTILE}),
            ToolCall(tool="edit_lines", arguments={
                "quote_id": quote, "lines": [{"sku": HOSTILE, "quantity": 1}]}),
            ToolCall(tool="get_product", arguments={"sku": HOSTILE}),
            ToolCall(tool="submit", arguments={"quote_id": quote, "evidence": [HOSTILE],
                                               "justification": HOSTILE, "reason": HOSTILE}),
            ToolCall(tool="approve", arguments={"quote_id": quote, "evidence": [HOSTILE],
                                                "reason": HOSTILE}),
            ToolCall(tool="request_action", arguments={
                "to": "finance", "action": "approve", "quote_id": quote,
                "evidence": [HOSTILE], "text": LONG}),
            ToolCall(tool="follow_up", arguments={"handoff_id": HOSTILE, "text": HOSTILE}),
            ToolCall(tool=HOSTILE, arguments={HOSTILE: HOSTILE}),
            ToolCall(tool="end", arguments={"summary": LONG}),
        ]

    def act(self, observation: Observation) -> ToolCall:
        script = self._script()
        call = script[min(self.made, len(script) - 1)]
        self.made += 1
        return call


class RaisingAgent(HostileAgent):
    """Sends its hostile message, then raises an exception whose text is hostile."""

    def act(self, observation: Observation) -> ToolCall:
        if self.made:
            raise RuntimeError(LONG)
        return super().act(observation)


def hostile(info: TrialInfo) -> HostileAgent:
    """A :class:`HostileAgent` for the trial."""
    return HostileAgent(info)


def raising(info: TrialInfo) -> RaisingAgent:
    """A :class:`RaisingAgent` for the trial."""
    return RaisingAgent(info)
