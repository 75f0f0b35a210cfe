"""The personas of one trial: the buyer, the technical owner and finance.

:func:`build_personas` is what the harness calls once per trial. Each persona is
deterministic given the scenario and the seed; the seed only chooses between
equivalent phrasings, never a decision.

Example:
    >>> personas = build_personas(scenario, seed=7)       # doctest: +SKIP
    >>> personas[Role.BUYER].opening(world)               # doctest: +SKIP
"""

from __future__ import annotations

from remit.actors.buyer import Buyer
from remit.actors.finance import Finance
from remit.actors.protocol import Persona
from remit.actors.technical_owner import TechnicalOwner
from remit.authority import Role
from remit.scenarios import Scenario

__all__ = ["build_personas"]


def build_personas(scenario: Scenario, seed: int) -> dict[Role, Persona]:
    """Fresh personas for one trial of ``scenario``.

    Args:
        scenario: the scenario; each persona reads its configuration and its truths.
        seed: the trial's seed (phrasing choices only).

    Returns:
        The buyer, the technical owner and finance, keyed by role.
    """
    return {
        Role.BUYER: Buyer(scenario, seed),
        Role.TECHNICAL_OWNER: TechnicalOwner(scenario, seed),
        Role.FINANCE: Finance(scenario, seed),
    }
