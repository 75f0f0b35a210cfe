"""The plugin's tests run pytest in pytest, with ``pytester``.

``pytest_plugins = ["pytester"]`` is refused in a conftest below the rootdir when the
whole suite runs (pytest loads this file after configuration), so the plugin is
imported here, where pytest still calls ``pytest_configure`` for late conftests.

remit's modules (and hypothesis, which its pytest plugin imports at the end of every
run) are imported here once: pytester restores ``sys.modules`` after each inline run, so
a module first imported inside a run would be imported anew by the next. That includes
the PostgreSQL driver and SQLAlchemy's dialect, which the plugin's ``--remit-db`` check
loads: imported anew, the dialect registers its functions twice (a warning, an error
here) and the driver's exceptions become other classes than the store catches.
"""

from __future__ import annotations

import hypothesis
import psycopg
import pytest
import sqlalchemy.dialects.postgresql

import remit.harness.collected
import remit.harness.outcome
import remit.reports.explain
import remit.reports.writing
import remit.store

__all__ = ["hypothesis", "psycopg", "remit", "sqlalchemy"]


def pytest_configure(config: pytest.Config) -> None:
    """Make the ``pytester`` fixture available to these tests only."""
    config.pluginmanager.import_plugin("pytester")
