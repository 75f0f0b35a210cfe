"""A run's trials tallied in SQL: what summaries and comparisons read of them.

One ``GROUP BY`` per run sums the figures of its trials' scores
(:mod:`remit.store.figures`) per scenario, mode, and whether the trials ended in an
infrastructure error, into :class:`~remit.harness.tally.ScenarioTally` rows; only the
scores of trials whose agent reported its usage (an LLM agent's: model calls, tokens,
cost, reply issues by kind) are read one by one. No trail is read, and nothing is built
per trial, so 100,000 trials cost a scan of their rows. The tallies equal
:func:`~remit.harness.tally.tally_records` of the run's records.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, Connection, Row, case, func, select

from remit.actors import AgentUsage
from remit.harness import TrialScore
from remit.harness.tally import COUNTED, FIGURES, NULLABLE, ScenarioTally, Tally, UsageTally
from remit.store.figures import figure_expression
from remit.store.tables import TRIALS

__all__ = ["read_tallies"]

_Key = tuple[str, str, bool]


def _sums(figure: dict[str, ColumnElement[int]]) -> list[ColumnElement[int]]:
    """The aggregates of a group's figures, labelled ``total_``, ``positive_`` and
    ``measured_`` with the figure's name."""
    return [
        *(func.sum(figure[n]).label(f"total_{n}") for n in FIGURES),
        *(func.sum(case((figure[n] > 0, 1), else_=0)).label(f"positive_{n}") for n in COUNTED),
        *(func.count(figure[n]).label(f"measured_{n}") for n in NULLABLE),
    ]


def _usages(connection: Connection, run_id: str, reported: ColumnElement[bool]
            ) -> dict[_Key, list[AgentUsage]]:
    """The usages reported by a run's trials, per group, in trial order."""
    infra = TRIALS.c.infra_error.is_not(None)
    rows = connection.execute(
        select(TRIALS.c.scenario_id, TRIALS.c.mode, infra.label("infra"), TRIALS.c.trial,
               TRIALS.c.score).where(TRIALS.c.run_id == run_id, reported)).all()
    usages: dict[_Key, list[AgentUsage]] = {}
    for row in sorted(rows, key=lambda r: (r.scenario_id, r.mode, r.trial)):
        usage = TrialScore.model_validate_json(row.score).usage
        if usage is not None:
            usages.setdefault((row.scenario_id, row.mode, bool(row.infra)), []).append(usage)
    return usages


def _tally(row: Row[tuple[object, ...]], usages: Sequence[AgentUsage]) -> Tally:
    values = row._mapping
    return Tally(trials=int(values["trials"]), passed=int(values["passed"] or 0),
                 totals={n: int(values[f"total_{n}"] or 0) for n in FIGURES},
                 positive={n: int(values[f"positive_{n}"] or 0) for n in COUNTED},
                 measured={n: int(values[f"measured_{n}"] or 0) for n in NULLABLE},
                 usage=UsageTally.of(usages))


def read_tallies(connection: Connection, run_id: str, version: int) -> tuple[ScenarioTally, ...]:
    """The tallies of run ``run_id`` in a database of schema ``version``, ordered (and
    their ``first`` numbered) as the run's trials are read: by scenario id, mode and
    trial index."""
    dialect = connection.dialect.name
    figure = {name: figure_expression(name, dialect, version) for name in FIGURES}
    infra = TRIALS.c.infra_error.is_not(None)
    query = (select(TRIALS.c.scenario_id, TRIALS.c.mode, infra.label("infra"),
                    func.min(TRIALS.c.trial).label("first_trial"),
                    func.count().label("trials"),
                    func.sum(case((TRIALS.c.passed, 1), else_=0)).label("passed"),
                    *_sums(figure))
             .where(TRIALS.c.run_id == run_id)
             .group_by(TRIALS.c.scenario_id, TRIALS.c.mode, infra))
    # Sorted here, not in SQL: PostgreSQL's collation may order ids unlike Python.
    rows = sorted(connection.execute(query).all(),
                  key=lambda r: (r.scenario_id, r.mode, r.first_trial))
    usages: dict[_Key, list[AgentUsage]] = {}
    if any(row._mapping["total_reported_usage"] for row in rows):
        usages = _usages(connection, run_id, figure["reported_usage"] == 1)
    return tuple(
        ScenarioTally(row.scenario_id, row.mode, bool(row.infra), first,
                      _tally(row, usages.get((row.scenario_id, row.mode, bool(row.infra)), ())))
        for first, row in enumerate(rows))
