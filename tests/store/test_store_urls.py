"""--db / REMIT_DB: paths mean SQLite, postgresql:// means psycopg 3, the rest is refused."""

from __future__ import annotations

import pytest

from remit.store import DEFAULT_URL, ENV_VAR, StoreUrlError, describe_url, resolve_url


def test_default_is_remit_db_in_the_current_directory() -> None:
    url = resolve_url(None, environ={})
    assert url.render_as_string() == DEFAULT_URL == "sqlite:///remit.db"
    assert describe_url(url) == "remit.db"


def test_env_var_is_used_when_no_url_is_given() -> None:
    environ = {ENV_VAR: "postgresql://ci@db:5432/runs"}
    assert resolve_url(None, environ=environ).drivername == "postgresql+psycopg"
    assert resolve_url("local.db", environ=environ).drivername == "sqlite"


@pytest.mark.parametrize(("given", "expected"), [
    ("runs/remit.db", "sqlite:///runs/remit.db"),
    ("/abs/remit.db", "sqlite:////abs/remit.db"),
    ("sqlite:///rel.db", "sqlite:///rel.db"),
    ("sqlite+pysqlite:///rel.db", "sqlite:///rel.db"),
    ("sqlite://", "sqlite://"),
    ("postgresql://root@127.0.0.1:5432/test", "postgresql+psycopg://root@127.0.0.1:5432/test"),
    ("postgres://root@h/test", "postgresql+psycopg://root@h/test"),
    ("postgresql+psycopg://root@h/test?options=-csearch_path%3Dremit",
     "postgresql+psycopg://root@h/test?options=-csearch_path%3Dremit"),
])
def test_urls_resolve(given: str, expected: str) -> None:
    assert resolve_url(given, environ={}).render_as_string() == expected


@pytest.mark.parametrize(("given", "pattern"), [
    ("mysql://u@h/db", r"scheme='mysql' is not supported"),
    ("postgresql+psycopg2://u@h/db", r"scheme='postgresql\+psycopg2' is not supported"),
    ("postgresql://u@h", r"names no database"),
    ("://nothing", r"not a database URL"),
])
def test_unusable_urls_are_refused(given: str, pattern: str) -> None:
    with pytest.raises(StoreUrlError, match=pattern) as error:
        resolve_url(given, environ={})
    assert isinstance(error.value, ValueError)
    assert error.value.url == given


def test_messages_hide_passwords() -> None:
    url = resolve_url("postgresql://u:s3cret@h:5432/db", environ={})
    assert describe_url(url) == "postgresql://u:***@h:5432/db"
