"""A stored score's figures in SQL: their columns, or read from the score's JSON.

Each figure of a score (:data:`remit.harness.tally.FIGURES`) has a ``trials`` column
since schema 3, filled when the trial is saved (:func:`remit.harness.tally.figures`).
The same figure can be read from the score's JSON in SQL (:func:`json_figure`:
SQLite's ``json_extract``, PostgreSQL's ``->>``), with the defaults
:class:`~remit.harness.TrialScore` gives a field an older score lacks: the migration to
schema 3 fills the columns of existing trials that way, a reader of an older database
reads them that way, and a row whose column is ``NULL`` (written by something other
than remit) falls back to it (:func:`figure_expression`). Tests hold the three ways to
the same numbers.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Integer, func, literal_column

from remit.harness.tally import FIGURES
from remit.store.tables import TRIALS

__all__ = ["FIGURES_SINCE", "figure_expression", "json_figure"]

FIGURES_SINCE = 3
"""The schema version that added the figure columns."""

_BOOLEAN = frozenset({"wrong_variant", "wrong_variant_shown"})
"""Figures stored in the score's JSON as ``true``/``false``."""

_DERIVED = {"no_valid_write": "agent_writes", "agent_error": "end_reason",
            "reported_usage": "usage"}
"""Figures that are not a field of the score, and the field each is read from
(``pooled_handoffs`` is the larger of two fields)."""


def _field(name: str, dialect: str) -> str:
    """The score's JSON field ``name`` as SQL text (``NULL`` when absent or null)."""
    if dialect == "postgresql":
        return f"(CAST(trials.score AS json) ->> '{name}')"
    return f"json_extract(trials.score, '$.{name}')"


def _number(name: str, dialect: str) -> str:
    """The score's integer or boolean field ``name`` as an integer, 0 when absent (the
    default of every such field of :class:`~remit.harness.TrialScore`)."""
    value = _field(name, dialect)
    if dialect == "postgresql":
        kind = "CAST(CAST({} AS boolean) AS integer)" if name in _BOOLEAN \
            else "CAST({} AS integer)"
        value = kind.format(value)
    return f"COALESCE({value}, 0)"


def json_figure(name: str, dialect: str) -> str:
    """Figure ``name`` of the row's score, read from its JSON, as SQL text over the
    ``trials`` table (``dialect``: ``sqlite`` or ``postgresql``)."""
    if name not in FIGURES:
        raise ValueError(f"name={name!r} is not a figure; the figures are {', '.join(FIGURES)}")
    if name == "pooled_handoffs":
        larger = "greatest" if dialect == "postgresql" else "max"
        return (f"{larger}({_number('handoffs', dialect)}, "
                f"{_number('abandoned_handoffs', dialect)})")
    source = _DERIVED.get(name)
    if source is None:
        return _number(name, dialect)
    field = _field(source, dialect)
    if name == "no_valid_write":
        writes = f"CAST({field} AS integer)" if dialect == "postgresql" else field
        return f"CASE WHEN {field} IS NULL THEN NULL WHEN {writes} = 0 THEN 1 ELSE 0 END"
    if name == "agent_error":
        return f"CASE WHEN {field} = 'agent_error' THEN 1 ELSE 0 END"
    return f"CASE WHEN {field} IS NULL THEN 0 ELSE 1 END"  # reported_usage


def figure_expression(name: str, dialect: str, version: int) -> ColumnElement[int]:
    """Figure ``name`` of each ``trials`` row in a database of schema ``version``: its
    column, or its JSON where the column is ``NULL`` or not there yet."""
    from_json: ColumnElement[int] = literal_column(json_figure(name, dialect), Integer)
    if version < FIGURES_SINCE:
        return from_json
    return func.coalesce(TRIALS.c[name], from_json)
