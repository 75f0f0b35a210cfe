"""Fixtures for the store tests: real trial records, manifests, and a database per backend.

SQLite tests use a file under ``tmp_path``. PostgreSQL tests run when
``REMIT_TEST_POSTGRES_URL`` is set (``.ci/run`` sets it when the server at 127.0.0.1:5432
answers); each test gets a fresh schema (through libpq's ``options=-csearch_path=...``),
dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from remit.actors import oracle_factory
from remit.authority import builtin_modes
from remit.harness import RunResult, TrialRecord, run
from remit.scenarios import builtin_scenarios
from remit.store import resolve_url
from tests.store.sample import ManifestFactory, sample_manifest, varied_records_of

POSTGRES_ENV = "REMIT_TEST_POSTGRES_URL"


@pytest.fixture(scope="session")
def run_result() -> RunResult:
    """Three built-in scenarios in every built-in mode, two trials each, by the oracle."""
    modes = list(builtin_modes().values())
    return run(builtin_scenarios()[:3], modes, oracle_factory, trials=2, seed=7)


@pytest.fixture(scope="session")
def varied_records() -> list[TrialRecord]:
    """One run's worth of records whose scores differ in every figure: five scripted
    agents on four built-in scenarios in every mode, two trials each (numbered on per
    agent), and a few trials changed as other runs have them: ended in an infrastructure
    error, played by an agent that reports its usage, scored before the agent's writes
    were counted, scored by scorer 1 (more hand-offs abandoned than opened), ended in an
    agent error."""
    return varied_records_of(builtin_scenarios()[:4])


@pytest.fixture(scope="session")
def make_manifest() -> ManifestFactory:
    """Build a manifest for a run id (see :func:`tests.store.sample.sample_manifest`)."""
    return sample_manifest


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file URL."""
    return f"sqlite:///{tmp_path / 'remit.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, as a store URL; dropped afterwards."""
    base = os.environ.get(POSTGRES_ENV)
    if not base and os.environ.get("CI"):
        pytest.fail(f"{POSTGRES_ENV} is not set under CI: .ci/run sets it when the "
                    "PostgreSQL server at 127.0.0.1:5432 answers; start it "
                    "(pg_ctlcluster ... main start) so the store is tested for real")
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set (point it at a PostgreSQL database, e.g. "
                    "postgresql://root@127.0.0.1:5432/test)")
    schema = f"remit_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(resolve_url(base, environ={}), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        separator = "&" if "?" in base else "?"
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest) -> str:
    """A fresh database of each backend (PostgreSQL skipped when not configured)."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url
