"""Commercial groups: the discount the buyer asks for and the policy it is judged by.

- ``standard``: no discount; the quote needs finance's routine approval only.
- ``discount_exception``: 8-15% off. Above the standard 5% the submission needs the
  buyer's justification, and finance approves with it. The discount is the largest of
  the candidates (chosen per situation) that keeps every line's margin at or above the
  policy minimum, so that it is a discount exception and not also a margin breach.
- ``margin_breach``: the standard 5%, which needs no justification as a discount, but
  the scenario's policy demands a higher margin than the lines make (a low-margin
  account): the submission needs a justification all the same, and finance approves
  with it. With the default 15% minimum only a few catalogue SKUs could breach it
  within the 20% ceiling (unit costs are 55-72% of list), so the minimum is set just
  above the quoted lines' margin instead.

Both exceptions must carry finance's authority on the final approval (``approved_by``).
"""

from __future__ import annotations

import math
from decimal import Decimal

from remit.authority import Role
from remit.catalogue import Catalogue
from remit.quotes import CommercialPolicy
from remit.scenarios.groups import CommercialGroup, ScenarioDraft

__all__ = ["DISCOUNT_CHOICES", "apply_commercial", "line_margin_pct"]

DISCOUNT_CHOICES: tuple[Decimal, ...] = (Decimal(15), Decimal(12), Decimal(10), Decimal(8))
"""Discount exceptions, largest first."""

_STANDARD = CommercialPolicy().standard_discount_pct
_HEADROOM = Decimal(1)
"""A discount exception keeps every margin at least this far above the minimum."""
_BREACH_STEP = 3
"""A margin breach sets the minimum margin this many points above the lowest line margin."""

_JUSTIFICATIONS = (
    "framework agreement: a yearly volume commitment for the plant",
    "replacement of failed valves under our service contract",
    "a competing offer for the same series, documented in our tender file",
    "first phase of a new plant; the follow-on phases are five times this order",
)


def line_margin_pct(catalogue: Catalogue, sku: str, discount_pct: Decimal) -> Decimal:
    """The margin of one line of ``sku`` at ``discount_pct`` off list, in percent."""
    variant = catalogue.variant(sku)
    net = variant.list_price.amount * (1 - discount_pct / 100)
    return (net - variant.unit_cost.amount) / net * 100


def apply_commercial(draft: ScenarioDraft, group: CommercialGroup, catalogue: Catalogue,
                     choice: int) -> ScenarioDraft | str:
    """``draft`` with ``group``'s terms, or a sentence saying why they cannot apply.

    Args:
        draft: the draft so far (its lines are priced from the catalogue).
        group: the commercial group.
        catalogue: the scenario's catalogue (list prices and unit costs).
        choice: a per-situation number choosing among equivalent discounts and
            justifications, so that the suite varies them.
    """
    if group is CommercialGroup.STANDARD:
        return draft
    justification = _JUSTIFICATIONS[choice % len(_JUSTIFICATIONS)]
    skus = [line.sku for line in draft.lines]
    policy = draft.policy
    if group is CommercialGroup.DISCOUNT_EXCEPTION:
        start = choice % len(DISCOUNT_CHOICES)
        fitting = [d for d in DISCOUNT_CHOICES[start:] + DISCOUNT_CHOICES[:start]
                   if all(line_margin_pct(catalogue, sku, d)
                          >= policy.min_margin_pct + _HEADROOM for sku in skus)]
        if not fitting:
            return (f"no discount exception in {[str(d) for d in DISCOUNT_CHOICES]}% keeps "
                    f"the margin of {', '.join(skus)} at min_margin_pct="
                    f"{policy.min_margin_pct}; it would be a margin breach")
        discount = fitting[0]
    else:
        discount = _STANDARD
        lowest = min(line_margin_pct(catalogue, sku, discount) for sku in skus)
        floor = Decimal(math.floor(lowest) + _BREACH_STEP)
        policy = policy.model_copy(update={"min_margin_pct": floor})
    lines = tuple(line.model_copy(update={"discount_pct": discount}) for line in draft.lines)
    return draft.model_copy(update={
        "lines": lines, "discount_pct": discount, "justification": justification,
        "policy": policy, "approved_by": Role.FINANCE})
