"""The store's errors: every one a :class:`~remit.errors.RemitError`, every message one line.

```
RemitError
└── StoreError                      (a database remit cannot use as asked)
    ├── StoreUrlError               (ValueError: --db / REMIT_DB names no usable database)
    ├── StoreUnavailableError       (cannot connect, cannot open the file)
    │   ├── StoreLockedError        (SQLite: another process holds the write lock)
    │   └── MissingDatabaseError    (a reading command found no remit database there)
    ├── StoreCorruptError           (not a database, or a damaged remit database)
    │   └── NotRemitDatabaseError   (another application's database: never written)
    ├── SchemaVersionError          (written by a newer remit)
    ├── UnknownRunError             (ValueError: no run with that id)
    ├── UnknownTrialError           (ValueError: no trial with that id)
    ├── DuplicateRunError           (a run with that id is already stored)
    └── DuplicateTrialError         (that trial of that run is already stored)
```

Each message says what was attempted, on which database or record, why it failed and
what to do next. Opening a database never writes to it when one of these is raised.
"""

from __future__ import annotations

import shlex

from remit.errors import RemitError

__all__ = [
    "DuplicateRunError",
    "DuplicateTrialError",
    "MissingDatabaseError",
    "NotRemitDatabaseError",
    "SchemaVersionError",
    "StoreCorruptError",
    "StoreError",
    "StoreLockedError",
    "StoreUnavailableError",
    "StoreUrlError",
    "UnknownRunError",
    "UnknownTrialError",
]


class StoreError(RemitError):
    """A database that remit cannot use as asked.

    Attributes:
        database: the database, as shown to users (a path, or a URL without password).
    """

    def __init__(self, database: str, message: str) -> None:
        self.database = database
        super().__init__(message)


class StoreUrlError(StoreError, ValueError):
    """``--db`` or ``REMIT_DB`` names no database remit can use.

    Attributes:
        url: the offending value.
        reason: why it cannot be used.
    """

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(url, f"cannot use database url={url!r}: {reason}; pass a file "
                              "path, sqlite:///PATH or postgresql://USER@HOST:PORT/DB to --db "
                              "or REMIT_DB")


class StoreUnavailableError(StoreError):
    """The database cannot be reached or opened (server down, missing directory).

    Attributes:
        reason: the driver's reason, first line only.
    """

    def __init__(self, database: str, reason: str) -> None:
        self.reason = reason
        super().__init__(database, f"cannot open {database}: {reason}; check that it exists and "
                                   "is reachable, or pass another --db / REMIT_DB")


class StoreLockedError(StoreUnavailableError):
    """Another process held SQLite's write lock for longer than the busy timeout.

    Attributes:
        waited_seconds: how long each attempt waited for the lock.
        attempts: how many times the write was tried.
    """

    def __init__(self, database: str, waited_seconds: float, attempts: int) -> None:
        self.waited_seconds = waited_seconds
        self.attempts = attempts
        StoreError.__init__(
            self, database,
            f"cannot write to {database}: the database is locked by another process "
            f"(waited {waited_seconds * attempts:g}s in all: {attempts} attempts of "
            f"{waited_seconds:g}s); retry when it has finished, "
            "or pass --db to use another database")
        self.reason = "database is locked"


class MissingDatabaseError(StoreUnavailableError):
    """A command that only reads found no remit database there (no file, or an empty one);
    reading never creates one.
    """

    def __init__(self, database: str) -> None:
        StoreError.__init__(
            self, database,
            f"no remit database at {database}; run `remit run --db {shlex.quote(database)}` "
            "first, or pass the --db / REMIT_DB your runs are stored in (commands that only "
            "read never create one)")
        self.reason = "no remit database there"


class StoreCorruptError(StoreError):
    """The file is not a database, is damaged, or holds tables that are not remit's.

    Attributes:
        reason: what is wrong with it.
    """

    def __init__(self, database: str, reason: str) -> None:
        self.reason = reason
        super().__init__(database, f"cannot open {database}: {reason}; move it aside or pass "
                                   "--db to use another database")


class NotRemitDatabaseError(StoreCorruptError):
    """A database that holds another application's data: it carries another application's
    marker, or tables and no remit marker. remit refuses it without writing to it.
    """

    def __init__(self, database: str, reason: str) -> None:
        self.reason = f"it is not a remit database ({reason})"
        StoreError.__init__(
            self, database,
            f"cannot use {database}: {self.reason}, and remit never "
            "writes to another application's database; pass --db with a new file (or an "
            "empty PostgreSQL database or schema)")


class SchemaVersionError(StoreError):
    """The database was written by a newer remit whose schema this one cannot read.

    Attributes:
        found: the schema version recorded in the database.
        supported: the newest schema version this remit reads.
    """

    def __init__(self, database: str, found: int, supported: int) -> None:
        self.found = found
        self.supported = supported
        super().__init__(database, f"cannot open {database}: it was written by a newer remit "
                                   f"(store schema version {found}; this remit reads up to "
                                   f"version {supported}); upgrade remit, or pass --db to use "
                                   "another database")


class UnknownRunError(StoreError, ValueError):
    """No run with that id is stored.

    Attributes:
        run_id: the id asked for.
        known: a few stored run ids, newest first.
    """

    def __init__(self, database: str, run_id: str, known: tuple[str, ...]) -> None:
        self.run_id = run_id
        self.known = known
        hint = (f"stored runs include {', '.join(known)}; list them all with `remit runs`"
                if known else "no runs are stored there yet; check --db / REMIT_DB")
        super().__init__(database, f"no run with run_id={run_id!r} in {database}; {hint}")


class UnknownTrialError(StoreError, ValueError):
    """No trial with that id is stored.

    Attributes:
        trial_id: the id asked for (``RUN/SCENARIO/MODE/TRIAL``).
        known: a few stored trial ids (of the same run when it exists).
    """

    def __init__(self, database: str, trial_id: str, known: tuple[str, ...]) -> None:
        self.trial_id = trial_id
        self.known = known
        hint = (f"stored trials include {', '.join(known)}" if known
                else "no trials are stored there yet")
        super().__init__(database, f"no trial with trial_id={trial_id!r} in {database}; trial "
                                   f"ids are RUN/SCENARIO/MODE/TRIAL and {hint}")


class DuplicateRunError(StoreError):
    """A run with that id is already stored.

    Attributes:
        run_id: the id.
    """

    def __init__(self, database: str, run_id: str) -> None:
        self.run_id = run_id
        super().__init__(database, f"cannot create run run_id={run_id!r} in {database}: a run "
                                   "with that id is already stored; resume it, or start a run "
                                   "with a new id")


class DuplicateTrialError(StoreError):
    """That trial (run, scenario, mode, trial index) is already stored.

    Attributes:
        run_id, scenario_id, mode, trial: the trial's key.
    """

    def __init__(self, database: str, run_id: str, scenario_id: str, mode: str,
                 trial: int) -> None:
        self.run_id = run_id
        self.scenario_id = scenario_id
        self.mode = mode
        self.trial = trial
        super().__init__(database, f"cannot save trial {trial} of scenario_id={scenario_id!r} "
                                   f"in mode={mode!r} to run {run_id}: trials are unique on "
                                   "(run, scenario, mode, trial) and this one is already "
                                   "stored; skip the keys Store.completed(run_id) returns")
