"""Scenario outcomes as test-item properties, and the session's per-mode summary from them.

A test item carries its outcomes as ``(name, value)`` properties (pytest's
``user_properties``, which ``--junitxml`` writes and pytest-xdist ships from a worker
to the controller with each report). Every outcome contributes flat metrics
(``pass_hat_1``, ``pass_rate``, ``wrong_variant_rate``, ``missing_handoff_rate``, ...:
every rate of :data:`remit.harness.rates.RATES`) for people and CI, and one
``remit_scored`` property holding its scored trials as JSON, from which the controller
rebuilds the per-mode summary of the whole session (:func:`session_summaries`).

A scenario may run in several tests (with other agents or settings), so the summary
counts each (test, scenario) pair as one scenario of pass^k.

Example:
    >>> props = outcome_properties(outcome)                      # doctest: +SKIP
    >>> dict(props)["pass_hat_1"]                                # doctest: +SKIP
    1.0
    >>> session_summaries([("t.py::test[dual_control]", props)])  # doctest: +SKIP
    {'dual_control': ModeSummary(...)}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import TypeAdapter

from remit.harness.aggregate import ModeSummary, ScoredTrial, summarise
from remit.harness.outcome import ScenarioOutcome
from remit.harness.rates import RATES

__all__ = ["SCORED_PROPERTY", "PropertyValue", "outcome_properties", "scored_from_properties",
           "session_summaries"]

SCORED_PROPERTY = "remit_scored"
"""The property holding an outcome's scored trials as JSON."""

PropertyValue = str | int | float
"""A property value: plain, so that JUnit XML and pytest-xdist carry it unchanged."""

_SCORED: TypeAdapter[tuple[ScoredTrial, ...]] = TypeAdapter(tuple[ScoredTrial, ...])


def outcome_properties(outcome: ScenarioOutcome) -> list[tuple[str, PropertyValue]]:
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
    ``mean_steps``); and :data:`SCORED_PROPERTY`.
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
        (SCORED_PROPERTY, _SCORED.dump_json(outcome.scored).decode()),
    ]
    return properties


def scored_from_properties(properties: Iterable[Sequence[object]]) -> list[ScoredTrial]:
    """The scored trials in a test report's properties, in the order they were recorded.

    Args:
        properties: ``(name, value)`` pairs (pytest-xdist may turn tuples into lists).
    """
    scored: list[ScoredTrial] = []
    for name, value, *_ in properties:
        if name == SCORED_PROPERTY and isinstance(value, str | bytes):
            scored += _SCORED.validate_json(value)
    return scored


def session_summaries(results: Iterable[tuple[str, Sequence[ScoredTrial]]],
                      mode_order: Sequence[str] = ()) -> dict[str, ModeSummary]:
    """The per-mode summary of a test session.

    Args:
        results: per test report, its node id and its scored trials (any order: under
            pytest-xdist reports arrive as workers finish).
        mode_order: modes listed first, in this order; the others follow by name.

    Returns:
        One summary per mode; the same results in any order give the same summaries.
    """
    keyed: list[tuple[tuple[str, str, str, int], ScoredTrial]] = []
    for nodeid, scored in results:
        repeats: dict[tuple[str, str, int], int] = {}
        for s in scored:
            seen = repeats.get((s.scenario_id, s.mode, s.trial), 0)
            repeats[(s.scenario_id, s.mode, s.trial)] = seen + 1
            scenario = f"{s.scenario_id} @ {nodeid}" + (f" #{seen + 1}" if seen else "")
            keyed.append(((s.mode, scenario, nodeid, s.trial),
                          s.model_copy(update={"scenario_id": scenario})))
    keyed.sort(key=lambda pair: pair[0])
    summaries = summarise([s for _, s in keyed])
    first = [m for m in mode_order if m in summaries]
    rest = sorted(m for m in summaries if m not in first)
    return {mode: summaries[mode] for mode in (*first, *rest)}
