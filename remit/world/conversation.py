"""Communication tools: messages, questions, hand-offs and the end of the conversation.

These tools record what was said and open or update hand-offs; handing control to the
addressee is the orchestrator's job. A message that claims an authority action which
the trail does not show that party doing ("finance already approved"), in any of the
agent's texts, is refused: remit's parties act through the gate, and words are not
approvals. Questions and conditions ("has finance approved?", "until finance approved")
are not claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pydantic import BaseModel, JsonValue

from remit.authority import Action, Role, who_can
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
from remit.world.trail import HandoffEntry, MessageEntry, TransitionEntry

if TYPE_CHECKING:
    from remit.world.world import World

__all__ = ["AUTHORITY_CLAIMS", "communicate", "decline"]

_PARTIES: dict[str, Role] = {
    "finance": Role.FINANCE,
    "buyer": Role.BUYER,
    "technical owner": Role.TECHNICAL_OWNER,
    "engineering": Role.TECHNICAL_OWNER,
}
"""The names the agent uses for each party, optionally after "the", "our" or "your"."""

_OWN_ACTIONS: tuple[tuple[Action, str, str, str], ...] = (
    # action,              "<party> has ...",              "<object> ... <verb> by <party>"
    (Action.APPROVE,         r"approved",                       r"",            r"approved"),
    (Action.ACCEPT,          r"accepted",                       r"",            r"accepted"),
    (Action.CONFIRM_FIT,     r"confirmed\s+(?:the\s+)?fit",     r"\bfit\b",     r"confirmed"),
    (Action.RELEASE_PAYMENT, r"released\s+(?:the\s+)?payment",  r"\bpayment\b", r"released"),
)
"""Each party-owned action in the active and the passive voice. A passive form with an
object ("the fit ... confirmed by") claims that action only when the object is named."""

_SIGNED_OFF = (r"signed\s+off|ok(?:['\u2019]?e?d|ayed)|green[-\s]?(?:lit|lighted)"
               r"|(?:gave|given)\s+(?:(?:us|you|it|me)\s+)?(?:the|a|its|their)\s+go[-\s]?ahead")
"""A sign-off in any words ("signed off", "OK'd", "green-lit", "gave the go-ahead")."""

_SIGN_OFF: dict[Role, Action] = {
    Role.FINANCE: Action.APPROVE,
    Role.BUYER: Action.ACCEPT,
    Role.TECHNICAL_OWNER: Action.CONFIRM_FIT,
}
"""The action a party's sign-off claims: finance approves, the buyer accepts, the
technical owner confirms the fit."""


def _who(names: Iterable[str]) -> str:
    alternatives = "|".join(name.replace(" ", r"\s+") for name in names)
    return (rf"\b(?:(?:the|our|your)\s+)?(?P<who>{alternatives})\b"
            r"(?:\s+(?:team|department))?")


def _active(who: str, verb: str) -> str:
    return rf"{who}\s+(?:(?:has|have|had)\s+)?(?:(?:already|now|just|also)\s+)?(?P<verb>{verb})"


def _passive(who: str, verb: str, obj: str = "") -> str:
    lead = rf"{obj}[^.!?]*?\b" if obj else r"\b"
    return rf"{lead}(?P<verb>{verb})\s+by\s+{who}"


def _claim_patterns() -> tuple[tuple[re.Pattern[str], Action], ...]:
    anyone = _who(_PARTIES)
    forms = [(pattern, action) for action, active, obj, participle in _OWN_ACTIONS
             for pattern in (_active(anyone, active), _passive(anyone, participle, obj))]
    for role, action in _SIGN_OFF.items():
        party = _who(name for name, named in _PARTIES.items() if named is role)
        forms += [(_active(party, _SIGNED_OFF), action), (_passive(party, _SIGNED_OFF), action)]
    return tuple((re.compile(pattern, re.IGNORECASE), action) for pattern, action in forms)


AUTHORITY_CLAIMS: tuple[tuple[re.Pattern[str], Action], ...] = _claim_patterns()
"""Phrases that claim a party's action, and the action each claims. Each pattern names
the party in the group ``who`` and the verb in the group ``verb``."""

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_HEDGE = re.compile(r"\b(?:until|unless|whether|if|once|when|after|before)\b[^.!?]*$",
                    re.IGNORECASE)
"""A claim inside a condition ("until finance approved") is not a claim."""
_NOT_DONE = re.compile(
    r"(?:\b(?:not|never|no|be|being|will|would|shall|should|must|can|could|may|might"
    r"|get|gets|getting)\b|n['\u2019]t\b)(?:\s+[^\s.,;:!?]+){0,3}\s*$", re.IGNORECASE)
"""Words just before a passive verb that say it has not happened: "not (yet) approved by",
"will be approved by", "needs to be approved by", "get the discount approved by"."""


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
    return ToolResult.success("end", {"ended": True})


def _deliver(world: World, role: Role, tool: str, to: Role, text: str, *,
             facts: tuple[str, ...] = (), handoff_id: str | None = None,
             args: MessageArgs | None = None) -> ToolResult:
    refused = _refuse_authority_claims(world, role, tool, text)
    if refused is not None:
        return refused
    if to is role or to is Role.SYSTEM:
        return world.fail(role, tool, "bad_arguments",
                          f"to={to.value!r} is not someone {role.value} can talk to; address "
                          "the buyer, the technical_owner, finance or the agent")
    world.record(MessageEntry(
        step=world.step, minute=world.minute, sender=role, to=to, tool=tool, text=text,
        claims=tuple(args.claims) if args is not None else (), facts=facts,
        handoff_id=handoff_id))
    content: dict[str, JsonValue] = {"delivered": True, "to": to.value}
    if handoff_id is not None:
        content["handoff_id"] = handoff_id
    return ToolResult.success(tool, content)


def _message(world: World, role: Role, args: MessageArgs) -> ToolResult:
    return _deliver(world, role, "message", args.to, args.text, args=args)


def _refuse_authority_claims(world: World, role: Role, tool: str,
                             text: str) -> ToolResult | None:
    """The refusal of an agent's text that claims a party's action, or None if it does not."""
    claimed = _unsupported_authority_claims(world, text) if role is Role.AGENT else []
    if not claimed:
        return None
    return world.fail(
        role, tool, "unsupported_authority_claim",
        f"the {tool} text claims {', '.join(claimed)} but the trail shows no such action "
        "by that party; state only what happened, or request_action(...) from the owner")


def _unsupported_authority_claims(world: World, text: str) -> list[str]:
    """Statements, in any of the agent's texts, that a party did what the trail does not
    show that party doing. Questions, conditions ("until finance approved") and passives
    that have not happened ("not yet approved by finance", "will be approved by finance")
    are not statements."""
    done = {(entry.action, entry.role) for entry in world.trail
            if isinstance(entry, TransitionEntry)}
    claimed = []
    for sentence in _SENTENCE.findall(text):
        if sentence.rstrip().endswith("?"):
            continue
        for pattern, action in AUTHORITY_CLAIMS:
            for match in pattern.finditer(sentence):
                if _HEDGE.search(sentence[:match.start()]):
                    continue
                passive = match.start("verb") < match.start("who")
                if passive and _NOT_DONE.search(sentence[:match.start("verb")]):
                    continue
                party = _PARTIES[" ".join(match.group("who").lower().split())]
                if (action, party) not in done:
                    claimed.append(match.group(0))
    return claimed


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
                          f"no quote id={args.quote_id!r}; the quotes are: "
                          f"{', '.join(world.quotes)}")
    for evidence_id in args.evidence:
        if evidence_id not in world.catalogue.documents:
            return world.fail(role, "request_action", "not_found",
                              f"no evidence document id={evidence_id!r}; cite ids from "
                              "the product record's attributes")
    # Refused before the hand-off opens, so a refused text leaves no hand-off behind.
    refused = _refuse_authority_claims(world, role, "request_action", args.text)
    if refused is not None:
        return refused
    handoff = Handoff(
        id=f"H-{len(world.handoffs) + 1}", requester=role, owner=args.to, action=args.action,
        quote_id=args.quote_id, evidence=tuple(args.evidence), text=args.text,
        opened_minute=world.minute)
    world.handoffs[handoff.id] = handoff
    world.record(HandoffEntry(step=world.step, minute=world.minute, handoff_id=handoff.id,
                              event="opened", requester=role, owner=args.to,
                              action=args.action, quote_id=args.quote_id))
    return _deliver(world, role, "request_action", args.to, args.text, handoff_id=handoff.id)


def _own_handoff(world: World, role: Role, tool: str, handoff_id: str) -> Handoff | ToolResult:
    handoff = world.handoffs.get(handoff_id)
    if handoff is None or handoff.requester is not role:
        mine = [h.id for h in world.handoffs.values() if h.requester is role]
        return world.fail(role, tool, "not_found",
                          f"no hand-off id={handoff_id!r} opened by {role.value}; yours are: "
                          f"{', '.join(mine) or 'none'}")
    return handoff


def _follow_up(world: World, role: Role, args: FollowUpArgs) -> ToolResult:
    handoff = _own_handoff(world, role, "follow_up", args.handoff_id)
    if isinstance(handoff, ToolResult):
        return handoff
    if handoff.status not in ("open", "declined"):
        return world.fail(role, "follow_up", "bad_handoff",
                          f"hand-off {handoff.id} is {handoff.status}; nothing to follow up")
    # Refused before the follow-up is counted, as for request_action.
    refused = _refuse_authority_claims(world, role, "follow_up", args.text)
    if refused is not None:
        return refused
    handoff.follow_ups += 1
    handoff.status = "open"
    world.record(HandoffEntry(step=world.step, minute=world.minute, handoff_id=handoff.id,
                              event="followed_up", requester=role, owner=handoff.owner,
                              action=handoff.action, quote_id=handoff.quote_id))
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
    world.record(HandoffEntry(step=world.step, minute=world.minute, handoff_id=handoff.id,
                              event="withdrawn", requester=role, owner=handoff.owner,
                              action=handoff.action, quote_id=handoff.quote_id,
                              reason=args.reason))
    return ToolResult.success("withdraw", {"handoff_id": handoff.id, "status": "withdrawn"})


def decline(world: World, handoff: Handoff, reason: str) -> None:
    """Record that the owner of ``handoff`` declines it (called by personas)."""
    handoff.status = "declined"
    handoff.reason = reason
    world.record(HandoffEntry(step=world.step, minute=world.minute, handoff_id=handoff.id,
                              event="declined", requester=handoff.requester,
                              owner=handoff.owner, action=handoff.action,
                              quote_id=handoff.quote_id, reason=reason))
