"""A failure guard: work that has not finished after a generous bound is a hang.

:func:`within` turns a hang into a :class:`Hang` raised where the work is (SIGALRM; the
regular-expression engine and the interpreter check for signals, so even a runaway
``re.sub`` stops). It asserts nothing about speed: the bound is tens of seconds for work
that takes milliseconds, and only there so that a super-linear path an agent can trigger
(a megabyte of text) fails the test instead of stalling it for hours. Main thread only.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

COMMAND_SECONDS = 60.0
"""The bound of one CLI command of a fuzz example (they take well under a second)."""

CALL_SECONDS = 30.0
"""The bound of one tool call through a world, or of scoring one trial (milliseconds)."""


class Hang(BaseException):
    """Work outlived its bound. A ``BaseException``, so that no ``except Exception`` in
    the code under test takes it for an ordinary error and carries on."""


_armed: list[float] = []
"""The bound of the innermost :func:`within` (empty outside any)."""


@contextmanager
def within(seconds: float, what: str) -> Iterator[None]:
    """Raise :class:`Hang` inside the block if it is still running ``seconds`` after it
    started, or after the last :func:`rearm` inside it."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"{what} still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _armed.append(seconds)
    try:
        yield
    finally:
        _armed.pop()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def rearm() -> None:
    """Start the innermost :func:`within`'s bound again (each step of a trial gets the
    whole bound); nothing outside one."""
    if _armed:
        signal.setitimer(signal.ITIMER_REAL, _armed[-1])
