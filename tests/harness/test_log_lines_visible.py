"""What remit logs about an agent (its exceptions, its usage, an infrastructure error's
text) is shown, never executed: a log line reaches a terminal like any other output."""

from __future__ import annotations

import logging

import pytest

from remit.authority import builtin_modes
from remit.harness import run
from remit.scenarios import scenario_by_id
from remit.world import ToolCall
from remit.world.untrusted import visible

HOSTILE = "\x1b]0;pwned\x07 \x1b[31mred \u202eevil \x00nul"


class _BadUsage:
    def start(self, briefing: object) -> None: ...

    def act(self, observation: object) -> ToolCall:
        return ToolCall(tool="end", arguments={"summary": "done"})

    def usage(self) -> object:
        raise RuntimeError(HOSTILE)

    def finish(self, observation: object) -> None:
        raise RuntimeError(HOSTILE)


def test_an_agents_exception_text_is_logged_visible(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="remit"):
        run([scenario_by_id("discount-exception")], [builtin_modes()["dual_control"]],
            lambda info: _BadUsage())
    messages = [r.getMessage() for r in caplog.records]
    assert any("usage()" in m for m in messages)
    assert all(m == visible(m) for m in messages)
    assert any("\\x1b]0;pwned\\x07" in m for m in messages)
