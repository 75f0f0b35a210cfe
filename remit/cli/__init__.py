"""The ``remit`` command line: a thin shell over the library.

Every command parses its options, calls the library and renders the result with a
:class:`rich.console.Console` it owns. User errors print one line on stderr, without a
traceback, and exit with status 2.
"""

from __future__ import annotations

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


def main() -> None:
    """Entry point of the ``remit`` console script.

    A usage error (an unknown option, a value out of range) is one ``error:`` line on
    stderr naming the command's ``--help``, exit status 2, like every user error;
    click would draw a box of several lines.
    """
    app()
