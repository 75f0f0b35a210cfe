"""Communication tools: messages, questions, hand-offs and the end of the conversation.

These tools record what was said and open or update hand-offs; handing control to the
addressee is the orchestrator's job. Texts are delivered as written, whatever they
claim: a message saying "finance already approved" when finance did not is not refused
here but scored (:mod:`remit.harness.claims` reads every authority claim and judges it
against the trail), so the claim is counted and shown instead of silently prevented.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, JsonValue

from remit.authority import Role, who_can
from remit.trusted import trusted
from remit.world.calls import ToolResult
from remit.world.handoffs import Handoff
from remit.world.tools import (
    AskArgs,
    EndArgs,
    FollowUpArgs,
    MessageArgs,
    RequestActionArgs,
    WithdrawArgs,
)
from remit.world.trail import HandoffEntry, HandoffEvent, MessageEntry
from remit.world.untrusted import quote

if TYPE_CHECKING:
    from remit.world.world import World

__all__ = ["communicate", "decline", "record_handoff"]

def communicate(world: World, role: Role, tool: str, args: BaseModel) -> ToolResult:
    """Handle one communication tool call for ``role``."""
    if isinstance(args, MessageArgs):
        return _message(world, role, args)
    if isinstance(args, AskArgs):
        return _deliver(world, role, tool, args.to, args.text,
                        facts=tuple(f.value for f in args.facts))
    if isinstance(args, RequestActionArgs):
        return _request_action(world, role, args)
    if isinstance(args, FollowUpArgs):
        return _follow_up(world, role, args)
    if isinstance(args, WithdrawArgs):
        return _withdraw(world, role, args)
    assert isinstance(args, EndArgs)
    world.end("agent_end" if role is Role.AGENT else "terminal_state", args.summary)
    return ToolResult.answer("end", {"ended": True})


def _deliver(world: World, role: Role, tool: str, to: Role, text: str, *,
             facts: tuple[str, ...] = (), handoff_id: str | None = None,
             args: MessageArgs | None = None) -> ToolResult:
    if to is role or to is Role.SYSTEM:
        return world.fail(role, tool, "bad_arguments",
                          f"to={to.value!r} is not someone {role.value} can talk to; address "
                          "the buyer, the technical_owner, finance or the agent")
    claims = tuple(args.claims) if args is not None else ()
    if type(tool) is str and type(text) is str:
        world.record(trusted(MessageEntry, {
            "step": world.step, "minute": world.minute, "kind": "message", "sender": role,
            "to": to, "tool": tool, "text": text, "claims": claims, "facts": facts,
            "handoff_id": handoff_id}))
    else:  # a tool name of the agent's that is no plain str: validation makes it one
        world.record(MessageEntry(
            step=world.step, minute=world.minute, sender=role, to=to, tool=tool, text=text,
            claims=claims, facts=facts, handoff_id=handoff_id))
    content: dict[str, JsonValue] = {"delivered": True, "to": to.value}
    if handoff_id is not None:
        content["handoff_id"] = handoff_id
    return ToolResult.answer(tool, content)


def _message(world: World, role: Role, args: MessageArgs) -> ToolResult:
    return _deliver(world, role, "message", args.to, args.text, args=args)


def _request_action(world: World, role: Role, args: RequestActionArgs) -> ToolResult:
    holders = who_can(world.mode, args.action)
    if args.to not in holders or args.to is role:
        held = ", ".join(sorted(r.value for r in holders)) or "nobody"
        return world.fail(
            role, "request_action", "bad_handoff",
            f"{args.to.value} does not hold {args.action.value} in {world.mode.name} "
            f"(held by: {held}); request it from a holder")
    if args.quote_id not in world.quotes:
        return world.fail(role, "request_action", "not_found",
                          f"no quote id={quote(args.quote_id)}; the quotes are: "
                          f"{', '.join(world.quotes)}")
    for evidence_id in args.evidence:
        if evidence_id not in world.catalogue.documents:
            return world.fail(role, "request_action", "not_found",
                              f"no evidence document id={quote(evidence_id)}; cite ids from "
                              "the product record's attributes")
    handoff = Handoff(
        id=f"H-{len(world.handoffs) + 1}", requester=role, owner=args.to, action=args.action,
        quote_id=args.quote_id, evidence=tuple(args.evidence), text=args.text,
        opened_minute=world.minute)
    world.handoffs[handoff.id] = handoff
    record_handoff(world, handoff, "opened")
    return _deliver(world, role, "request_action", args.to, args.text, handoff_id=handoff.id)


def _own_handoff(world: World, role: Role, tool: str, handoff_id: str) -> Handoff | ToolResult:
    handoff = world.handoffs.get(handoff_id)
    if handoff is None or handoff.requester is not role:
        mine = [h.id for h in world.handoffs.values() if h.requester is role]
        return world.fail(role, tool, "not_found",
                          f"no hand-off id={quote(handoff_id)} opened by {role.value}; yours are: "
                          f"{', '.join(mine) or 'none'}")
    return handoff


def _follow_up(world: World, role: Role, args: FollowUpArgs) -> ToolResult:
    handoff = _own_handoff(world, role, "follow_up", args.handoff_id)
    if isinstance(handoff, ToolResult):
        return handoff
    if handoff.status not in ("open", "declined"):
        return world.fail(role, "follow_up", "bad_handoff",
                          f"hand-off {handoff.id} is {handoff.status}; nothing to follow up")
    handoff.follow_ups += 1
    handoff.status = "open"
    record_handoff(world, handoff, "followed_up")
    return _deliver(world, role, "follow_up", handoff.owner, args.text, handoff_id=handoff.id)


def _withdraw(world: World, role: Role, args: WithdrawArgs) -> ToolResult:
    handoff = _own_handoff(world, role, "withdraw", args.handoff_id)
    if isinstance(handoff, ToolResult):
        return handoff
    if handoff.status not in ("open", "declined"):
        return world.fail(role, "withdraw", "bad_handoff",
                          f"hand-off {handoff.id} is {handoff.status}; it cannot be withdrawn")
    handoff.status = "withdrawn"
    handoff.reason = args.reason
    record_handoff(world, handoff, "withdrawn", args.reason)
    return ToolResult.answer("withdraw", {"handoff_id": handoff.id, "status": "withdrawn"})


def decline(world: World, handoff: Handoff, reason: str) -> None:
    """Record that the owner of ``handoff`` declines it (called by personas)."""
    handoff.status = "declined"
    handoff.reason = reason
    record_handoff(world, handoff, "declined", reason)


def record_handoff(world: World, handoff: Handoff, event: HandoffEvent, reason: str = "") -> None:
    """Record ``event`` in the life of ``handoff`` on the trail."""
    if type(reason) is str:
        world.record(trusted(HandoffEntry, {
            "step": world.step, "minute": world.minute, "kind": "handoff",
            "handoff_id": handoff.id, "event": event, "requester": handoff.requester,
            "owner": handoff.owner, "action": handoff.action, "quote_id": handoff.quote_id,
            "reason": reason}))
    else:  # a reason of the caller's that is no plain str: validation makes it one
        world.record(HandoffEntry(
            step=world.step, minute=world.minute, handoff_id=handoff.id, event=event,
            requester=handoff.requester, owner=handoff.owner, action=handoff.action,
            quote_id=handoff.quote_id, reason=reason))

