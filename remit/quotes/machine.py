"""The quote state machine: one shared ``transitions.Machine`` and the calls that fire it.

Static-machine pattern: a single synchronous :class:`transitions.Machine` is built once
per process (:func:`quote_machine`) with ``model=None`` and ``auto_transitions=False``
(the generated ``to_<state>()`` methods would skip every guard). No quote is ever added
with ``add_model``; a trigger runs through ``machine.events[trigger].trigger(quote)``,
so the machine holds no per-quote state and ``machine.models`` never grows.

A ``transitions`` condition answers only True or False. :func:`fire` therefore checks
the source state and computes the guard reasons itself *before* triggering, and raises
:class:`~remit.errors.InvalidTransitionError` or :class:`~remit.errors.GuardFailedError`
with sentences saying what to do. The machine's conditions call the same guards again
as a safety net for anyone who triggers the machine directly.

Once :func:`fire` has checked the source state and the guards, the machine's
transition table (read from the machine itself, once) names the destination, and the
quote's state is moved without building a trigger's event data: where nothing has a
callback (a transition or state given one is left out of the table and triggered), the
result is the same, for ~0.1 ms less CPU a trial.

Success is atomic: every record and new version is built before the move, and only
appended after it succeeded; a refused transition changes nothing.

Example:
    >>> record = fire(quote, Action.CONFIGURE, TransitionContext(
    ...     actor_id="agent-1", role=Role.AGENT, now_minute=5))
    >>> record.from_state, record.to_state
    (<QuoteState.DRAFT: 'draft'>, <QuoteState.CONFIGURED: 'configured'>)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache, partial

from pydantic import ValidationError
from transitions import EventData, Machine

from remit.authority.roles import Action
from remit.errors import GuardFailedError, InvalidTransitionError, QuoteEditError
from remit.quotes.context import TransitionContext
from remit.quotes.documents import QuoteLine, QuoteVersion
from remit.quotes.guards import guard_failures
from remit.quotes.quote import (
    Approval,
    FitConfirmation,
    Quote,
    Submission,
    TransitionRecord,
)
from remit.quotes.states import (
    TRANSITIONS,
    QuoteState,
    action_of,
    actions_from,
    allowed_from,
    destination,
    state_of,
)
from remit.trusted import trusted

__all__ = ["available_actions", "edit_lines", "fire", "quote_machine"]

_LOG = logging.getLogger(__name__)


class _Checked:
    """Passed with a trigger by :func:`_commit`: the guards were computed on this very
    quote and context just before (they found nothing), and nothing ran in between."""


_CHECKED = _Checked()


def _guards_pass(action: Action, event: EventData) -> bool:
    """The machine's condition for ``action``: the guards of :mod:`remit.quotes.guards`
    (not computed twice when :func:`fire` or :func:`edit_lines` has just done so)."""
    quote, ctx = event.model, event.kwargs.get("ctx")
    if not isinstance(quote, Quote) or not isinstance(ctx, TransitionContext):
        return False
    if event.kwargs.get("checked") is _CHECKED:
        return True
    return not guard_failures(quote, action, ctx)


@cache
def quote_machine() -> Machine:
    """The one quote state machine of this process, built on first use.

    It has no models: trigger it with ``quote_machine().events[trigger].trigger(quote,
    ctx=ctx)``, or better through :func:`fire`, which explains refusals.
    """
    return Machine(
        model=None,
        states=[state.value for state in QuoteState],
        initial=QuoteState.DRAFT.value,
        transitions=[
            {
                "trigger": spec.trigger.value,
                "source": [state.value for state in spec.sources],
                "dest": spec.dest.value,
                "conditions": partial(_guards_pass, spec.trigger),
            }
            for spec in TRANSITIONS
        ],
        send_event=True,
        auto_transitions=False,
        ignore_invalid_triggers=False,
        name="quote",
    )


@cache
def _destinations() -> dict[tuple[str, str], str]:
    """(trigger, source state) -> the state the machine moves a checked quote to.

    Read from :func:`quote_machine`'s own transitions: the first one from each source,
    which is the one a trigger takes when its condition passes (a checked trigger's
    condition always does). Where neither the transition, its states nor the machine
    have callbacks, moving the state is all a checked trigger does, and :func:`_commit`
    moves it directly, without building the trigger's event data and partials each
    time (~0.1 ms a trial); anywhere else it triggers the machine.
    """
    machine = quote_machine()
    if (machine.before_state_change or machine.after_state_change or machine.prepare_event
            or machine.finalize_event):
        return {}  # a machine-wide callback runs on every trigger: always trigger
    quiet = {name for name, state in machine.states.items()
             if not state.on_enter and not state.on_exit}
    return {
        (name, source): transitions[0].dest
        for name, event in machine.events.items()
        for source, transitions in event.transitions.items()
        # only where moving the state is all the trigger would do: a transition or a
        # state given a callback later is triggered, never skipped
        if transitions and transitions[0].dest is not None
        and not (transitions[0].before or transitions[0].after or transitions[0].prepare)
        and source in quiet and transitions[0].dest in quiet
    }


def available_actions(quote: Quote) -> tuple[Action, ...]:
    """The triggers valid from the quote's current state (guards not evaluated)."""
    return actions_from(quote.state)


def _check_source(quote: Quote, action: Action) -> None:
    sources = allowed_from(action)
    if quote.state not in sources:
        raise InvalidTransitionError(
            quote.id, action.value, quote.state, tuple(state.value for state in sources)
        )


def _record(
    quote: Quote, action: Action, ctx: TransitionContext, version: QuoteVersion
) -> TransitionRecord:
    values: dict[str, object] = {
        "quote_id": quote.id,
        "action": action,
        "from_state": state_of(quote.state),
        "to_state": destination(action),
        "version_number": version.number,
        "version_hash": version.content_hash,
        "actor_id": ctx.actor_id,
        "role": ctx.role,
        "minute": ctx.now_minute,
        "reason": ctx.justification if action is Action.SUBMIT else ctx.reason,
    }
    if type(quote.id) is str:  # the rest comes from a validated context and version
        return trusted(TransitionRecord, values)
    return TransitionRecord.model_validate(values)


def _commit(
    quote: Quote,
    action: Action,
    ctx: TransitionContext,
    new_version: QuoteVersion | None = None,
) -> TransitionRecord:
    """Trigger the machine, then apply the side effects (all built beforehand).

    Called only once the guards have found nothing for this quote and context.
    """
    bound = quote.current if new_version is None else new_version
    record = _record(quote, action, ctx, bound)
    # side effects are built before the trigger so that nothing can fail after it
    approval: Approval | None = None
    # from the validated context and the quote's own version: built without validation
    if action in (Action.APPROVE, Action.DENY):
        approval = trusted(Approval, {
            "role": ctx.role,
            "actor_id": ctx.actor_id,
            "version_hash": quote.current_hash,
            "minute": ctx.now_minute,
            "decision": "approve" if action is Action.APPROVE else "deny",
            "reason": ctx.reason,
        })
    submission = (
        trusted(Submission, {
            "role": ctx.role,
            "actor_id": ctx.actor_id,
            "version_hash": quote.current_hash,
            "minute": ctx.now_minute,
            "justification": ctx.justification,
        })
        if action is Action.SUBMIT
        else None
    )
    confirmation = (
        trusted(FitConfirmation, {
            "role": ctx.role,
            "actor_id": ctx.actor_id,
            "version_hash": quote.current_hash,
            "evidence_ids": tuple(doc.id for doc in ctx.evidence),
            "minute": ctx.now_minute,
        })
        if action is Action.CONFIRM_FIT
        else None
    )

    # new versions are appended after the move: the machine sees what the guards saw
    dest = _destinations().get((action.value, quote.state))
    if dest is not None:
        quote.state = dest
    elif not quote_machine().events[action.value].trigger(quote, ctx=ctx, checked=_CHECKED):
        reasons = guard_failures(quote, action, ctx) or ["a machine condition refused it"]
        raise GuardFailedError(quote.id, action.value, reasons)

    if new_version is not None:
        quote.versions.append(new_version)
    if action is Action.REVISE:
        # a revised quote is a new offer: it gets a fresh validity period
        quote.valid_until_minute = ctx.now_minute + quote.validity_minutes
    if approval is not None:
        quote.approvals.append(approval)
    if submission is not None:
        quote.submission = submission
    if confirmation is not None:
        quote.fit_confirmation = confirmation
    if action is Action.RECEIVE_PO:
        quote.purchase_order = ctx.purchase_order
    elif action is Action.RECORD_RECEIPT:
        quote.receipt = ctx.receipt
    elif action is Action.INVOICE:
        quote.invoice = ctx.invoice
    quote.history.append(record)
    _LOG.debug("quote %s: %s %s -> %s", quote.id, action, record.from_state, record.to_state)
    return record


def fire(quote: Quote, action: Action, ctx: TransitionContext) -> TransitionRecord:
    """Fire ``action`` on ``quote``, or explain why not.

    Authority is not checked here (the world's gate calls :mod:`remit.authority` first);
    the business rules are.

    Args:
        quote: the quote to move.
        action: the trigger. ``edit_lines`` needs lines: use :func:`edit_lines`.
        ctx: who acts, when, why, and with which documents.

    Returns:
        The record appended to ``quote.history``.

    Raises:
        InvalidTransitionError: the current state does not allow ``action``;
            ``allowed_from`` lists the states that do.
        GuardFailedError: a business rule blocked it; ``reasons`` say what to do.
        QuoteEditError: ``action`` is ``edit_lines``.
    """
    action = action_of(action)
    _check_source(quote, action)
    if action is Action.EDIT_LINES:
        raise QuoteEditError(
            f"cannot edit_lines quote {quote.id} through fire(): it needs the new lines; "
            "call edit_lines(quote, lines, ctx)"
        )
    failures = guard_failures(quote, action, ctx)
    if failures:
        raise GuardFailedError(quote.id, action.value, failures)
    new_version = None
    if action is Action.REVISE:
        current = quote.current
        # same content, same hash: copying skips re-hashing
        new_version = current.model_copy(
            update={"number": current.number + 1, "created_minute": ctx.now_minute}
        )
    return _commit(quote, action, ctx, new_version)


def _describe_errors(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in err['loc']) or 'lines'}: {err['msg']}"
        for err in error.errors()
    )


def edit_lines(
    quote: Quote, lines: Sequence[QuoteLine], ctx: TransitionContext
) -> TransitionRecord:
    """Replace the quote's lines: append version n+1 and move the quote back to draft.

    Any approval or fit confirmation bound to the old content hash stops counting. Edits
    are refused once the quote is in fit review or has been presented.

    Args:
        quote: the quote.
        lines: the complete new set of lines.
        ctx: who edits, and when.

    Returns:
        The ``edit_lines`` record, bound to the new version.

    Raises:
        InvalidTransitionError: the quote's state does not allow edits.
        QuoteEditError: no lines, invalid lines, or lines identical to the current ones.
    """
    action = Action.EDIT_LINES
    _check_source(quote, action)
    current = quote.current
    where = f"quote {quote.id} (v{current.number}, state={quote.state!r})"
    lines = tuple(lines)
    if not lines:
        raise QuoteEditError(
            f"cannot edit_lines {where}: no lines given; a quote needs at least one line "
            "(cancel the quote instead)"
        )
    try:
        version = QuoteVersion.build(current.number + 1, lines, ctx.now_minute)
    except ValidationError as error:
        raise QuoteEditError(
            f"cannot edit_lines {where}: {_describe_errors(error)}; fix the lines and retry"
        ) from error
    if version.content_hash == current.content_hash:
        raise QuoteEditError(
            f"cannot edit_lines {where}: the lines are identical to version "
            f"{current.number} (hash={current.short_hash!r}); change a line or keep the quote"
        )
    failures = guard_failures(quote, action, ctx)
    if failures:
        raise GuardFailedError(quote.id, action.value, failures)
    return _commit(quote, action, ctx, version)
