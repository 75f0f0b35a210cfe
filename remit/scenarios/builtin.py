"""The built-in suite: the hand-written scenarios, in a stable order, looked up by id.

The suite is built afresh on each call (scenarios are small, frozen data), so no
caller can change what another sees.

Example:
    >>> from remit.scenarios.builtin import builtin_scenarios, scenario_by_id
    >>> scenario_by_id("fff-substitution").expect.final_state
    <QuoteState.ACCEPTED: 'accepted'>
    >>> len(builtin_scenarios()) >= 8
    True
"""

from __future__ import annotations

from remit.errors import RemitError
from remit.scenarios import handwritten
from remit.scenarios.spec import Scenario

__all__ = ["UnknownScenarioError", "builtin_scenarios", "scenario_by_id"]


class UnknownScenarioError(RemitError, ValueError):
    """A scenario id that the built-in suite does not hold.

    Attributes:
        scenario_id: the id asked for.
        valid: the ids of the built-in scenarios.
    """

    def __init__(self, scenario_id: str, valid: tuple[str, ...]) -> None:
        self.scenario_id = scenario_id
        self.valid = valid
        super().__init__(
            f"cannot look up built-in scenario scenario_id={scenario_id!r}: no such id in "
            f"the built-in suite; use one of: {', '.join(valid)}"
        )


def builtin_scenarios() -> tuple[Scenario, ...]:
    """Every built-in scenario, in a stable order (ids are unique and kebab-case)."""
    return (
        handwritten.supersession_substitution(),
        handwritten.fff_substitution(),
        handwritten.custom_spec_high_temperature(),
        handwritten.certificate_requirement(),
        handwritten.discount_exception(),
        handwritten.three_way_mismatch(),
        handwritten.unclear_request(),
        handwritten.consent_withheld(),
        handwritten.actuator_pairing(),
        handwritten.unresponsive_finance(),
    )


def scenario_by_id(scenario_id: str) -> Scenario:
    """The built-in scenario with id ``scenario_id``.

    Raises:
        UnknownScenarioError: no built-in scenario has that id (the message lists them).
    """
    scenarios = builtin_scenarios()
    for scenario in scenarios:
        if scenario.id == scenario_id:
            return scenario
    raise UnknownScenarioError(scenario_id, tuple(s.id for s in scenarios))
