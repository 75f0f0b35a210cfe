"""A stored score's figures in SQL: their columns, or read from the score's JSON.

Each figure of a score (:data:`remit.harness.tally.FIGURES`) has a ``trials`` column
since schema 3, filled when the trial is saved (:func:`remit.harness.tally.figures`).
The same figures can be read from the score's JSON in SQL (:func:`score_figures`), with
the defaults :class:`~remit.harness.TrialScore` gives the fields an older score lacks:
on SQLite with ``json_extract``, on PostgreSQL from one ``json_to_record`` per row (each
``->>`` would parse the score again: thirty times per row). The migration to schema 3
fills the columns of existing trials that way (:func:`fill_figures`), a reader of an
older database reads them that way, and a row whose columns are ``NULL`` (saved by
something other than remit) is read that way. Tests hold the three to the same numbers.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    Boolean,
    ColumnElement,
    Connection,
    FromClause,
    Integer,
    Text,
    case,
    cast,
    column,
    func,
    select,
    true,
    update,
)
from sqlalchemy.types import TypeEngine

from remit.harness.tally import FIGURES
from remit.store.tables import TRIALS

__all__ = ["FIGURES_SINCE", "Figures", "column_figures", "fill_figures", "score_figures"]

FIGURES_SINCE = 3
"""The schema version that added the figure columns."""

_BOOLEAN = ("wrong_variant", "wrong_variant_shown")
"""Figures that are ``true``/``false`` in the score's JSON."""

_DERIVED = ("pooled_handoffs", "no_valid_write", "agent_error", "reported_usage")
"""The figures computed from the score's fields (the others are fields of that name)."""

_FIELDS = tuple(n for n in FIGURES if n not in _DERIVED)
"""The figures that are fields of the score."""

_READ = ("agent_writes", "end_reason", "usage")
"""The score's fields the derived figures read, besides :data:`_FIELDS`."""


class Figures(NamedTuple):
    """How a query over ``trials`` reads each row's figures.

    Attributes:
        figure: each figure's expression, by name.
        source: what the query selects from: ``trials``, joined on PostgreSQL to the
            fields of each row's score when figures are read from it.
    """

    figure: dict[str, ColumnElement[int]]
    source: FromClause


def column_figures() -> Figures:
    """The figures as the columns hold them (schema 3 and later)."""
    return Figures({name: TRIALS.c[name] for name in FIGURES}, TRIALS)


def _fields(dialect: str) -> tuple[dict[str, ColumnElement[object]], FromClause]:
    """The score's fields the figures are computed from, and the source they need."""
    names = [*_FIELDS, *_READ]
    if dialect != "postgresql":
        return {n: func.json_extract(TRIALS.c.score, f"$.{n}") for n in names}, TRIALS
    kinds: dict[str, type[TypeEngine[Any]]] = {
        n: Boolean if n in _BOOLEAN else Integer for n in names}
    kinds |= {"end_reason": Text, "usage": JSON}
    score = (func.json_to_record(cast(TRIALS.c.score, JSON))
             .table_valued(*(column(n, kinds[n]) for n in names))
             .render_derived(name="score_fields", with_types=True).lateral())
    return {n: score.c[n] for n in names}, TRIALS.join(score, true())


def score_figures(dialect: str, version: int) -> Figures:
    """The figures read from each row's score (``dialect``: ``sqlite`` or
    ``postgresql``); in a database of schema ``version`` 3 or later, from its columns
    where they are filled."""
    field, source = _fields(dialect)

    def number(name: str) -> ColumnElement[int]:
        value = field[name]
        return func.coalesce(cast(value, Integer) if name in _BOOLEAN else value, 0)

    writes = field["agent_writes"]
    figure: dict[str, ColumnElement[int]] = {n: number(n) for n in _FIELDS}
    figure |= {
        "pooled_handoffs": case((number("handoffs") >= number("abandoned_handoffs"),
                                 number("handoffs")), else_=number("abandoned_handoffs")),
        "no_valid_write": case((writes.is_(None), None), (cast(writes, Integer) == 0, 1),
                               else_=0),
        "agent_error": case((cast(field["end_reason"], Text) == "agent_error", 1), else_=0),
        "reported_usage": case((field["usage"].is_(None), 0), else_=1),
    }
    if version >= FIGURES_SINCE:
        figure = {n: func.coalesce(TRIALS.c[n], e) for n, e in figure.items()}
    return Figures({n: figure[n] for n in FIGURES}, source)


def fill_figures(connection: Connection) -> None:
    """Fill every trial's figure columns from its score (the migration to schema 3)."""
    read = score_figures(connection.dialect.name, 0)
    filled = (select(TRIALS.c.pk.label("filled_pk"),
                     *(e.label(n) for n, e in read.figure.items()))
              .select_from(read.source).subquery("filled"))
    connection.execute(update(TRIALS).where(TRIALS.c.pk == filled.c.filled_pk)
                       .values({n: filled.c[n] for n in FIGURES}))
