"""The store: runs, trials and their trails, in SQLite or PostgreSQL, in domain terms.

Manifests and trial records go in; manifests, records, listings and tallies come out;
table rows never leave the package. A batch of saved trials is one transaction: their
``trials`` rows and all their ``events`` rows (bulk inserts) commit together or not at
all, so a trial is either stored whole or not at all, and never twice (a trial already
stored is skipped: another process resuming the same run saved it first).

Example:
    >>> with Store.open("sqlite://") as store:                     # doctest: +SKIP
    ...     store.create_run(manifest)
    ...     store.save_trials(manifest.run_id, result.trials)
    ...     store.finish_run(manifest.run_id, datetime.now(UTC))
    ...     assert store.trials(manifest.run_id) == sorted(result.trials, key=...)
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Sequence
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from types import TracebackType
from typing import Any, ClassVar, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict
from sqlalchemy import Connection, Float, Row, func, null, select, text

from remit.harness import RunManifest, TrialRecord
from remit.harness.tally import ScenarioTally
from remit.store.database import Database, RowValue
from remit.store.errors import (
    DuplicateRunError,
    DuplicateTrialError,
    MissingDatabaseError,
    StoreError,
    UnknownRunError,
    UnknownTrialError,
)
from remit.store.rows import (
    manifest_from_json,
    record_from_row,
    run_row,
    trail_from_payloads,
    trail_rows,
    trial_id_for,
    trial_row,
    utc,
)
from remit.store.schema import ensure_schema
from remit.store.tables import EVENTS, FIGURE_COLUMNS, RUNS, SCHEMA_VERSION, TRIALS
from remit.store.tallying import read_tallies
from remit.store.urls import describe_url, resolve_url, sqlite_path
from remit.world import TrailEntry

__all__ = ["RunListing", "Store"]

_KNOWN_SHOWN = 5
_TRIAL_COLUMNS = (TRIALS.c.pk, TRIALS.c.scenario_id, TRIALS.c.mode, TRIALS.c.trial,
                  TRIALS.c.seed, TRIALS.c.attempts, TRIALS.c.infra_error, TRIALS.c.score)
_SECONDS_SINCE = 2
"""The schema version that added ``trials.seconds``."""
_TRAILS_PER_QUERY = 10_000
"""Most trials whose trails :meth:`Store.trails` reads in one query: their ids are bound
parameters, and SQLite allows 32,766 of them, PostgreSQL 65,535."""


class RunListing(BaseModel):
    """One stored run, as ``remit runs`` lists it.

    Attributes:
        run_id: the run's id.
        suite_id: the suite it ran.
        agent_id: the agent spec.
        modes: the control modes, in run order.
        trials: trials stored so far.
        passed: how many of them passed.
        started_at, ended_at: aware UTC times (``ended_at`` is ``None`` while running or
            when the run was interrupted).
    """

    model_config = ConfigDict(frozen=True)

    run_id: str
    suite_id: str
    agent_id: str
    modes: tuple[str, ...]
    trials: int
    passed: int
    started_at: AwareDatetime
    ended_at: AwareDatetime | None


_PG_TRIAL_COLUMNS = ("trial_id text, run_id text, scenario_id text, mode text, trial integer, "
                     "seed text, passed boolean, attempts integer, infra_error text, score text, "
                     "seconds double precision, "
                     + ", ".join(f"{name} integer" for name in FIGURE_COLUMNS))
_PG_SAVE_TRIALS = text(f"""
INSERT INTO trials ({", ".join(c.split()[0] for c in _PG_TRIAL_COLUMNS.split(", "))})
SELECT * FROM json_to_recordset(CAST(:trials AS json)) AS t({_PG_TRIAL_COLUMNS})
ON CONFLICT DO NOTHING
RETURNING trial_id, pk
""")
"""PostgreSQL: a batch's trial rows in one statement, skipping the trials already
stored; returns the ids and keys of those saved."""
_PG_COPY_EVENTS = "COPY events (trial_pk, seq, kind, step, minute, payload) FROM STDIN"
"""PostgreSQL: the trails of a batch's saved trials, streamed in one COPY (the server's
fastest way in: no statement per row, no JSON to parse)."""

_SQLITE_TRIAL_COLUMNS = tuple(c.name for c in TRIALS.columns)
_SQLITE_SAVE_TRIALS = (f"INSERT INTO trials ({', '.join(_SQLITE_TRIAL_COLUMNS)}) "
                       f"VALUES ({', '.join('?' * len(_SQLITE_TRIAL_COLUMNS))})")
_SQLITE_SAVE_EVENTS = ("INSERT INTO events (trial_pk, seq, kind, step, minute, payload) "
                       "VALUES (?, ?, ?, ?, ?, ?)")
"""SQLite: the rows of a batch, inserted by the driver's executemany from tuples (a
local loop in C; going through SQLAlchemy's parameter processing cost as much again)."""


class Store:
    """Runs, trials and trails in one database. Open it with :meth:`Store.open`.

    Trial ids are ``RUN/SCENARIO/MODE/TRIAL`` (e.g. ``r-1/valve-swap/dual_control/0``):
    readable, and derived from the key trials are unique on.

    Attributes:
        schema_version: the store schema this remit writes (:data:`SCHEMA_VERSION`).
        database: the database as shown to users (a path, or a URL without password).
    """

    schema_version: ClassVar[int] = SCHEMA_VERSION

    def __init__(self, db: Database, *, version: int = SCHEMA_VERSION) -> None:
        """Wrap an open :class:`~remit.store.database.Database` of schema ``version``; use
        :meth:`open` instead."""
        self._db = db
        self._version = version
        self.database = db.name
        seconds = TRIALS.c.seconds if version >= _SECONDS_SINCE else \
            null().cast(Float).label("seconds")  # not kept before schema 2: unknown
        self._trial_columns = (*_TRIAL_COLUMNS, seconds)

    @classmethod
    def open(cls, url: str | None = None, *, busy_timeout_seconds: float = 30.0,
             create: bool = True, read_only: bool = False) -> Store:
        """Open the remit database ``url`` names (and, when it is new or empty and the
        store may write, create it).

        Args:
            url: a file path, ``sqlite:///PATH`` or ``postgresql://USER@HOST:PORT/DB``;
                ``None`` reads ``REMIT_DB``, else uses ``./remit.db``.
            create: whether a missing SQLite file may be created (``remit run --resume``
                passes ``False``: the run it resumes must be there).
            read_only: open it for reading only: nothing is created, migrated, marked or
                switched to WAL, and every write fails. Commands that only read pass
                ``True``; a database of an older schema is read as it is.
            busy_timeout_seconds: how long a SQLite write waits for another process's
                lock before it is retried (three attempts in all).

        Raises:
            StoreUrlError: ``url`` names no supported database.
            MissingDatabaseError: there is no remit database there and the store may not
                create one (``read_only``, or ``create=False`` and no file).
            StoreUnavailableError: it cannot be reached or opened (or stays locked).
            NotRemitDatabaseError: it is another application's database; it is left
                untouched.
            StoreCorruptError: the file is not a database, or a damaged one; it is left
                untouched.
            SchemaVersionError: it was written by a newer remit; it is left untouched.
        """
        resolved = resolve_url(url, environ=os.environ)
        path = sqlite_path(resolved)
        if (read_only or not create) and path is not None and not path.exists():
            raise MissingDatabaseError(describe_url(resolved))
        db = Database(resolved, busy_timeout_seconds, read_only=read_only)
        try:
            version = ensure_schema(db, write=not read_only)
        except BaseException:
            db.dispose()
            raise
        return cls(db, version=version)

    def close(self) -> None:
        """Close the store's connections."""
        self._db.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------

    def create_run(self, manifest: RunManifest) -> None:
        """Store a new run's manifest.

        Raises:
            DuplicateRunError: a run with that id is already stored.
        """
        row = run_row(manifest)

        def work(connection: Connection) -> None:
            if self._run_exists(connection, manifest.run_id):
                raise DuplicateRunError(self.database, manifest.run_id)
            connection.execute(RUNS.insert().values(row))

        self._db.write(work, conflict=lambda: DuplicateRunError(self.database, manifest.run_id))

    def finish_run(self, run_id: str, ended_at: datetime) -> None:
        """Record that a run ended at ``ended_at`` (aware) in its manifest.

        Raises:
            UnknownRunError: no such run.
            pydantic.ValidationError: ``ended_at`` is naive.
        """

        def work(connection: Connection) -> None:
            manifest = self._manifest(connection, run_id)
            finished = RunManifest.model_validate(
                manifest.model_dump() | {"ended_at": ended_at})
            connection.execute(RUNS.update().where(RUNS.c.run_id == run_id).values(
                ended_at=utc(ended_at), manifest=finished.model_dump_json()))

        self._db.write(work)

    def discard_if_empty(self, run_id: str) -> bool:
        """Delete a run that holds no trials (one stopped before its first finished), in
        one transaction; a run with trials is left alone.

        Returns:
            Whether the run was deleted.

        Raises:
            UnknownRunError: no such run.
        """

        def work(connection: Connection) -> bool:
            self._require_run(connection, run_id)
            held = connection.execute(select(func.count()).select_from(TRIALS)
                                      .where(TRIALS.c.run_id == run_id)).scalar_one()
            if held:
                return False
            connection.execute(RUNS.delete().where(RUNS.c.run_id == run_id))
            return True

        return self._db.write(work)

    def manifest(self, run_id: str) -> RunManifest:
        """The manifest of a stored run.

        Raises:
            UnknownRunError: no such run.
        """
        return self._db.read(lambda c: self._manifest(c, run_id))

    def runs(self) -> list[RunListing]:
        """Every stored run, newest first, with its count of stored and passed trials."""
        stored = (select(TRIALS.c.run_id, func.count().label("trials"),
                         func.count().filter(TRIALS.c.passed).label("passed"))
                  .group_by(TRIALS.c.run_id).subquery())
        query = (select(RUNS.c.run_id, RUNS.c.suite_id, RUNS.c.agent_id, RUNS.c.modes,
                        RUNS.c.started_at, RUNS.c.ended_at, stored.c.trials, stored.c.passed)
                 .outerjoin(stored, stored.c.run_id == RUNS.c.run_id))
        rows = sorted(self._db.read(lambda c: c.execute(query).all()), key=lambda r: r.run_id)
        rows.sort(key=lambda r: utc(r.started_at), reverse=True)
        return [RunListing(run_id=r.run_id, suite_id=r.suite_id, agent_id=r.agent_id,
                           modes=tuple(json.loads(r.modes)), trials=r.trials or 0,
                           passed=r.passed or 0, started_at=utc(r.started_at),
                           ended_at=None if r.ended_at is None else utc(r.ended_at))
                for r in rows]

    # -- trials -------------------------------------------------------------------------

    def save_trial(self, run_id: str, record: TrialRecord) -> str:
        """Store one finished trial and its whole trail, in one transaction.

        Returns:
            The trial's id, ``RUN/SCENARIO/MODE/TRIAL``.

        Raises:
            UnknownRunError: no such run (create it first).
            DuplicateTrialError: that (scenario, mode, trial) is already stored for the run.
        """
        if not self.save_trials(run_id, [record]):
            s = record.scored
            raise DuplicateTrialError(self.database, run_id, s.scenario_id, s.mode, s.trial)
        return trial_id_for(run_id, record.scored.scenario_id, record.scored.mode,
                            record.scored.trial)

    def save_trials(self, run_id: str, records: Sequence[TrialRecord]) -> list[str]:
        """Store finished trials and their whole trails, all in one transaction; a trial
        the run already holds (another process resuming the run saved it first: trials
        are deterministic given their seed, so the stored one stands for it) is skipped.

        Returns:
            The ids (``RUN/SCENARIO/MODE/TRIAL``) of the trials saved, in order; those
            skipped are left out.

        Raises:
            UnknownRunError: no such run (create it first).
            DuplicateTrialError: ``records`` holds the same trial twice.
        """
        if not records:
            return []
        keys = [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in records]
        twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None) \
            if len(set(keys)) < len(keys) else None
        if twice is not None:
            raise DuplicateTrialError(self.database, run_id, *twice)
        rows = [trial_row(run_id, record) for record in records]
        if self._db.dialect == "postgresql":
            return self._save_trials_postgres(run_id, records, rows)

        def work(connection: Connection) -> list[str]:
            # BEGIN IMMEDIATE holds the write lock: nothing can be saved in between.
            ids = [row["trial_id"] for row in rows]
            held = set(connection.execute(select(TRIALS.c.trial_id).where(
                TRIALS.c.run_id == run_id, TRIALS.c.trial_id.in_(ids))).scalars())
            fresh = [(row, record) for row, record in zip(rows, records, strict=True)
                     if row["trial_id"] not in held]
            if not fresh:
                return []
            first = connection.execute(
                select(func.coalesce(func.max(TRIALS.c.pk), 0))).scalar_one() + 1
            keyed = [{**row, "pk": first + i} for i, (row, _) in enumerate(fresh)]
            connection.exec_driver_sql(_SQLITE_SAVE_TRIALS, [
                tuple(row[c] for c in _SQLITE_TRIAL_COLUMNS) for row in keyed])
            events = [(first + i, *entry) for i, (_, record) in enumerate(fresh)
                      for entry in trail_rows(record)]
            if events:
                connection.exec_driver_sql(_SQLITE_SAVE_EVENTS, events)
            return [str(row["trial_id"]) for row, _ in fresh]

        return self._db.write(work, conflict=lambda: self._conflict(run_id, records))

    def _conflict(self, run_id: str, records: Sequence[TrialRecord]) -> StoreError:
        # The run's foreign key or a trial's unique key rejected it: say which.
        if not self._db.read(lambda c: self._run_exists(c, run_id)):
            return UnknownRunError(self.database, run_id, self._db.read(self._known_runs))
        s = records[0].scored  # unreachable while trials already held are skipped
        return DuplicateTrialError(self.database, run_id, s.scenario_id, s.mode, s.trial)

    def _save_trials_postgres(self, run_id: str, records: Sequence[TrialRecord],
                              rows: list[dict[str, RowValue]]) -> list[str]:
        """The trials' rows in one statement, then their events in one COPY: a batch
        costs two round trips and the commit (on loopback the round trips and the
        server's parsing, not the data, are what a save costs)."""
        trials = json.dumps(rows)

        def work(connection: Connection) -> list[str]:
            saved: dict[str, int] = {row.trial_id: row.pk for row in connection.execute(
                _PG_SAVE_TRIALS, {"trials": trials})}
            raw = connection.connection.driver_connection  # psycopg's, in this transaction
            if raw is None:  # pragma: no cover - a checked-out connection always has one
                raise StoreError(self.database, f"no driver connection to {self.database}")
            with raw.cursor() as cursor, cursor.copy(_PG_COPY_EVENTS) as copy:
                for row, record in zip(rows, records, strict=True):
                    pk = saved.get(str(row["trial_id"]))
                    if pk is not None:
                        for entry in trail_rows(record):
                            copy.write_row((pk, *entry))
            return [str(row["trial_id"]) for row in rows if row["trial_id"] in saved]

        return self._db.write(work, conflict=lambda: self._conflict(run_id, records))

    def discard_errored(self, run_id: str) -> list[tuple[str, str, int]]:
        """Delete a run's trials that ended in an infrastructure error, in one
        transaction, so that a resume runs them again (their events go with them, by the
        foreign key's ``ON DELETE CASCADE``).

        Returns:
            The (scenario_id, mode, trial) keys deleted, sorted.

        Raises:
            UnknownRunError: no such run.
        """
        errored = (TRIALS.c.run_id == run_id) & TRIALS.c.infra_error.is_not(None)

        def work(connection: Connection) -> list[tuple[str, str, int]]:
            self._require_run(connection, run_id)
            rows = connection.execute(
                select(TRIALS.c.scenario_id, TRIALS.c.mode, TRIALS.c.trial)
                .where(errored)).all()
            if rows:
                connection.execute(TRIALS.delete().where(errored))
            return sorted((r.scenario_id, r.mode, r.trial) for r in rows)

        return self._db.write(work)

    def completed(self, run_id: str) -> set[tuple[str, str, int]]:
        """The (scenario_id, mode, trial) keys stored for a run: what a resume skips.

        Raises:
            UnknownRunError: no such run.
        """

        def work(connection: Connection) -> set[tuple[str, str, int]]:
            self._require_run(connection, run_id)
            rows = connection.execute(
                select(TRIALS.c.scenario_id, TRIALS.c.mode, TRIALS.c.trial)
                .where(TRIALS.c.run_id == run_id))
            return {(r.scenario_id, r.mode, r.trial) for r in rows}

        return self._db.read(work)

    def trials(self, run_id: str, *, with_trails: bool = True) -> list[TrialRecord]:
        """A run's trial records ordered by scenario id, mode and trial index.

        Args:
            run_id: the run.
            with_trails: ``False`` skips reading the events: each record's ``trail`` is
                then empty, which is all aggregation and listings need, and much faster.

        Raises:
            UnknownRunError: no such run.
        """

        def work(connection: Connection) -> list[TrialRecord]:
            self._require_run(connection, run_id)
            # Sorted here, not in SQL: PostgreSQL's collation may order ids unlike Python.
            rows = sorted(
                connection.execute(select(*self._trial_columns)
                                   .where(TRIALS.c.run_id == run_id)),
                key=lambda r: (r.scenario_id, r.mode, r.trial))
            payloads: dict[int, list[str]] = {}
            if with_trails:
                events = connection.execute(
                    select(EVENTS.c.trial_pk, EVENTS.c.payload)
                    .join(TRIALS, TRIALS.c.pk == EVENTS.c.trial_pk)
                    .where(TRIALS.c.run_id == run_id)
                    .order_by(EVENTS.c.trial_pk, EVENTS.c.seq))
                payloads = {pk: [payload for _, payload in group]
                            for pk, group in groupby(events, key=itemgetter(0))}
            return [_record(r, payloads.get(r.pk, [])) for r in rows]

        return self._db.read(work)

    def tallies(self, run_id: str) -> tuple[ScenarioTally, ...]:
        """A run's trials tallied per scenario, mode and infrastructure error, in SQL:
        what summaries and comparisons read of them (:mod:`remit.harness.tally`), equal
        to :func:`~remit.harness.tally.tally_records` of :meth:`trials` and much faster
        (no record is built; see :mod:`remit.store.tallying`).

        Raises:
            UnknownRunError: no such run.
        """

        def work(connection: Connection) -> tuple[ScenarioTally, ...]:
            self._require_run(connection, run_id)
            return read_tallies(connection, run_id, self._version)

        return self._db.read(work)

    def trails(self, run_id: str, keys: Collection[tuple[str, str, int]]
               ) -> dict[tuple[str, str, int], tuple[TrailEntry, ...]]:
        """The trails of chosen trials of a run, read in one query (per 10,000 trials).

        A report shows the trails of a few of a run's trials (the failing ones and an
        example of each scenario and mode): it reads every record without its trail
        (``trials(run_id, with_trails=False)``), then only those trails, so the events
        of the others are neither read nor parsed.

        Args:
            run_id: the run.
            keys: the trials, as (scenario_id, mode, trial).

        Returns:
            Each key's trail, in order (empty for a trial that recorded none).

        Raises:
            UnknownRunError: no such run.
            UnknownTrialError: a key names no stored trial of the run.
        """
        wanted = {trial_id_for(run_id, *key): key for key in keys}
        ids = list(wanted)

        def work(connection: Connection) -> dict[tuple[str, str, int], tuple[TrailEntry, ...]]:
            self._require_run(connection, run_id)
            payloads: dict[str, list[str]] = {}
            for start in range(0, len(ids), _TRAILS_PER_QUERY):
                rows = connection.execute(
                    select(TRIALS.c.trial_id, EVENTS.c.payload)
                    .select_from(TRIALS.outerjoin(EVENTS, EVENTS.c.trial_pk == TRIALS.c.pk))
                    .where(TRIALS.c.trial_id.in_(ids[start:start + _TRAILS_PER_QUERY]))
                    .order_by(TRIALS.c.pk, EVENTS.c.seq))
                # rows unpacked as tuples: a report reads ~50 events per trail it shows
                for trial_id, group in groupby(rows, key=itemgetter(0)):
                    payloads[trial_id] = [payload for _, payload in group if payload is not None]
            missing = next((i for i in ids if i not in payloads), None)
            if missing is not None:
                raise UnknownTrialError(self.database, missing,
                                        self._known_trials(connection, missing))
            return {wanted[i]: trail_from_payloads(payloads[i]) for i in ids}

        return self._db.read(work)

    def trial(self, trial_id: str) -> TrialRecord:
        """One trial record, trail included, by its id (``RUN/SCENARIO/MODE/TRIAL``).

        Raises:
            UnknownTrialError: no such trial.
        """

        def work(connection: Connection) -> TrialRecord:
            row = connection.execute(
                select(*self._trial_columns).where(TRIALS.c.trial_id == trial_id)).first()
            if row is None:
                raise UnknownTrialError(self.database, trial_id,
                                        self._known_trials(connection, trial_id))
            payloads = connection.execute(
                select(EVENTS.c.payload).where(EVENTS.c.trial_pk == row.pk)
                .order_by(EVENTS.c.seq)).scalars().all()
            return _record(row, payloads)

        return self._db.read(work)

    # -- helpers ------------------------------------------------------------------------

    def _run_exists(self, connection: Connection, run_id: str) -> bool:
        query = select(RUNS.c.run_id).where(RUNS.c.run_id == run_id)
        return connection.execute(query).first() is not None

    def _require_run(self, connection: Connection, run_id: str) -> None:
        if not self._run_exists(connection, run_id):
            raise UnknownRunError(self.database, run_id, self._known_runs(connection))

    def _manifest(self, connection: Connection, run_id: str) -> RunManifest:
        payload = connection.execute(
            select(RUNS.c.manifest).where(RUNS.c.run_id == run_id)).scalar()
        if payload is None:
            raise UnknownRunError(self.database, run_id, self._known_runs(connection))
        return manifest_from_json(payload)

    def _known_runs(self, connection: Connection) -> tuple[str, ...]:
        query = (select(RUNS.c.run_id).order_by(RUNS.c.started_at.desc(), RUNS.c.run_id)
                 .limit(_KNOWN_SHOWN))
        return tuple(connection.execute(query).scalars())

    def _known_trials(self, connection: Connection, trial_id: str) -> tuple[str, ...]:
        run_id = trial_id.split("/", 1)[0]
        query = select(TRIALS.c.trial_id).order_by(TRIALS.c.pk).limit(_KNOWN_SHOWN)
        if self._run_exists(connection, run_id):
            query = query.where(TRIALS.c.run_id == run_id)
        return tuple(connection.execute(query).scalars())


def _record(row: Row[*tuple[Any, ...]], payloads: Sequence[str]) -> TrialRecord:
    return record_from_row(scenario_id=row.scenario_id, mode=row.mode, trial=row.trial,
                           seed=row.seed, attempts=row.attempts, infra_error=row.infra_error,
                           score=row.score, trail=trail_from_payloads(payloads),
                           seconds=row.seconds)
