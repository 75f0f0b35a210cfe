"""Which database ``--db`` / ``REMIT_DB`` names, as a SQLAlchemy URL.

Accepted forms:

- nothing: ``REMIT_DB`` if set, else ``./remit.db`` (SQLite);
- a bare path (``runs/remit.db``): a SQLite file;
- ``sqlite:///PATH`` (relative) or ``sqlite:////ABS/PATH``; ``sqlite://`` is in memory;
- ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB`` (also ``postgres://`` and
  ``postgresql+psycopg://``): PostgreSQL through psycopg 3. libpq query parameters pass
  through, e.g. ``?options=-csearch_path%3Dremit`` to keep remit's tables in a schema.

Example:
    >>> resolve_url("runs/remit.db", environ={}).render_as_string()
    'sqlite:///runs/remit.db'
    >>> resolve_url("postgresql://ci@db:5432/test", environ={}).drivername
    'postgresql+psycopg'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from remit.store.errors import StoreUrlError

__all__ = ["DEFAULT_URL", "ENV_VAR", "describe_url", "resolve_url", "sqlite_path"]

ENV_VAR = "REMIT_DB"
"""The environment variable read when no URL is given."""

DEFAULT_URL = "sqlite:///remit.db"
"""The database used when neither ``--db`` nor ``REMIT_DB`` is given: ``./remit.db``."""

_POSTGRES = {"postgresql", "postgres", "postgresql+psycopg"}


def resolve_url(url: str | None, *, environ: Mapping[str, str]) -> URL:
    """The SQLAlchemy URL that ``url`` (or, when it is ``None`` or empty, ``environ``) names.

    Args:
        url: the ``--db`` value, or ``None``.
        environ: where ``REMIT_DB`` is read from (``os.environ`` in the CLI).

    Raises:
        StoreUrlError: a URL that is malformed or names a database remit does not support.
    """
    raw = url or environ.get(ENV_VAR) or DEFAULT_URL
    if "://" not in raw:
        return URL.create("sqlite", database=raw)
    try:
        parsed = make_url(raw)
    except ArgumentError as exc:
        raise StoreUrlError(raw, f"it is not a database URL ({exc})") from None
    if parsed.drivername in {"sqlite", "sqlite+pysqlite"}:
        return parsed.set(drivername="sqlite")
    if parsed.drivername in _POSTGRES:
        if not parsed.database:
            raise StoreUrlError(raw, "it names no database (add /DBNAME after the host)")
        return parsed.set(drivername="postgresql+psycopg")
    raise StoreUrlError(raw, f"scheme={parsed.drivername!r} is not supported (only SQLite and "
                             "PostgreSQL are)")


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL; ``None`` for PostgreSQL and in-memory SQLite."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def describe_url(url: URL) -> str:
    """How a database is named in messages: a SQLite path, or the URL without its password."""
    path = sqlite_path(url)
    if path is not None:
        return str(path)
    if url.get_backend_name() == "sqlite":
        return "the in-memory database"
    return url.set(drivername="postgresql").render_as_string(hide_password=True)
