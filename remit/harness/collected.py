"""Scenario outcomes as test-item properties, and the session's summary from them.

A test item carries its outcomes twice:

- as flat ``(name, value)`` properties (pytest's ``user_properties``, which
  ``--junitxml`` writes): ``remit_scenario``, ``remit_mode``, ``remit_agent``,
  ``remit_trials``, ``pass_hat_1``, ``pass_rate``, ``wrong_variant_rate``, ... (every
  rate of :data:`remit.harness.rates.RATES`; the reply issues for an agent that reports
  its usage), for people and CI. The scored trials as
  JSON (:data:`SCORED_PROPERTY`) are added only when asked (the plugin's
  ``--remit-junit-payload``): they are kilobytes per trial and no CI dashboard reads them;
- as :class:`SessionOutcome` s on the test report (an attribute pytest-xdist ships from
  a worker to the controller with the report), from which the controller rebuilds the
  session's summary (:func:`session_summaries`): one per agent, with a column per mode,
  the trials of every test merged by :func:`remit.harness.session.merge_session` exactly
  as the stored runs are.

Example:
    >>> props = outcome_properties(outcome)                      # doctest: +SKIP
    >>> dict(props)["pass_hat_1"]                                # doctest: +SKIP
    1.0
    >>> summaries = session_summaries([session_outcome("t.py::test", outcome)])  # doctest: +SKIP
    >>> summaries["baseline"].summaries["dual_control"].pass_hat_k  # doctest: +SKIP
    {1: 1.0}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, TypeAdapter

from remit.harness.aggregate import ModeSummary, ScoredTrial, summarise
from remit.harness.manifest import AgentIdentity
from remit.harness.outcome import ScenarioOutcome
from remit.harness.rates import RATES
from remit.harness.runner import TrialRecord
from remit.harness.session import Repeat, merge_session

__all__ = ["SCORED_PROPERTY", "AgentSummary", "PropertyValue", "SessionOutcome",
           "outcome_properties", "scored_from_properties", "session_outcome",
           "session_summaries"]

SCORED_PROPERTY = "remit_scored"
"""The property holding an outcome's scored trials as JSON (only when asked for)."""

PropertyValue = str | int | float
"""A property value: plain, so that JUnit XML and pytest-xdist carry it unchanged."""

_SCORED: TypeAdapter[tuple[ScoredTrial, ...]] = TypeAdapter(tuple[ScoredTrial, ...])


def outcome_properties(outcome: ScenarioOutcome, *, payload: bool = False
                       ) -> list[tuple[str, PropertyValue]]:
    """The properties one outcome adds to its test item.

    ``remit_scenario``, ``remit_mode``, ``remit_agent``, ``remit_trials``; ``pass_hat_k``
    for every k; the rates as values, named as in
    :class:`~remit.harness.aggregate.ModeSummary`: ``pass_rate``, the shares of trials
    (``wrong_variant_rate`` and ``wrong_variant_shown_rate``, ``unsupported_claim_rate``,
    ``abandoned_handoff_rate``, ``missing_handoff_rate``) and the per-item rates
    (``unsupported_per_claim``, ``unsupported_attribute_claims``,
    ``unsupported_fit_claims``, ``unsupported_authority_claims``, ``unsupported_cited``,
    ``abandoned_per_handoff``; 0.0 when there was no item); the per-trial means
    (``mean_review_minutes``, ``mean_clarification_rounds``, ``mean_denials``,
    ``mean_steps``); for an agent that reports its usage, ``mean_reply_issues`` and
    ``reply_issue_rate``; and, with ``payload``, :data:`SCORED_PROPERTY`.
    """
    summary = outcome.summary
    properties: list[tuple[str, PropertyValue]] = [
        ("remit_scenario", outcome.scenario.id),
        ("remit_mode", outcome.mode.name),
        ("remit_agent", outcome.agent),
        ("remit_trials", outcome.trials),
    ]
    properties += [(f"pass_hat_{k}", value) for k, value in sorted(summary.pass_hat_k.items())]
    properties.append(("pass_rate", summary.pass_rate.value))
    properties += [(rate.key, rate.of(summary).value) for rate in RATES]
    properties += [
        ("mean_review_minutes", summary.mean_review_minutes),
        ("mean_clarification_rounds", summary.mean_clarification_rounds),
        ("mean_denials", summary.mean_denials),
        ("mean_steps", summary.mean_steps),
    ]
    if summary.mean_reply_issues is not None:
        properties += [("mean_reply_issues", summary.mean_reply_issues),
                       ("reply_issue_rate", summary.reply_issue_rate.value)]
    if payload:
        properties.append((SCORED_PROPERTY, _SCORED.dump_json(outcome.scored).decode()))
    return properties


def scored_from_properties(properties: Iterable[Sequence[object]]) -> list[ScoredTrial]:
    """The scored trials in a test report's properties (written with ``payload``), in
    the order they were recorded.

    Args:
        properties: ``(name, value)`` pairs (pytest-xdist may turn tuples into lists).
    """
    scored: list[ScoredTrial] = []
    for name, value, *_ in properties:
        if name == SCORED_PROPERTY and isinstance(value, str | bytes):
            scored += _SCORED.validate_json(value)
    return scored


class SessionOutcome(BaseModel):
    """One outcome of a test, as the controller needs it for the summary: who ran what,
    and each trial's seed and score (no trail).

    Attributes:
        test: the test's node id.
        agent: the agent's label.
        identity: the agent's code identity, when known.
        records: the outcome's trial records, without their trails.
    """

    model_config = ConfigDict(frozen=True)

    test: str
    agent: str
    identity: AgentIdentity | None = None
    records: tuple[TrialRecord, ...]


def session_outcome(test: str, outcome: ScenarioOutcome) -> SessionOutcome:
    """``outcome`` of test ``test`` without its trails (small enough to ship in a report)."""
    return SessionOutcome(test=test, agent=outcome.agent, identity=outcome.identity,
                          records=tuple(r.model_copy(update={"trail": ()})
                                        for r in outcome.records))


class AgentSummary(BaseModel):
    """One agent's part of a session: the per-mode summaries and what they count.

    Attributes:
        agent: the agent's label.
        summaries: per mode, the summary of its distinct trials.
        tests: how many tests ran the agent.
        scenarios: distinct scenarios it ran (in any mode).
        trials: distinct trials it ran (in every mode).
        repeats: the scenarios run in several tests or several times (each names them).
    """

    model_config = ConfigDict(frozen=True)

    agent: str
    summaries: dict[str, ModeSummary]
    tests: int
    scenarios: int
    trials: int
    repeats: tuple[Repeat, ...]


def session_summaries(outcomes: Iterable[SessionOutcome], mode_order: Sequence[str] = ()
                      ) -> dict[str, AgentSummary]:
    """The summary of a test session, per agent (ordered by label).

    Args:
        outcomes: every outcome of the session, in any order (under pytest-xdist reports
            arrive as workers finish); the same outcomes in any order give the same
            summaries.
        mode_order: modes listed first, in this order; the others follow by name.
    """
    merged = merge_session((o.test, o.agent, o.records) for o in outcomes)
    result: dict[str, AgentSummary] = {}
    for agent, part in merged.items():
        summaries = summarise([r.scored for r in part.records])
        first = [m for m in mode_order if m in summaries]
        rest = sorted(m for m in summaries if m not in first)
        result[agent] = AgentSummary(
            agent=agent, summaries={mode: summaries[mode] for mode in (*first, *rest)},
            tests=len(part.tests), scenarios=len({r.scored.scenario_id for r in part.records}),
            trials=len(part.records), repeats=part.repeats)
    return result
