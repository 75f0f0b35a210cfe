"""The ``remit`` command line: a thin shell over the library.

Every command parses its options, calls the library and renders the result with a
:class:`rich.console.Console` it owns. User errors print one line on stderr, without a
traceback, and exit with status 2.
"""

from __future__ import annotations

import sys

import click
import typer

from remit.cli.app import app
from remit.cli.domain import authority_app, catalogue_app
from remit.cli.mcp import mcp_app
from remit.cli.runs import register as _register_runs
from remit.cli.suites import suite_app

__all__ = ["app", "main"]

app.add_typer(authority_app, name="authority")
app.add_typer(catalogue_app, name="catalogue")
app.add_typer(suite_app, name="suite")
app.add_typer(mcp_app, name="mcp")
_register_runs(app)


def _click_errors() -> tuple[type[Exception], ...]:
    """The exception classes of click's usage errors: click's own, and those of the copy
    of click that typer may carry (found through a class typer exports)."""
    vendored = (c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    return tuple({click.ClickException, *vendored})


def main() -> None:
    """Entry point of the ``remit`` console script.

    A usage error (an unknown option, a value out of range) is one ``error:`` line on
    stderr naming the command's ``--help``, exit status 2, like every user error;
    click would draw a box of several lines.
    """
    try:
        status = app(standalone_mode=False)
    except _click_errors() as exc:
        ctx = getattr(exc, "ctx", None)
        where = f"; see `{ctx.command_path} --help`" if ctx is not None else ""
        message = exc.format_message()  # type: ignore[attr-defined]
        if message:  # no message: the help was shown (``remit`` without a command)
            sys.stderr.write(f"error: {message.rstrip('.')}{where}\n")
        sys.exit(getattr(exc, "exit_code", 2))
    sys.exit(status if isinstance(status, int) else 0)
