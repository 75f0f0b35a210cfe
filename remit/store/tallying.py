"""A run's trials tallied in SQL: what summaries and comparisons read of them.

One ``GROUP BY`` per run sums the figures of its trials' scores
(:mod:`remit.store.figures`) per scenario and mode, in the order of the unique index on
``(run_id, scenario_id, mode, trial)``, so SQLite needs no sort. The rarer cases cost an
extra query each: the trials that ended in an infrastructure error are summed apart
(and the others are the rest); a run some of whose rows lack their figure columns is
summed again from the scores' JSON; and only the scores whose agent reported its usage
(an LLM agent's: model calls, tokens, cost, reply issues by kind) are read one by one.
No trail is read, and nothing is built per trial, so 100,000 trials cost one scan of
their rows. The tallies equal :func:`~remit.harness.tally.tally_records` of the run's
records, ordered as :meth:`remit.store.Store.trials` orders them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import ColumnElement, Connection, case, func, select

from remit.actors import AgentUsage
from remit.harness import TrialScore
from remit.harness.tally import COUNTED, FIGURES, NULLABLE, ScenarioTally, Tally, UsageTally
from remit.store.figures import FIGURES_SINCE, Figures, column_figures, score_figures
from remit.store.tables import TRIALS

__all__ = ["read_tallies"]

_Sums = dict[str, int]
"""A group's aggregates by label (``trials``, ``passed``, ``total_steps``...)."""

_INFRA = TRIALS.c.infra_error.is_not(None)


def _aggregates(figure: Mapping[str, ColumnElement[int]]) -> list[ColumnElement[int]]:
    """A group's aggregates, labelled as :data:`_Sums` keys."""
    return [
        func.count().label("trials"),
        func.sum(case((TRIALS.c.passed, 1), else_=0)).label("passed"),
        func.min(TRIALS.c.trial).label("first_trial"),
        func.count(TRIALS.c.infra_error).label("infra"),
        func.count(figure["reported_usage"]).label("filled"),
        *(func.sum(figure[n]).label(f"total_{n}") for n in FIGURES),
        *(func.sum(case((figure[n] > 0, 1), else_=0)).label(f"positive_{n}") for n in COUNTED),
        *(func.count(figure[n]).label(f"measured_{n}") for n in NULLABLE),
    ]


def _grouped(connection: Connection, run_id: str, read: Figures, *,
             infra_only: bool = False) -> dict[tuple[str, str], _Sums]:
    """The aggregates of a run's trials (or only those that ended in an infrastructure
    error) per scenario and mode."""
    query = (select(TRIALS.c.scenario_id, TRIALS.c.mode, *_aggregates(read.figure))
             .select_from(read.source)
             .where(TRIALS.c.run_id == run_id, *([_INFRA] if infra_only else []))
             .group_by(TRIALS.c.scenario_id, TRIALS.c.mode))
    return {(row.scenario_id, row.mode): {k: int(v or 0) for k, v in row._mapping.items()
                                          if k not in ("scenario_id", "mode")}
            for row in connection.execute(query)}


def _usages(connection: Connection, run_id: str, read: Figures
            ) -> dict[tuple[str, str, bool], list[AgentUsage]]:
    """The usages reported by a run's trials, per scenario, mode and infrastructure
    error, in trial order."""
    rows = connection.execute(
        select(TRIALS.c.scenario_id, TRIALS.c.mode, _INFRA.label("infra"), TRIALS.c.trial,
               TRIALS.c.score).select_from(read.source)
        .where(TRIALS.c.run_id == run_id, read.figure["reported_usage"] == 1)).all()
    usages: dict[tuple[str, str, bool], list[AgentUsage]] = {}
    for row in sorted(rows, key=lambda r: (r.scenario_id, r.mode, r.trial)):
        usage = TrialScore.model_validate_json(row.score).usage
        if usage is not None:
            usages.setdefault((row.scenario_id, row.mode, bool(row.infra)), []).append(usage)
    return usages


def _tally(sums: _Sums, usages: Sequence[AgentUsage]) -> Tally:
    return Tally(trials=sums["trials"], passed=sums["passed"],
                 totals={n: sums[f"total_{n}"] for n in FIGURES},
                 positive={n: sums[f"positive_{n}"] for n in COUNTED},
                 measured={n: sums[f"measured_{n}"] for n in NULLABLE},
                 usage=UsageTally.of(usages))


def _split(every: _Sums, failed: _Sums | None) -> list[tuple[bool, _Sums]]:
    """A scenario and mode's trials as the tallies of those that ended in an
    infrastructure error and of the others, in the order of their first trial."""
    if failed is None:
        return [(False, every)]
    rest = {k: every[k] - failed[k] for k in every if k not in ("first_trial", "infra")}
    if not rest["trials"]:
        return [(True, failed)]
    infra_first = failed["first_trial"] == every["first_trial"]
    return [(True, failed), (False, rest)] if infra_first else [(False, rest), (True, failed)]


def read_tallies(connection: Connection, run_id: str, version: int) -> tuple[ScenarioTally, ...]:
    """The tallies of run ``run_id`` in a database of schema ``version``, ordered (and
    their ``first`` numbered) as the run's trials are read: by scenario id, mode and
    trial index."""
    from_scores = score_figures(connection.dialect.name, version)
    read = column_figures() if version >= FIGURES_SINCE else from_scores
    groups = _grouped(connection, run_id, read)
    if any(g["filled"] < g["trials"] for g in groups.values()):
        read = from_scores  # rows saved without their figures (not by remit)
        groups = _grouped(connection, run_id, read)
    failed = _grouped(connection, run_id, read, infra_only=True) \
        if any(g["infra"] for g in groups.values()) else {}
    usages = _usages(connection, run_id, read) \
        if any(g["total_reported_usage"] for g in groups.values()) else {}
    # Sorted here, not in SQL: PostgreSQL's collation may order ids unlike Python.
    parts = [(key, infra, sums) for key in sorted(groups)
             for infra, sums in _split(groups[key], failed.get(key))]
    return tuple(ScenarioTally(scenario_id, mode, infra, first,
                               _tally(sums, usages.get((scenario_id, mode, infra), ())))
                 for first, ((scenario_id, mode), infra, sums) in enumerate(parts))
