"""Reading the YAML and JSON files people write (mode files, authority maps, scenario
files, cost tables), with every way they can be wrong said in one line.

The YAML parser's own message spans five to seven lines (the problem, the context, and
the offending line with a caret under the column); :func:`syntax_problem` makes it one:
``not valid YAML at line 2, column 9: mapping values are not allowed here``. A file that
cannot be read, is a directory, is not UTF-8 or nests too deeply is one line too.

Example:
    >>> try:
    ...     parse_text("a: [1, 2", "yaml", source="modes.yaml")
    ... except DocumentError as exc:
    ...     print(exc)
    modes.yaml: not valid YAML at line 1, column 9: expected ',' or ']', but got '<stream end>'
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

import yaml

from remit.errors import RemitError

__all__ = ["DocumentError", "DocumentFormat", "parse_text", "read_text", "syntax_problem"]

DocumentFormat = Literal["yaml", "json"]
"""The text formats documents are written in."""

_PROBLEM_SHOWN = 160
"""Characters of a parser's problem kept in a message."""


class DocumentError(RemitError, ValueError):
    """A document that cannot be read or parsed; the message is one line.

    Attributes:
        source: the file (or what the text came from).
        problem: what is wrong, without the source.
        line, column: where the parser stopped (1-based), when it says.
    """

    def __init__(self, source: str, problem: str, *, line: int | None = None,
                 column: int | None = None) -> None:
        self.source = source
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(f"{source}: {problem}")


def _one_line(text: str) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    return flat if len(flat) <= _PROBLEM_SHOWN else flat[:_PROBLEM_SHOWN - 3] + "..."


def syntax_problem(exc: yaml.YAMLError | json.JSONDecodeError | RecursionError,
                   fmt: DocumentFormat) -> tuple[str, int | None, int | None]:
    """One line saying why a document does not parse, and the (line, column) it names.

    Args:
        exc: what ``yaml.safe_load`` or ``json.loads`` raised.
        fmt: which of the two parsed it.

    Returns:
        ``("not valid YAML at line 2, column 9: mapping values are not allowed here", 2,
        9)``; the line and column are ``None`` when the parser names no place.
    """
    kind = "YAML" if fmt == "yaml" else "JSON"
    if isinstance(exc, RecursionError):
        return (f"not valid {kind}: it nests too deeply for remit to read; flatten it", None,
                None)
    if isinstance(exc, json.JSONDecodeError):
        return (f"not valid JSON at line {exc.lineno}, column {exc.colno}: "
                f"{_one_line(exc.msg)}", exc.lineno, exc.colno)
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).strip().split("\n", 1)[0] or \
        type(exc).__name__
    if mark is None:
        return f"not valid YAML: {_one_line(problem)}", None, None
    line, column = mark.line + 1, mark.column + 1
    return (f"not valid YAML at line {line}, column {column}: {_one_line(problem)}", line,
            column)


def parse_text(text: str, fmt: DocumentFormat, *, source: str) -> object:
    """Parse YAML (safe loader) or JSON text.

    Raises:
        DocumentError: it does not parse; one line naming the source, the place and the
            problem.
    """
    try:
        return yaml.safe_load(text) if fmt == "yaml" else json.loads(text)
    except (yaml.YAMLError, json.JSONDecodeError, RecursionError) as exc:
        problem, line, column = syntax_problem(exc, fmt)
        raise DocumentError(source, problem, line=line, column=column) from None


def read_text(path: Path, *, source: str | None = None) -> str:
    """The text of a UTF-8 file.

    Args:
        path: the file.
        source: how messages name it (default: ``path``).

    Raises:
        DocumentError: it does not exist, is a directory, cannot be read or is not UTF-8.
    """
    name = source or str(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise DocumentError(name, "is a directory, not a file; give a file") from None
    except OSError as exc:
        raise DocumentError(name, f"cannot be read ({exc.strerror or exc}); give a "
                                  "readable file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DocumentError(name, f"is not UTF-8 text (byte 0x{data[exc.start]:02x} on line "
                                  f"{line}); save it as UTF-8", line=line) from None
