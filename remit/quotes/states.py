"""The quote's states and the one transition table that both state machines are built from.

The table is data: a tuple of :class:`TransitionSpec` ``(trigger, sources, dest)``. The
hot-path machine (:mod:`remit.quotes.machine`) and the Mermaid diagram machine
(:mod:`remit.quotes.diagram`) are both built from :data:`TRANSITIONS`, so a diagram
can never disagree with the behaviour it draws.

Example:
    >>> allowed_from(Action.PRESENT)
    (<QuoteState.APPROVED: 'approved'>,)
    >>> is_terminal("cancelled")
    True
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple

from remit.authority.roles import Action

__all__ = [
    "TERMINAL_STATES",
    "TRANSITIONS",
    "QuoteState",
    "TransitionSpec",
    "action_of",
    "actions_from",
    "allowed_from",
    "destination",
    "is_terminal",
    "state_of",
]


class QuoteState(StrEnum):
    """Where a quote is in its life, from the first draft to the released payment."""

    DRAFT = "draft"
    CONFIGURED = "configured"
    FIT_PENDING = "fit_pending"
    FIT_CONFIRMED = "fit_confirmed"
    PRICED = "priced"
    APPROVAL_PENDING = "approval_pending"
    APPROVED = "approved"
    DENIED = "denied"
    PRESENTED = "presented"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    EXPIRED = "expired"
    ORDERED = "ordered"
    DELIVERED = "delivered"
    INVOICED = "invoiced"
    PAYMENT_RELEASED = "payment_released"
    CANCELLED = "cancelled"


TERMINAL_STATES: frozenset[QuoteState] = frozenset(
    {QuoteState.PAYMENT_RELEASED, QuoteState.CANCELLED}
)
"""States no trigger leaves."""


class TransitionSpec(NamedTuple):
    """One row of the transition table: ``trigger`` moves a quote from any of ``sources``
    to ``dest``."""

    trigger: Action
    sources: tuple[QuoteState, ...]
    dest: QuoteState


_S = QuoteState
_EDITABLE = (_S.DRAFT, _S.CONFIGURED, _S.FIT_CONFIRMED, _S.PRICED, _S.APPROVAL_PENDING, _S.APPROVED)
_NON_TERMINAL = tuple(state for state in QuoteState if state not in TERMINAL_STATES)

TRANSITIONS: tuple[TransitionSpec, ...] = (
    TransitionSpec(Action.CONFIGURE, (_S.DRAFT,), _S.CONFIGURED),
    TransitionSpec(Action.REQUEST_FIT, (_S.CONFIGURED,), _S.FIT_PENDING),
    TransitionSpec(Action.CONFIRM_FIT, (_S.FIT_PENDING,), _S.FIT_CONFIRMED),
    TransitionSpec(Action.REJECT_FIT, (_S.FIT_PENDING,), _S.CONFIGURED),
    TransitionSpec(Action.PRICE, (_S.CONFIGURED, _S.FIT_CONFIRMED), _S.PRICED),
    TransitionSpec(Action.SUBMIT, (_S.PRICED,), _S.APPROVAL_PENDING),
    TransitionSpec(Action.APPROVE, (_S.APPROVAL_PENDING,), _S.APPROVED),
    TransitionSpec(Action.DENY, (_S.APPROVAL_PENDING,), _S.DENIED),
    TransitionSpec(Action.PRESENT, (_S.APPROVED,), _S.PRESENTED),
    TransitionSpec(Action.ACCEPT, (_S.PRESENTED,), _S.ACCEPTED),
    TransitionSpec(Action.REJECT, (_S.PRESENTED,), _S.REJECTED),
    TransitionSpec(Action.EXPIRE, (_S.PRESENTED, _S.APPROVED), _S.EXPIRED),
    TransitionSpec(Action.RECEIVE_PO, (_S.ACCEPTED,), _S.ORDERED),
    TransitionSpec(Action.RECORD_RECEIPT, (_S.ORDERED,), _S.DELIVERED),
    TransitionSpec(Action.INVOICE, (_S.DELIVERED,), _S.INVOICED),
    TransitionSpec(Action.RELEASE_PAYMENT, (_S.INVOICED,), _S.PAYMENT_RELEASED),
    TransitionSpec(Action.REVISE, (_S.DENIED, _S.REJECTED, _S.EXPIRED), _S.DRAFT),
    TransitionSpec(Action.CANCEL, _NON_TERMINAL, _S.CANCELLED),
    TransitionSpec(Action.EDIT_LINES, _EDITABLE, _S.DRAFT),
)
"""The quote state machine (docs/domain.md), plus ``edit_lines``.

Every :class:`~remit.authority.roles.Action` appears exactly once.
"""


def is_terminal(state: str) -> bool:
    """True when no trigger leaves ``state`` (``payment_released``, ``cancelled``).

    Raises:
        ValueError: ``state`` is not a quote state.
    """
    return state_of(state) in TERMINAL_STATES


def state_of(value: str) -> QuoteState:
    """``QuoteState(value)``, looked up (a member or its plain value; the hot path asks
    this of plain strings several times a step).

    Raises:
        ValueError: ``value`` is not a quote state.
    """
    found = _STATES.get(value) if isinstance(value, str) else None
    return found if found is not None else QuoteState(value)


def action_of(value: str) -> Action:
    """``Action(value)``, looked up like :func:`state_of`.

    Raises:
        ValueError: ``value`` is not an action.
    """
    found = _ACTIONS.get(value) if isinstance(value, str) else None
    return found if found is not None else Action(value)


_STATES: dict[str, QuoteState] = {state.value: state for state in QuoteState}
_ACTIONS: dict[str, Action] = {action.value: action for action in Action}


@cache
def _sources_by_action() -> dict[Action, tuple[QuoteState, ...]]:
    return {spec.trigger: spec.sources for spec in TRANSITIONS}


@cache
def _dest_by_action() -> dict[Action, QuoteState]:
    return {spec.trigger: spec.dest for spec in TRANSITIONS}


@cache
def _actions_by_state() -> dict[QuoteState, tuple[Action, ...]]:
    return {
        state: tuple(spec.trigger for spec in TRANSITIONS if state in spec.sources)
        for state in QuoteState
    }


def allowed_from(action: Action) -> tuple[QuoteState, ...]:
    """The states from which ``action`` is a valid trigger, in table order."""
    return _sources_by_action()[action_of(action)]


def destination(action: Action) -> QuoteState:
    """The state ``action`` leads to."""
    return _dest_by_action()[action_of(action)]


def actions_from(state: str) -> tuple[Action, ...]:
    """The triggers valid from ``state``, in table order (guards not evaluated)."""
    return _actions_by_state()[state_of(state)]
