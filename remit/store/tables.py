"""The store's tables: the only SQLModel table classes in remit.

Schema version 3 (version 1 lacked ``trials.seconds``, version 2 the figure columns;
opening an older database adds them, see :mod:`remit.store.schema`):

- ``meta`` (key, value): ``schema_version`` -> ``"3"``, and remit's marker
  ``application`` -> ``"remit"`` (SQLite files also carry :data:`SQLITE_APPLICATION_ID`
  in their header; see :mod:`remit.store.schema`).
- ``runs``: one row per run; the manifest as JSON plus the columns that listings read.
- ``trials``: one row per trial, unique on (run_id, scenario_id, mode, trial); the score
  as JSON; ``trial_id`` is ``RUN/SCENARIO/MODE/TRIAL``; ``pk`` is a surrogate key that
  events refer to. Seeds are stored as decimal text because they use all 64 bits.
  ``seconds`` is the trial's wall-clock duration (``NULL`` when unknown). One integer
  column per figure of the score (:data:`remit.harness.tally.FIGURES`: ``steps``,
  ``unsupported_claims``, ``no_valid_write``...), copied from it when the trial is saved,
  so that summaries and comparisons sum columns in SQL instead of reading every score;
  the JSON stays the record, and a row whose figures are ``NULL`` is read from it.
- ``events``: the ordered trail (and so the transcript) of each trial, one row per trail
  entry: (trial_pk, seq) with the entry's kind, step, minute and JSON payload.

Rows are built from domain models in :mod:`remit.store.rows`; these classes never leave
the store. Writes go through SQLAlchemy Core on the ``Table`` objects below, which is
several times faster than adding ORM objects one by one.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, DateTime, Integer, Table, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from remit.harness.tally import FIGURES

__all__ = ["APPLICATION", "EVENTS", "FIGURE_COLUMNS", "META", "RUNS", "SCHEMA_VERSION",
           "SQLITE_APPLICATION_ID", "STORE_TABLES", "TRIALS"]

SCHEMA_VERSION = 3
"""The store schema this remit writes and the newest it reads. Bump it (and add a
migration) whenever a table changes."""

APPLICATION = "remit"
"""The value of the ``meta`` row ``application`` that marks a database as remit's."""

SQLITE_APPLICATION_ID = 0x72656D74
"""``PRAGMA application_id`` of remit's SQLite files: ``remt`` in ASCII (1919249780).
Tools such as ``file`` read it from the header; another application's id is refused."""


class MetaRow(SQLModel, table=True):
    """One setting of the database; ``schema_version`` is the one that matters."""

    __tablename__ = "meta"

    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(sa_type=Text)


class RunRow(SQLModel, table=True):
    """One run: its manifest (JSON) and the columns a listing needs."""

    __tablename__ = "runs"

    run_id: str = Field(primary_key=True, max_length=200)
    suite_id: str = Field(max_length=200)
    suite_fingerprint: str = Field(max_length=128)
    scorer_version: str = Field(max_length=32)
    agent_id: str = Field(sa_type=Text)
    modes: str = Field(sa_type=Text)
    started_at: datetime = Field(sa_type=DateTime(timezone=True), index=True)
    ended_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    manifest: str = Field(sa_type=Text)


class TrialRow(SQLModel, table=True):
    """One trial of a run: its key, seed, attempts, duration and score (JSON)."""

    __tablename__ = "trials"
    __table_args__ = (
        UniqueConstraint("run_id", "scenario_id", "mode", "trial",
                         name="uq_trials_run_scenario_mode_trial"),
    )

    pk: int | None = Field(default=None, primary_key=True)
    trial_id: str = Field(sa_type=Text, unique=True)
    run_id: str = Field(foreign_key="runs.run_id", ondelete="CASCADE", max_length=200)
    scenario_id: str = Field(max_length=200)
    mode: str = Field(max_length=200)
    trial: int
    seed: str = Field(max_length=40)
    passed: bool
    attempts: int
    infra_error: str | None = Field(default=None, sa_type=Text)
    score: str = Field(sa_type=Text)
    seconds: float | None = Field(default=None)


class EventRow(SQLModel, table=True):
    """One trail entry of a trial, in order (``seq`` from 0)."""

    __tablename__ = "events"

    trial_pk: int = Field(foreign_key="trials.pk", ondelete="CASCADE", primary_key=True)
    seq: int = Field(primary_key=True)
    kind: str = Field(max_length=32)
    step: int
    minute: int
    payload: str = Field(sa_type=Text)


META: Table = SQLModel.metadata.tables["meta"]
"""The ``meta`` table (Core)."""
RUNS: Table = SQLModel.metadata.tables["runs"]
"""The ``runs`` table (Core)."""
TRIALS: Table = SQLModel.metadata.tables["trials"]
"""The ``trials`` table (Core), with a figure column per name of :data:`FIGURE_COLUMNS`."""
FIGURE_COLUMNS: tuple[str, ...] = FIGURES
"""The ``trials`` columns that hold the score's figures (nullable integers; schema 3)."""
for _figure in FIGURE_COLUMNS:
    TRIALS.append_column(Column(_figure, Integer, nullable=True))
EVENTS: Table = SQLModel.metadata.tables["events"]
"""The ``events`` table (Core)."""
STORE_TABLES: tuple[Table, ...] = (META, RUNS, TRIALS, EVENTS)
"""Every store table, parents first (the order ``create_all`` needs)."""
