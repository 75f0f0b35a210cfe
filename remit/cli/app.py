"""The typer application and what every command shares: error handling and consoles."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from remit.errors import RemitError
from remit.reports.safe import SafeConsole

__all__ = ["PROBLEMS_FOUND", "USER_ERROR", "app", "console", "fail", "user_errors"]

P = ParamSpec("P")
R = TypeVar("R")

USER_ERROR = 2
PROBLEMS_FOUND = 1

app = typer.Typer(
    name="remit",
    help="Test whether a commercial AI agent stays within its remit.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; return the exit to raise (status 2)."""
    SafeConsole(stderr=True, highlight=False, soft_wrap=True).print(f"error: {message}",
                                                                    markup=False)
    return typer.Exit(USER_ERROR)


def user_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn remit's user errors into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except (RemitError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None

    return wrapper


PIPED_WIDTH = 160
"""Columns the output is laid out for when it is not a terminal and ``COLUMNS`` is unset
(rich would assume 80, truncating ids in tables)."""


def console(stderr: bool = False) -> SafeConsole:
    """A console for one command's output.

    Sentences are never wrapped (``soft_wrap``), so a suggested command or a run id
    stays on one line for copying; tables fit the terminal, or :data:`PIPED_WIDTH`
    columns when the output goes to a file or a pipe. It is a
    :class:`~remit.reports.safe.SafeConsole`: whatever an agent wrote prints with its
    control characters and terminal escape sequences shown, never executed.
    """
    out = SafeConsole(highlight=False, stderr=stderr, soft_wrap=True)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out = SafeConsole(highlight=False, stderr=stderr, soft_wrap=True, width=PIPED_WIDTH)
    return out
