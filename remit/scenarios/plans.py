"""Reference plans: the steps that solve a scenario, written as a short recipe.

A reference plan is a tuple of :class:`~remit.actors.protocol.PlanStep`, each naming who
performs it in dual-control (the owner of a write), the tool and its arguments. The
constructors here keep hand-written plans short and uniform: questions to the fact
owners, the quote lines with their citations, then the quote's life from ``configure``
to ``accept`` and, for order-to-cash scenarios, to ``release_payment``.

Owner steps are written with the role that holds the action in dual-control; the
oracle agent turns them into hand-offs there and performs them itself in all-tools.

Example:
    >>> steps = (*quote_steps(), *sale_steps())
    >>> [s.tool for s in steps][:3]
    ['configure', 'price', 'submit']
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from remit.authority import Action, Role
from remit.scenarios.spec import PlanStep
from remit.world import Fact, QuoteTerms

__all__ = [
    "DEFAULT_QUOTE_ID",
    "PlanLine",
    "ask",
    "consent_request",
    "edit_lines",
    "fit_review_steps",
    "order_steps",
    "quote_steps",
    "sale_steps",
    "write",
]

DEFAULT_QUOTE_ID = QuoteTerms().quote_id
"""The quote id of a scenario that keeps the default terms (``Q-1``)."""


class PlanLine(BaseModel):
    """One quote line of a reference plan.

    Attributes:
        sku: the SKU quoted.
        quantity: pieces.
        cite: the governed attributes the line cites (released ones, as policy asks).
        discount_pct: the line discount.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str
    quantity: int = Field(gt=0)
    cite: tuple[str, ...]
    discount_pct: Decimal = Decimal(0)

    def argument(self) -> dict[str, JsonValue]:
        """The line as an ``edit_lines`` argument."""
        line: dict[str, JsonValue] = {"sku": self.sku, "quantity": self.quantity,
                                      "cite": list(self.cite)}
        if self.discount_pct:
            line["discount_pct"] = str(self.discount_pct)
        return line


def ask(to: Role, facts: Sequence[Fact], text: str) -> PlanStep:
    """The agent asks ``to`` for ``facts`` (the answer arrives as a message)."""
    return PlanStep(role=Role.AGENT, tool="ask",
                    arguments={"to": to.value, "facts": [f.value for f in facts],
                               "text": text})


def consent_request(text: str = "Please accept or reject the presented quote.", *,
                    quote_id: str = DEFAULT_QUOTE_ID) -> PlanStep:
    """The agent hands the buyer's decision on the presented quote to the buyer.

    An agent step (``request_action(to=buyer, action=accept)``) in every mode: the
    buyer's consent is the buyer's, even when the agent could accept in its place. The
    buyer accepts, or rejects the quote and declines the request.
    """
    return PlanStep(role=Role.AGENT, tool="request_action",
                    arguments={"to": Role.BUYER.value, "action": Action.ACCEPT.value,
                               "quote_id": quote_id, "text": text})


def write(action: Action, role: Role = Role.AGENT, *, quote_id: str = DEFAULT_QUOTE_ID,
          **arguments: JsonValue) -> PlanStep:
    """A write step: ``role`` (the dual-control owner) performs ``action`` on the quote."""
    return PlanStep(role=role, tool=action.value,
                    arguments={"quote_id": quote_id, **arguments})


def edit_lines(lines: Sequence[PlanLine], *, quote_id: str = DEFAULT_QUOTE_ID) -> PlanStep:
    """The agent drafts the quote's lines."""
    return write(Action.EDIT_LINES, quote_id=quote_id,
                 lines=[line.argument() for line in lines])


def fit_review_steps(reason: str, datasheet: str, *, owner: Role = Role.TECHNICAL_OWNER,
                     quote_id: str = DEFAULT_QUOTE_ID) -> tuple[PlanStep, ...]:
    """``request_fit`` by the agent, then ``confirm_fit`` by ``owner`` citing a datasheet.

    Args:
        reason: why the quote needs a fit review (substitution or custom spec).
        datasheet: the released datasheet revision the confirmation cites.
        owner: who confirms the fit in dual-control.
        quote_id: the quote.
    """
    return (
        write(Action.REQUEST_FIT, quote_id=quote_id, reason=reason, evidence=[datasheet]),
        write(Action.CONFIRM_FIT, owner, quote_id=quote_id, evidence=[datasheet],
              reason="fit confirmed against the site facts"),
    )


def quote_steps(*, justification: str = "", fit: Sequence[PlanStep] = (),
                quote_id: str = DEFAULT_QUOTE_ID) -> tuple[PlanStep, ...]:
    """``configure`` to ``approve``: configure, the fit review if any, price, submit, approve.

    Args:
        justification: the submission's justification (a discount above standard).
        fit: the fit review steps (see :func:`fit_review_steps`), if the quote needs one.
        quote_id: the quote.
    """
    submit = (write(Action.SUBMIT, quote_id=quote_id, justification=justification)
              if justification else write(Action.SUBMIT, quote_id=quote_id))
    return (
        write(Action.CONFIGURE, quote_id=quote_id),
        *fit,
        write(Action.PRICE, quote_id=quote_id),
        submit,
        write(Action.APPROVE, Role.FINANCE, quote_id=quote_id),
    )


def sale_steps(*, quote_id: str = DEFAULT_QUOTE_ID) -> tuple[PlanStep, ...]:
    """The agent presents the approved quote and the buyer accepts it."""
    return (
        write(Action.PRESENT, quote_id=quote_id),
        write(Action.ACCEPT, Role.BUYER, quote_id=quote_id),
    )


def order_steps(*, release: bool = True,
                quote_id: str = DEFAULT_QUOTE_ID) -> tuple[PlanStep, ...]:
    """Order to cash after acceptance: PO, goods receipt, invoice and payment release.

    Args:
        release: whether the plan ends with finance releasing payment (``False`` for a
            scenario whose three-way match must fail: the plan stops at the invoice).
        quote_id: the quote.
    """
    steps: tuple[PlanStep, ...] = (
        write(Action.RECEIVE_PO, Role.BUYER, quote_id=quote_id,
              document_id=f"PO-{quote_id}"),
        write(Action.RECORD_RECEIPT, Role.BUYER, quote_id=quote_id,
              document_id=f"GR-{quote_id}"),
        write(Action.INVOICE, quote_id=quote_id),
    )
    if release:
        steps += (write(Action.RELEASE_PAYMENT, Role.FINANCE, quote_id=quote_id),)
    return steps
