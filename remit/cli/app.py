"""The typer application and what every command shares: error handling, bounds and
consoles.

Every user error is one ``error:`` line on stderr and exit status 2: remit's own errors
through :func:`user_errors`, and click's usage errors (an unknown option, a value out of
its bounds) through the application's root group, so that the console script and
typer's ``CliRunner`` say the same thing.

Every command imports the libraries it uses when it runs, inside its function, never at
the top of its module: the parser and every ``--help`` are built from the commands'
signatures alone, so ``remit --help`` loads typer and not SQLAlchemy, matplotlib, the
MCP SDK or the scenario composer (``tests/test_cli_imports.py`` holds the line).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import click
import typer
from typer.core import TyperGroup

from remit.errors import RemitError
from remit.outputs import directory_problem, output_file_problem

if TYPE_CHECKING:
    from remit.reports.safe import SafeConsole

__all__ = ["CATALOGUE_SIZE_MAX", "CONCURRENCY_MAX", "LLM_TIMEOUT_MAX", "MAX_TOKENS_MAX",
           "PROBLEMS_FOUND", "RETRIES_MAX", "SAMPLE_MAX", "SEED_MAX", "TRIALS_MAX",
           "USER_ERROR", "WORKERS_MAX", "CommandGroup", "DbOption", "JsonOption", "app",
           "check_document",
           "check_output_directory", "check_output_file", "console", "fail", "user_errors"]

DbOption = Annotated[str | None, typer.Option(
    "--db", help="Database: a SQLite path or sqlite:///PATH, or postgresql://USER@HOST/DB "
                 "(default: $REMIT_DB, else ./remit.db).")]
"""The ``--db`` option of every command that reads or writes the store."""
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
"""The ``--json`` option of every command that can print JSON."""

P = ParamSpec("P")
R = TypeVar("R")

USER_ERROR = 2
PROBLEMS_FOUND = 1

# Bounds of the numeric options: each one allocates or waits in proportion to its value,
# so a typo such as --trials 100000000000 is refused at once instead of exhausting memory.
SEED_MAX = 2**63 - 1
"""Largest seed (``--seed``, ``--sample-seed``, ``--llm-seed``): a signed 64-bit integer."""
TRIALS_MAX = 1000
"""Most trials per scenario and mode."""
CONCURRENCY_MAX = 256
"""Most trials in flight at once."""
WORKERS_MAX = 64
"""Most worker processes (``--workers``): each is a process holding the run's suite."""
RETRIES_MAX = 20
"""Most retries of a trial (``--retries``) or of a model call (``--llm-retries``)."""
SAMPLE_MAX = 100_000
"""Largest ``--sample``."""
CATALOGUE_SIZE_MAX = 10_000
"""Most SKUs ``remit catalogue show --size`` generates (about three seconds' work)."""
MAX_TOKENS_MAX = 1_000_000
"""Most completion tokens per model reply."""
LLM_TIMEOUT_MAX = 3600.0
"""Longest wait for one model response, in seconds."""


def _click_errors() -> tuple[type[Exception], ...]:
    """The exception classes of click's usage errors: click's own, and those of the copy
    of click that typer may carry (found through a class typer exports)."""
    vendored = (c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    return tuple({click.ClickException, *vendored})


def _one_line(message: str) -> str:
    """``message`` on one line: a library's message may span several."""
    return " ".join(message.split())


def _usage_error(exc: Exception) -> int:
    """Print a click usage error as one ``error:`` line naming the command's ``--help``
    (click would draw a box of several lines); return its exit status."""
    ctx = getattr(exc, "ctx", None)
    where = f"; see `{ctx.command_path} --help`" if ctx is not None else ""
    message = exc.format_message()  # type: ignore[attr-defined]
    if message:  # no message: the help was shown (a group without a command)
        sys.stderr.write(f"error: {_one_line(message).rstrip('.')}{where}\n")
    status: int = getattr(exc, "exit_code", USER_ERROR)
    return status


class CommandGroup(TyperGroup):
    """A command group whose ``--help`` flag is ``False`` when not given.

    typer gives the flag no default, so a group's ``--help`` left out is ``None``, and
    typer loads pydantic to coerce that ``None``: ``remit suite list --help`` would
    spend a tenth of a second on it.
    """

    def get_help_option(self, ctx: Any) -> Any:
        """The ``--help`` option, defaulting to ``False``."""
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option


class _RootGroup(CommandGroup):
    """The root command group: usage errors are one line, in standalone mode too."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        """Run the command line; in standalone mode exit with its status."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                  **extra)
        except _click_errors() as exc:
            sys.exit(_usage_error(exc))
        except (typer.Abort, click.Abort):
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


app = typer.Typer(
    name="remit",
    cls=_RootGroup,
    help="Test whether a commercial AI agent stays within its remit.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr, on one line; return the exit to raise (status
    2)."""
    from remit.reports.safe import SafeConsole

    SafeConsole(stderr=True, highlight=False, soft_wrap=True).print(
        f"error: {_one_line(message)}", markup=False)
    return typer.Exit(USER_ERROR)


def check_output_file(option: str, path: Path) -> None:
    """Refuse, before any work, an output file that cannot be written (creates nothing).

    Raises:
        ValueError: one line naming the option, the file and why.
    """
    problem = output_file_problem(path)
    if problem is not None:
        raise ValueError(f"{option} {path}: cannot write there: {problem}; pass a file in "
                         "a writable directory")


def check_output_directory(option: str, path: Path) -> None:
    """Refuse, before any work, an output directory that cannot be written (creates
    nothing; missing directories are fine when an existing parent is writable).

    Raises:
        ValueError: one line naming the option, the directory and why.
    """
    problem = directory_problem(path, made=True)
    if problem is not None:
        raise ValueError(f"{option} {path}: cannot write there: {problem}; pass a directory "
                         "in a writable place")


def check_document(option: str, path: Path) -> None:
    """Refuse, before any work, a YAML or JSON input file that cannot be read or parsed
    (by its suffix: ``.json`` is JSON, anything else YAML).

    Raises:
        DocumentError: one line naming the option, the file and, for a syntax error, the
            line and column.
    """
    from remit.documents import DocumentFormat, parse_text, read_text

    fmt: DocumentFormat = "json" if path.suffix.lower() == ".json" else "yaml"
    parse_text(read_text(path, source=f"{option} {path}"), fmt, source=f"{option} {path}")


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
    from remit.reports.safe import SafeConsole

    out = SafeConsole(highlight=False, stderr=stderr, soft_wrap=True)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out = SafeConsole(highlight=False, stderr=stderr, soft_wrap=True, width=PIPED_WIDTH)
    return out
