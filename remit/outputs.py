"""Checking, before any work starts, that what a run will write can be written.

``remit run --report``/``--db``, ``remit report -o``, ``remit suite export -o``, ``remit
mcp serve --db`` and the pytest plugin's ``--remit-report``/``--remit-db`` all check
their outputs here, before a scenario is loaded or a trial runs, so that a path that
cannot be written is one line at once rather than an error after the whole run. A check
creates nothing that stays: whether a directory takes files is tried with a hidden file
removed at once (permissions alone do not tell for root, read-only mounts or ``/proc``).

Each function returns why the output cannot be written, as a short clause
(``directory '/proc' is not writable``), or ``None`` when it can; the caller names the
option and says what to do.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["check_database", "database_problem", "directory_problem", "output_file_problem"]


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
    if not os.access(existing, os.W_OK | os.X_OK) or not _can_create_in(existing):
        return f"directory {str(existing)!r} is not writable"
    return None


def _can_create_in(directory: Path) -> bool:
    """Whether a file can be created in ``directory``, tried with a hidden file that is
    removed at once: permissions do not tell for root, read-only mounts or ``/proc``."""
    try:
        descriptor, name = tempfile.mkstemp(prefix=".remit-check-", dir=directory)
    except OSError:
        return False
    os.close(descriptor)
    Path(name).unlink(missing_ok=True)
    return True


def output_file_problem(path: Path, *, made: bool = True) -> str | None:
    """Why the file ``path`` cannot be written (``None`` if it can), without writing it.

    Args:
        path: the file (a report, a database file).
        made: whether the writer creates missing parent directories (see
            :func:`directory_problem`).
    """
    if path.is_dir():
        return f"{str(path)!r} is a directory, not a file"
    if path.exists():
        try:
            path.open("ab").close()  # appends nothing: the file is left as it was
        except OSError as exc:
            return f"{str(path)!r} is not writable ({exc.strerror or exc})"
    return directory_problem(path.parent, made=made)


def check_database(url: str | None) -> None:
    """Refuse, without creating or changing it, a database that a writer cannot use.

    A SQLite file that exists is opened read-only, so a damaged or newer database, or
    another application's, is refused now rather than after the work; a new one needs
    only a writable directory. PostgreSQL is connected to (read-only) and checked the
    same way; an empty database or schema is fine (the writer creates remit's tables).

    Args:
        url: ``--db``: a path or URL, or ``None`` for ``REMIT_DB`` / ``./remit.db``.

    Raises:
        StoreError: the database cannot be used; its one-line message says why and what
            to do (``reason`` holds the why alone).
    """
    from remit.store import MissingDatabaseError, Store, StoreUnavailableError, resolve_url  # noqa: PLC0415 - the store loads SQLAlchemy
    from remit.store.urls import sqlite_path  # noqa: PLC0415

    path = sqlite_path(resolve_url(url, environ=os.environ))
    if path is not None and (path.is_dir() or not path.exists()):
        problem = output_file_problem(path, made=False)
        if problem is not None:
            raise StoreUnavailableError(str(path), problem)
        return
    try:
        Store.open(url, read_only=True).close()
    except MissingDatabaseError:
        return  # empty: the writer creates remit's tables in it


def database_problem(url: str | None) -> str | None:
    """Why a writer cannot use the database ``url`` names (``None`` if it can), as
    :func:`check_database` finds it."""
    from remit.store import StoreError  # noqa: PLC0415

    try:
        check_database(url)
    except StoreError as exc:
        return str(getattr(exc, "reason", exc))
    return None
