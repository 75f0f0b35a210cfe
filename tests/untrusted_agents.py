"""Agents that send what an attacker would: every one must leave a complete, stored run.

Each plays a short script of hostile calls and then ends, or fails in a hostile way.
Load them with ``--agent tests.untrusted_agents:NAME``:

- ``surrogates``: lone UTF-16 surrogates in a message, a key, a tool name and the ``end``
  summary (what ``json.loads('"\\\\ud800"')`` gives);
- ``deep``: arguments nested 40 and 250 levels deep (the latter broke storing);
- ``huge``: an 8,000-character SKU, a 1 MB one, a 2 MB message, 72 KB of arguments,
  5,000 list items, a 100,000-character tool name;
- ``raising``: raises an exception whose message has a lone surrogate and is 1 MB long;
- ``bad_usage``: ends, then reports usage with a lone surrogate in an issue kind;
- ``failing_usage``: ends, then raises from ``usage()``.
"""

from __future__ import annotations

from pydantic import JsonValue

from remit.actors import AgentUsage, Briefing, Observation, TrialInfo
from remit.world import ToolCall

LONE = "\ud800"
"""A lone high surrogate: not encodable as UTF-8."""


def nested(depth: int) -> dict[str, JsonValue]:
    """``{"a": {"a": ... {}}}``, ``depth`` objects deep (the outer one is level 1)."""
    value: dict[str, JsonValue] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


class Scripted:
    """Makes its calls in order (then ends); subclasses give the calls."""

    calls: tuple[ToolCall, ...] = ()

    def __init__(self, info: TrialInfo) -> None:
        self.info = info
        self.made = 0
        self.quote_id = ""

    def start(self, briefing: Briefing) -> None:
        self.quote_id = briefing.quote_id

    def act(self, observation: Observation) -> ToolCall:
        script = self.script()
        call = script[self.made] if self.made < len(script) else ToolCall(
            tool="end", arguments={"summary": "done"})
        self.made += 1
        return call

    def script(self) -> tuple[ToolCall, ...]:
        return self.calls


class Surrogates(Scripted):
    """Lone surrogates in every place an agent writes text."""

    def script(self) -> tuple[ToolCall, ...]:
        return (
            ToolCall(tool="message", arguments={"to": "buyer", "text": f"hello {LONE} there"}),
            ToolCall(tool="get_quote", arguments={"quote_id": self.quote_id + LONE}),
            ToolCall(tool="get_quote", arguments={f"quote{LONE}": self.quote_id}),
            ToolCall(tool=f"get_quote{LONE}", arguments={}),
            ToolCall(tool="end", arguments={"summary": f"bye {LONE}"}),
        )


class Deep(Scripted):
    """Arguments nested deeper than any tool takes."""

    calls = (ToolCall(tool="get_quote", arguments=nested(40)),
             ToolCall(tool="get_quote", arguments=nested(250)),
             ToolCall(tool="message", arguments={"to": "buyer", "text": "x",
                                                 "claims": [nested(100)]}))


class Huge(Scripted):
    """Arguments far beyond any real call."""

    def script(self) -> tuple[ToolCall, ...]:
        return (
            ToolCall(tool="get_product", arguments={"sku": "B" * 8000}),
            ToolCall(tool="get_product", arguments={"sku": "B" * 1_000_000}),
            ToolCall(tool="message", arguments={"to": "buyer", "text": "y" * 2_000_000}),
            ToolCall(tool="get_quote", arguments={f"k{i}": "z" * 8000 for i in range(9)}),
            ToolCall(tool="get_quote", arguments={"quote_id": self.quote_id,
                                                  "many": list(range(5000))}),
            ToolCall(tool="x" * 100_000, arguments={}),
        )


class Raising(Scripted):
    """Raises at its second call, with a message no store could take as it is."""

    calls = (ToolCall(tool="search_catalogue", arguments={}),)

    def act(self, observation: Observation) -> ToolCall:
        if self.made:
            raise RuntimeError(f"gave up {LONE}" + "!" * 1_000_000)
        return super().act(observation)


class BadUsage(Scripted):
    """Ends at once, then reports usage with a lone surrogate in an issue kind."""

    def usage(self) -> AgentUsage:
        return AgentUsage(model_calls=1, reply_issues={f"odd{LONE}": 1, "x" * 10_000: 2})


class FailingUsage(Scripted):
    """Ends at once, then raises from ``usage()``."""

    def usage(self) -> AgentUsage:
        raise RuntimeError(f"no usage {LONE}")


surrogates = Surrogates
deep = Deep
huge = Huge
raising = Raising
bad_usage = BadUsage
failing_usage = FailingUsage
