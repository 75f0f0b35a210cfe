"""Checking, before any work starts, that what a run will write can be written.

``remit run --report``/``--db``, ``remit report -o``, ``remit suite export -o``, ``remit
mcp serve --db`` and the pytest plugin's ``--remit-report``/``--remit-db`` all check
their outputs here, before a scenario is loaded or a trial runs, so that a path that
cannot be written is one line at once rather than an error after the whole run. Nothing
is created or written by a check.

Each function returns why the output cannot be written, as a short clause
(``directory '/proc' is not writable``), or ``None`` when it can; the caller names the
option and says what to do.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["database_problem", "directory_problem", "output_file_problem"]


def directory_problem(directory: Path, *, made: bool) -> str | None:
    """Why no file can be written in ``directory`` (``None`` if one can); creates nothing.

    Args:
        directory: where the file goes.
        made: the writer creates missing directories (a report's, an export's), so the
            nearest one that exists must be writable; otherwise ``directory`` itself must
            exist.
    """
    existing = directory
    while made and not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.exists():
        return f"directory {str(existing)!r} does not exist"
    if not existing.is_dir():
        return f"{str(existing)!r} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"directory {str(existing)!r} is not writable"
    return None


def output_file_problem(path: Path, *, made: bool = True) -> str | None:
    """Why the file ``path`` cannot be written (``None`` if it can), without writing it.

    Args:
        path: the file (a report, a database file).
        made: whether the writer creates missing parent directories (see
            :func:`directory_problem`).
    """
    if path.is_dir():
        return f"{str(path)!r} is a directory, not a file"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{str(path)!r} is not writable"
    return directory_problem(path.parent, made=made)


def database_problem(url: str | None) -> str | None:
    """Why a writer cannot use the database ``url`` names (``None`` if it can), without
    creating or changing it.

    A SQLite file that exists is opened read-only, so a damaged or newer database, or
    another application's, is refused now rather than after the work; a new one needs
    only a writable directory. PostgreSQL is connected to (read-only) and checked the
    same way; an empty database or schema is fine (the writer creates remit's tables).

    Args:
        url: ``--db``: a path or URL, or ``None`` for ``REMIT_DB`` / ``./remit.db``.
    """
    from remit.store import MissingDatabaseError, Store, StoreError, resolve_url  # noqa: PLC0415 - the store loads SQLAlchemy
    from remit.store.urls import sqlite_path  # noqa: PLC0415

    try:
        resolved = resolve_url(url, environ=os.environ)
        path = sqlite_path(resolved)
        if path is not None and (path.is_dir() or not path.exists()):
            return output_file_problem(path, made=False)
        Store.open(url, read_only=True).close()
    except MissingDatabaseError:
        return None  # empty: the writer creates remit's tables in it
    except StoreError as exc:
        return str(getattr(exc, "reason", exc))
    return None
