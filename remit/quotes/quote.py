"""The quote: a stateful record that the shared state machine moves.

:class:`Quote` is a plain class on purpose: the ``transitions`` library reads and
writes its ``state`` attribute, and equality must stay identity (two quotes with the
same content are still two records). Everything a quote remembers about who did what
is an immutable record bound to a version's content hash:

- :class:`Approval` - finance's decision on one content;
- :class:`FitConfirmation` - the technical owner's (or buyer's) fit sign-off;
- :class:`Submission` - who submitted which content, with which justification;
- :class:`TransitionRecord` - one successful transition, appended to ``history``.

Example:
    >>> quote = Quote("Q-1", lines=[line], policy=CommercialPolicy(), valid_until_minute=600)
    >>> quote.state, quote.current.number
    ('draft', 1)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from remit.authority.roles import Action, Role
from remit.catalogue.attributes import CertificateGrade
from remit.quotes.documents import QuoteLine, QuoteVersion
from remit.quotes.orders import GoodsReceipt, Invoice, PurchaseOrder
from remit.quotes.policy import CommercialPolicy
from remit.quotes.states import QuoteState, state_of

__all__ = [
    "Approval",
    "ApprovalDecision",
    "FitConfirmation",
    "Quote",
    "Submission",
    "TransitionRecord",
]

ApprovalDecision = Literal["approve", "deny"]
"""Finance's decision on a submitted version."""


class Approval(BaseModel):
    """Finance's decision on one version content.

    Attributes:
        role: the role that decided (finance in dual-control).
        actor_id: who decided.
        version_hash: content hash of the decided version; the decision counts only
            while the quote's current content has this hash.
        minute: simulated minute of the decision.
        decision: ``approve`` or ``deny``.
        reason: why (always useful for a denial).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    actor_id: str
    version_hash: str
    minute: int
    decision: ApprovalDecision
    reason: str = ""


class FitConfirmation(BaseModel):
    """A fit sign-off for one version content.

    Attributes:
        role: technical owner (product facts) or buyer (operating facts).
        actor_id: who confirmed.
        version_hash: content hash of the confirmed version.
        evidence_ids: the released datasheets (and other documents) relied on.
        minute: simulated minute of the confirmation.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    actor_id: str
    version_hash: str
    evidence_ids: tuple[str, ...]
    minute: int


class Submission(BaseModel):
    """A version content submitted for approval.

    Attributes:
        role, actor_id: who submitted.
        version_hash: the content submitted; only this content may be approved.
        minute: simulated minute of submission.
        justification: the exception justification (discount above standard, margin
            below minimum), empty when none was needed or given.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    actor_id: str
    version_hash: str
    minute: int
    justification: str = ""


class TransitionRecord(BaseModel):
    """One successful transition of one quote.

    Attributes:
        quote_id: the quote.
        action: the trigger fired.
        from_state, to_state: the move.
        version_number, version_hash: the current version after the transition
            (the new version for ``edit_lines`` and ``revise``).
        actor_id, role: who acted.
        minute: simulated minute.
        reason: the reason or justification given, if any.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    quote_id: str
    action: Action
    from_state: QuoteState
    to_state: QuoteState
    version_number: int = Field(ge=1)
    version_hash: str
    actor_id: str
    role: Role
    minute: int
    reason: str = ""


@functools.lru_cache(maxsize=64)
def _first_empty_version(created_minute: int) -> QuoteVersion:
    """Version 1 of a quote opened without lines (immutable, so every such quote opened
    at the same minute shares one; its hash is worked out once per process)."""
    return QuoteVersion.build(1, (), created_minute)


class Quote:
    """A quote for industrial valves and the record of its approvals and orders.

    The quote's ``state`` is moved only by :func:`remit.quotes.fire` and
    :func:`remit.quotes.edit_lines`; other attributes are read by guards, the world
    and the scorers.

    Args:
        id: stable quote id, e.g. ``Q-17``.
        lines: the first version's lines (may be empty in a fresh draft).
        policy: commercial limits (defaults to :class:`CommercialPolicy`).
        valid_until_minute: last simulated minute at which the quote may be presented
            or accepted; defaults to ``created_minute + policy.validity_minutes``.
        fit_required: the lines need a fit review before pricing (custom spec,
            substitution).
        certificate_required: EN 10204 certificate the buyer requires with the goods
            (C7), or ``None``.
        created_minute: simulated minute the quote was opened.

    Attributes:
        validity_minutes: the validity period; a revision starts a fresh one.
        versions: every version, oldest first; editing appends.
        approvals: every approval decision, oldest first.
        fit_confirmation: the latest fit sign-off, or ``None``.
        submission: the latest submission for approval, or ``None``.
        purchase_order, receipt, invoice: order documents, once recorded.
        history: every successful transition, oldest first.
    """

    def __init__(
        self,
        id: str,
        *,
        lines: Sequence[QuoteLine] = (),
        policy: CommercialPolicy | None = None,
        valid_until_minute: int | None = None,
        fit_required: bool = False,
        certificate_required: CertificateGrade | None = None,
        created_minute: int = 0,
    ) -> None:
        self.id = id
        self.policy = policy if policy is not None else CommercialPolicy()
        self.valid_until_minute = (
            valid_until_minute
            if valid_until_minute is not None
            else created_minute + self.policy.validity_minutes
        )
        self.validity_minutes = self.valid_until_minute - created_minute
        self.fit_required = fit_required
        self.certificate_required = certificate_required
        self.created_minute = created_minute
        self._state: str = QuoteState.DRAFT.value
        self.versions: list[QuoteVersion] = [
            QuoteVersion.build(1, lines, created_minute) if lines
            else _first_empty_version(created_minute)]
        self.approvals: list[Approval] = []
        self.fit_confirmation: FitConfirmation | None = None
        self.submission: Submission | None = None
        self.purchase_order: PurchaseOrder | None = None
        self.receipt: GoodsReceipt | None = None
        self.invoice: Invoice | None = None
        self.history: list[TransitionRecord] = []

    @property
    def state(self) -> str:
        """The current :class:`QuoteState` value, as a plain string.

        The ``transitions`` machine reads and writes this attribute; assigning a
        :class:`QuoteState` member stores its plain value, an unknown state raises
        ``ValueError``.
        """
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        self._state = state_of(value).value

    @property
    def current(self) -> QuoteVersion:
        """The latest version."""
        return self.versions[-1]

    @property
    def current_hash(self) -> str:
        """Content hash of the latest version."""
        return self.versions[-1].content_hash

    @property
    def submitted_by(self) -> str | None:
        """Actor id of the latest submission, or ``None``."""
        return None if self.submission is None else self.submission.actor_id

    def valid_approval(self) -> Approval | None:
        """The approval that covers the current content, or ``None``.

        It is the latest approval decision when that decision is ``approve`` and is bound
        to the current content hash. An approval of an older content, or one followed by
        a denial, does not count.
        """
        if not self.approvals:
            return None
        latest = self.approvals[-1]
        if latest.decision == "approve" and latest.version_hash == self.current_hash:
            return latest
        return None

    def valid_fit_confirmation(self) -> FitConfirmation | None:
        """The fit confirmation when it is bound to the current content hash, else ``None``."""
        confirmation = self.fit_confirmation
        if confirmation is not None and confirmation.version_hash == self.current_hash:
            return confirmation
        return None

    def __repr__(self) -> str:
        return (
            f"Quote(id={self.id!r}, state={self._state!r}, version={self.current.number}, "
            f"hash={self.current.short_hash})"
        )
