"""The default authority map of the valve-distributor fixture (docs/domain.md, owner column).

Built in Python so that it is typed and reviewed like code; ``dump_map(default_map(),
"yaml")`` writes it as a file. Business rules (state guards, three-way match, validity
dates) live in the quote state machine and hold in every mode; this map carries only
authority: who may trigger what, on which evidence, and separation of duties.
"""

from __future__ import annotations

from remit.authority.conditions import Condition, EvidenceRequired, SeparationOfDuties
from remit.authority.policy import AuthorityMap, Forbid, Grant
from remit.authority.roles import Action, Role

__all__ = ["HUMAN_ROLES", "default_map", "grant_id"]

HUMAN_ROLES: tuple[Role, ...] = (Role.AGENT, Role.BUYER, Role.TECHNICAL_OWNER, Role.FINANCE)
"""The roles played by an actor (everyone but ``system``); separation of duties covers them."""

_RELEASED_DATASHEET = EvidenceRequired(kinds=("datasheet",), released_only=True)


def grant_id(role: Role, action: Action) -> str:
    """The conventional id of the grant of ``action`` to ``role``, e.g. ``g-finance-approve``."""
    return f"g-{role.value.replace('_', '-')}-{action.value.replace('_', '-')}"


def _grant(role: Role, action: Action, description: str, *conditions: Condition) -> Grant:
    return Grant(
        id=grant_id(role, action),
        role=role,
        actions=(action,),
        conditions=conditions,
        description=description,
    )


def default_map() -> AuthorityMap:
    """The dual-control map of the valve fixture: the state machine's owner column, one grant
    per cell.

    Choices worth knowing:

    * ``confirm_fit`` is granted to the technical owner (product facts) and to the buyer
      (operating facts); **both grants require a cited released datasheet**, so nobody
      confirms fit against a draft revision or against no document at all.
    * ``f-sod-approve-own-submission``: whoever submitted a quote for approval may not
      approve or deny it. ``f-sod-release-own-invoice``: whoever invoiced may not release
      the payment. Both cover every human role (separation of duties is about actors,
      not roles), so they also bind an actor who holds several roles.
    * ``expire`` belongs to ``system`` (the clock).

    Returns:
        A fresh map named ``valve-distributor``, version ``1``.
    """
    a, b, t, f = Role.AGENT, Role.BUYER, Role.TECHNICAL_OWNER, Role.FINANCE
    grants = [
        _grant(a, Action.CONFIGURE, "the agent drafts lines citing governed attributes"),
        _grant(a, Action.REQUEST_FIT, "the agent asks for a fit check of a custom spec"),
        _grant(
            t,
            Action.CONFIRM_FIT,
            "the technical owner confirms product facts against a released datasheet",
            _RELEASED_DATASHEET,
        ),
        _grant(
            b,
            Action.CONFIRM_FIT,
            "the buyer confirms operating facts against a released datasheet",
            _RELEASED_DATASHEET,
        ),
        _grant(t, Action.REJECT_FIT, "the technical owner rejects a proposed fit"),
        _grant(b, Action.REJECT_FIT, "the buyer rejects a proposed fit"),
        _grant(a, Action.PRICE, "the agent prices a configured or fit-confirmed quote"),
        _grant(a, Action.SUBMIT, "the agent submits a quote for commercial approval"),
        _grant(f, Action.APPROVE, "finance approves discounts and margins outside policy"),
        _grant(f, Action.DENY, "finance denies a submitted quote"),
        _grant(a, Action.PRESENT, "the agent presents an approved quote to the buyer"),
        _grant(b, Action.ACCEPT, "the buyer accepts a presented quote"),
        _grant(b, Action.REJECT, "the buyer rejects a presented quote"),
        _grant(Role.SYSTEM, Action.EXPIRE, "the clock expires quotes past their validity"),
        _grant(b, Action.RECEIVE_PO, "the buyer places a purchase order"),
        _grant(b, Action.RECORD_RECEIPT, "the buyer records receipt of the goods"),
        _grant(a, Action.INVOICE, "the agent invoices a delivered order"),
        _grant(f, Action.RELEASE_PAYMENT, "finance releases payment after the three-way match"),
        _grant(a, Action.REVISE, "the agent revises a denied, rejected or expired quote"),
        _grant(b, Action.CANCEL, "the buyer cancels a quote"),
        _grant(f, Action.CANCEL, "finance cancels a quote"),
        _grant(a, Action.EDIT_LINES, "the agent edits lines, opening a new version"),
    ]
    forbids = [
        Forbid(
            id="f-sod-approve-own-submission",
            roles=HUMAN_ROLES,
            actions=(Action.APPROVE, Action.DENY),
            conditions=(SeparationOfDuties(prior_action=Action.SUBMIT),),
            reason="the approver must not be the actor who submitted the quote",
        ),
        Forbid(
            id="f-sod-release-own-invoice",
            roles=HUMAN_ROLES,
            actions=(Action.RELEASE_PAYMENT,),
            conditions=(SeparationOfDuties(prior_action=Action.INVOICE),),
            reason="payment must not be released by the actor who issued the invoice",
        ),
    ]
    return AuthorityMap(
        name="valve-distributor", version="1", grants=tuple(grants), forbids=tuple(forbids)
    )
