"""The store: runs, trials and their trails in SQLite (default) or PostgreSQL (by URL).

Example:
    >>> from remit.store import Store
    >>> with Store.open("sqlite://") as store:   # in memory; a path or URL in real use
    ...     store.runs()
    []
"""

from __future__ import annotations

from remit.store.errors import (
    DuplicateRunError,
    DuplicateTrialError,
    MissingDatabaseError,
    NotRemitDatabaseError,
    SchemaVersionError,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreUnavailableError,
    StoreUrlError,
    UnknownRunError,
    UnknownTrialError,
)
from remit.store.recording import (
    ResumeError,
    SessionRun,
    resolve_suite,
    result_from_store,
    resume_run,
    session_runs,
    start_run,
    suite_metadata,
    suite_of,
)
from remit.store.rows import trial_id_for
from remit.store.store import RunListing, Store
from remit.store.tables import SCHEMA_VERSION
from remit.store.urls import DEFAULT_URL, ENV_VAR, describe_url, resolve_url
from remit.store.writer import BATCH_SECONDS, BATCH_TRIALS, TrialWriter

__all__ = [
    "BATCH_SECONDS",
    "BATCH_TRIALS",
    "DEFAULT_URL",
    "ENV_VAR",
    "SCHEMA_VERSION",
    "DuplicateRunError",
    "DuplicateTrialError",
    "MissingDatabaseError",
    "NotRemitDatabaseError",
    "ResumeError",
    "RunListing",
    "SchemaVersionError",
    "SessionRun",
    "Store",
    "StoreCorruptError",
    "StoreError",
    "StoreLockedError",
    "StoreUnavailableError",
    "StoreUrlError",
    "TrialWriter",
    "UnknownRunError",
    "UnknownTrialError",
    "describe_url",
    "resolve_suite",
    "resolve_url",
    "result_from_store",
    "resume_run",
    "session_runs",
    "start_run",
    "suite_metadata",
    "suite_of",
    "trial_id_for",
]
