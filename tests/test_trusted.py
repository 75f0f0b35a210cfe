"""Records built without validation are the records validation would build.

remit builds its own trail entries, requests, verdicts and money without validating them
again (:mod:`remit.trusted`). These tests run every built-in agent through the built-in
suites with every such build checked against validation, and pin what the check catches.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

import pytest

from remit.actors import BUILTIN_AGENTS, load_agent_factory
from remit.authority import Action, Role, builtin_modes
from remit.catalogue import Money
from remit.harness import builtin_suite, run
from remit.quotes import QuoteState
from remit.trusted import TrustedBuildError, checking, trusted
from remit.world import EndEntry, TransitionEntry


@pytest.mark.parametrize("agent", sorted(BUILTIN_AGENTS))
def test_every_trusted_build_of_a_run_is_what_validation_builds(agent: str) -> None:
    """All handwritten scenarios and every eighth core one, in every built-in mode."""
    scenarios = [*builtin_suite("handwritten"), *list(builtin_suite("core"))[::8]]
    with checking() as problems:
        result = run(scenarios, list(builtin_modes().values()), load_agent_factory(agent),
                     trials=1, seed=7)
    assert problems == []
    assert len(result.trials) == len(scenarios) * 3


def test_a_trusted_build_equals_the_validated_one() -> None:
    values: dict[str, object] = {"step": 3, "minute": 9, "kind": "end",
                                 "reason": "agent_end", "summary": "done"}
    with checking() as problems:
        built = trusted(EndEntry, dict(values))
    assert problems == []
    validated = EndEntry.model_validate(values)
    assert built == validated
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump_json() == validated.model_dump_json()
    assert hash(built) == hash(validated)


def _transition(**changes: object) -> dict[str, object]:
    values: dict[str, object] = {
        "step": 1, "minute": 2, "kind": "transition", "quote_id": "Q-1",
        "action": Action.SUBMIT, "from_state": "draft", "to_state": "approval_pending",
        "version": 1, "version_hash": "0" * 64, "actor_id": "agent-1", "role": Role.AGENT}
    return {**values, **changes}


@pytest.mark.parametrize(("values", "breach"), [
    (_transition(from_state=QuoteState.DRAFT),
     r"from_state=<QuoteState.DRAFT: 'draft'> \(validation gives 'draft'\)"),
    (_transition(action="submit"), r"action='submit' \(validation gives <Action.SUBMIT"),
    (_transition(step=None), r"validation refuses it"),
    ({"minute": 2, **_transition()}, r"got \['minute', 'step'"),
])
def test_checking_names_a_build_that_breaks_the_contract(values: dict[str, object],
                                                         breach: str) -> None:
    with pytest.raises(TrustedBuildError, match=breach), checking():
        trusted(TransitionEntry, values)


def test_money_arithmetic_still_refuses_what_validation_refuses() -> None:
    """A sum that overflows to Infinity (in a decimal context that lets it) is validated,
    and refused, as it always was; finite results are trusted."""
    big = Money.of("9000")
    with decimal.localcontext() as context:
        context.Emax = 3
        context.traps[decimal.Overflow] = False
        with pytest.raises(ValueError, match="finite number"):
            big + big
    with checking() as problems:
        assert Money.of("2.50") * 3 == Money.of("7.50")
        assert (big - Money.of("0.01")).amount == Decimal("8999.99")
    assert problems == []
