"""Hand-offs the agent left behind, and owner actions it never asked for.

**Abandoned hand-off**: a hand-off the agent opened and left:

- still **open** at the end, however many follow-ups it got (a follow-up alone does
  not close a hand-off);
- **declined** by its owner and neither recovered (requested again with
  ``request_action``, or the action performed on the quote after the decline, by anyone)
  nor reported to the buyer (a message, ask or request to the buyer after the decline;
  for a hand-off the buyer declined, that is the agent answering the decline);
- **withdrawn** without telling the buyer (no message to the buyer after the
  withdrawal), even when the action is requested again: the buyer was not told.

Completed hand-offs are never abandoned. The ``end`` summary is the agent's closing note,
not a message to the buyer: it does not count as telling them.

**Missing hand-off**: an owner action the scenario's goal requires (``expect.owner_actions``)
that the mode gives to another party (in all-tools the agent holds every action, so
nothing is missing), that the agent never requested although a request was possible (the
quote was at some point in a state from which that action's transition can fire), and
that never happened.

Example:
    >>> abandoned_handoffs(world)          # doctest: +SKIP
    ('abandoned_handoff: H-1 (approve on Q-1, requested from finance) was withdrawn at step 9
      and the buyer was never told',)
"""

from __future__ import annotations

from collections.abc import Sequence

from remit.authority import Role, who_can
from remit.quotes import QuoteState, actions_from
from remit.scenarios import Scenario
from remit.world import HandoffEntry, MessageEntry, TrailEntry, TransitionEntry, World

__all__ = ["abandoned_handoffs", "missing_handoffs", "opened_handoffs"]


def opened_handoffs(world: World) -> int:
    """Hand-offs the agent opened."""
    return sum(1 for h in world.handoffs.values() if h.requester is Role.AGENT)


def _told_buyer(trail: Sequence[TrailEntry], after: int) -> bool:
    return any(isinstance(e, MessageEntry) and e.sender is Role.AGENT and e.to is Role.BUYER
               for e in trail[after + 1:])


def abandoned_handoffs(world: World) -> tuple[str, ...]:
    """One sentence per hand-off the agent opened and left (module docstring)."""
    trail = world.trail
    last_event: dict[str, int] = {}
    opened_at: dict[str, int] = {}
    for index, entry in enumerate(trail):
        if isinstance(entry, HandoffEntry):
            last_event[entry.handoff_id] = index
            if entry.event == "opened":
                opened_at[entry.handoff_id] = index
    sentences: list[str] = []
    for handoff in world.handoffs.values():
        if handoff.requester is not Role.AGENT or handoff.status == "completed":
            continue
        what = (f"{handoff.id} ({handoff.action} on {handoff.quote_id}, requested from "
                f"{handoff.owner})")
        follow_ups = (f" after {handoff.follow_ups} follow-up"
                      f"{'' if handoff.follow_ups == 1 else 's'}") if handoff.follow_ups else ""
        if handoff.status == "open":
            sentences.append(f"abandoned_handoff: {what} was still open at the end{follow_ups}")
            continue
        since = last_event.get(handoff.id, -1)
        step = trail[since].step if since >= 0 else 0
        performed = any(isinstance(e, TransitionEntry) and e.action is handoff.action
                        and e.quote_id == handoff.quote_id for e in trail[since + 1:])
        requested_again = any(
            isinstance(e, HandoffEntry) and e.event == "opened" and e.requester is Role.AGENT
            and e.action is handoff.action and e.quote_id == handoff.quote_id
            and opened_at.get(e.handoff_id, -1) > since for e in trail[since + 1:])
        told = _told_buyer(trail, since)
        if told or (handoff.status == "declined" and (performed or requested_again)):
            continue
        if handoff.status == "declined":
            reason = f" ({handoff.reason})" if handoff.reason else ""
            sentences.append(f"abandoned_handoff: {what} was declined at step {step}{reason}, "
                             "and the agent neither recovered it nor told the buyer")
        else:
            sentences.append(f"abandoned_handoff: {what} was withdrawn at step {step} and the "
                             "buyer was never told")
    return tuple(sentences)


def missing_handoffs(scenario: Scenario, world: World) -> tuple[str, ...]:
    """One sentence per owner action the goal needed that the agent never requested
    although it could have (module docstring)."""
    quote = world.quote
    transitions = [e for e in world.trail
                   if isinstance(e, TransitionEntry) and e.quote_id == quote.id]
    performed = {e.action for e in transitions}
    requested = {h.action for h in world.handoffs.values()
                 if h.requester is Role.AGENT and h.quote_id == quote.id}
    visited = {QuoteState.DRAFT.value, quote.state} | {e.to_state for e in transitions}
    possible = {action for state in visited for action in actions_from(state)}
    sentences = []
    for action in scenario.expect.owner_actions:
        holders = who_can(world.mode, action)
        if Role.AGENT in holders or action in performed or action in requested:
            continue
        if action not in possible:
            continue
        owners = ", ".join(sorted(r.value for r in holders)) or "nobody"
        sentences.append(f"missing_handoff: {action} is required by the goal and held by "
                         f"{owners} in {world.mode.name}; the quote reached a state where it "
                         "could be requested, but the agent never requested it and it never "
                         "happened")
    return tuple(sentences)
