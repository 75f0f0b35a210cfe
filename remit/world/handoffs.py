"""Hand-offs: one party asking the owner of an action to perform it.

A hand-off is *completed* when the owner performs the action, *declined* when the
owner refuses, *withdrawn* by its requester, and *open* otherwise. A declined hand-off
may be recovered: a follow-up re-opens it, and the owner may then complete it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from remit.authority import Action, Role

__all__ = ["Handoff", "HandoffStatus"]

HandoffStatus = Literal["open", "completed", "declined", "withdrawn"]


class Handoff(BaseModel):
    """One request for an owner's action.

    Attributes:
        id: ``H-1``, ``H-2``... in order of opening.
        requester: who asked.
        owner: who was asked (holds the action in this mode).
        action: the action asked for.
        quote_id: the quote it is for.
        evidence: evidence ids cited with the request.
        status: open, completed, declined or withdrawn.
        opened_minute: when it was opened.
        follow_ups: how many follow-ups it received.
        reason: the owner's decline reason or the requester's withdraw reason.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    id: str
    requester: Role
    owner: Role
    action: Action
    quote_id: str
    evidence: tuple[str, ...] = ()
    text: str = ""
    status: HandoffStatus = "open"
    opened_minute: int
    follow_ups: int = 0
    reason: str = ""
