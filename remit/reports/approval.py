"""The approval trail of one trial: every authority decision, the final confirmations,
the divergence from the reference plan (:func:`remit.reports.divergence`), and the
transcript.

:func:`approval_trail` reads a stored trial (its trail entries only; no world is
rebuilt) and returns an :class:`~remit.reports.model.ApprovalTrail`:

- **decisions**, in order: time, actor and role, action, record and version, the
  decision, the grant or forbid ids that decided it, every unmet condition as a
  sentence, the evidence cited and the hand-off answered. The **authority** of an
  allowed write is the role whose grant decided it: ``g-finance-approve@agent`` is
  finance's grant copied to the agent (all-tools), so the agent acted under finance's
  authority. The base grant (before ``@``) is looked up in the mode's map when the mode
  is known, else the role is read from the conventional id ``g-<role>-<action>``.
- **confirmations**, as sentences: the quote's final state and version, who approved
  the final version (``finance approved version 3 (a1b2c3d4) at t=57m``, or ``no
  approval is bound to the final version ...``), and who released payment.


- **transcript**: every message, in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from remit.authority import ControlMode, Role
from remit.harness.runner import TrialRecord
from remit.reports.explain import divergence_and_explanation
from remit.reports.model import ApprovalTrail, DecisionRow, Divergence, TranscriptLine
from remit.scenarios import Scenario
from remit.world import (
    DecisionEntry,
    EndEntry,
    ErrorEntry,
    MessageEntry,
    TrailEntry,
    TransitionEntry,
)

__all__ = ["HASH_CHARS", "approval_trail", "authority_of_grants", "confirmations", "grant_roles"]

HASH_CHARS = 8
"""How many characters of a version hash a report shows."""

_ROLE_PREFIXES = sorted(((r.value.replace("_", "-") + "-", r.value) for r in Role),
                        key=lambda pair: -len(pair[0]))


def grant_roles(mode: ControlMode | None) -> dict[str, str]:
    """Each grant id of ``mode``'s map with its role (empty when the mode is unknown)."""
    if mode is None:
        return {}
    return {grant.id: grant.role.value for grant in mode.map.grants}


def _role_of_grant(grant_id: str, roles: Mapping[str, str]) -> str | None:
    base = grant_id.split("@", 1)[0]
    if base in roles:
        return roles[base]
    if base.startswith("g-"):
        rest = base[2:]
        for prefix, role in _ROLE_PREFIXES:
            if rest.startswith(prefix):
                return role
    return None


def authority_of_grants(grant_ids: Sequence[str], roles: Mapping[str, str]) -> str | None:
    """The role under whose authority a write allowed by ``grant_ids`` happened.

    The first grant that is another role's (copied to the agent) names it; otherwise the
    grants' own role; ``None`` when no grant's role is known.

    Example:
        >>> authority_of_grants(("g-finance-approve@agent",), {})
        'finance'
    """
    found = [r for r in (_role_of_grant(g, roles) for g in grant_ids) if r is not None]
    others = [r for r in found if r != Role.AGENT.value]
    if others:
        return others[0]
    return found[0] if found else None


def _short(version_hash: str) -> str:
    return version_hash[:HASH_CHARS]


def _versions(trail: Sequence[TrailEntry]) -> dict[str, int]:
    """Version number by content hash, from the transitions (and, for writes that made a
    new version, the version decided on is the one before)."""
    numbers: dict[str, int] = {}
    pending: DecisionEntry | None = None
    for entry in trail:
        if isinstance(entry, DecisionEntry):
            pending = entry if entry.allowed else None
        elif isinstance(entry, TransitionEntry):
            numbers.setdefault(entry.version_hash, entry.version)
            if (pending is not None and pending.step == entry.step
                    and pending.version_hash != entry.version_hash):
                numbers.setdefault(pending.version_hash, entry.version - 1)
            pending = None
    return numbers


def _effect(trail: Sequence[TrailEntry], index: int) -> str:
    """What the decision at ``index`` led to: its transition or the error that stopped it."""
    decision = trail[index]
    for entry in trail[index + 1:]:
        if entry.step != decision.step or isinstance(entry, DecisionEntry):
            break
        if isinstance(entry, TransitionEntry):
            return (f"v{entry.version}" if entry.from_state == entry.to_state
                    else f"{entry.from_state} -> {entry.to_state}")
        if isinstance(entry, ErrorEntry) and entry.code != "denied":
            return f"{entry.code}: {entry.message}"
    return ""


def _decisions(trail: Sequence[TrailEntry], roles: Mapping[str, str],
               diverged: Divergence | None) -> tuple[DecisionRow, ...]:
    versions = _versions(trail)
    rows: list[DecisionRow] = []
    for index, entry in enumerate(trail):
        if not isinstance(entry, DecisionEntry):
            continue
        deciding = entry.grant_ids if entry.allowed else entry.forbid_ids
        rows.append(DecisionRow(
            step=entry.step, minute=entry.minute, actor_id=entry.actor_id,
            role=entry.role.value, action=entry.action.value, quote_id=entry.quote_id,
            version=versions.get(entry.version_hash),
            version_hash=_short(entry.version_hash), allowed=entry.allowed,
            deciding=deciding,
            authority=authority_of_grants(entry.grant_ids, roles) if entry.allowed else None,
            unmet=entry.unmet, reasons=() if entry.allowed else entry.reasons,
            evidence=entry.evidence,
            handoff_id=entry.handoff_id, effect=_effect(trail, index),
            diverges=(diverged is not None and entry.step == diverged.step
                      and entry.role is Role.AGENT),
        ))
    return tuple(rows)


def _authority(trail: Sequence[TrailEntry], index: int, roles: Mapping[str, str]) -> str:
    """The authority of the transition at ``index``: its deciding grant's role."""
    transition = trail[index]
    if not isinstance(transition, TransitionEntry):
        raise TypeError(f"trail[{index}] is a {transition.kind} entry, not a transition")
    for entry in reversed(trail[:index]):
        if (isinstance(entry, DecisionEntry) and entry.step == transition.step
                and entry.action is transition.action and entry.allowed):
            return authority_of_grants(entry.grant_ids, roles) or transition.role.value
    return transition.role.value


def _by(role: str, authority: str) -> str:
    return role if authority == role else f"{role} (under {authority}'s authority)"


def confirmations(trail: Sequence[TrailEntry], roles: Mapping[str, str]) -> tuple[str, ...]:
    """The final confirmations of a trail as sentences (see the module docstring)."""
    moves = [(i, e) for i, e in enumerate(trail) if isinstance(e, TransitionEntry)]
    if not moves:
        return ("the quote never moved: no transition was made",
                "no approval is bound to the final version",
                "payment was not released")
    quote_id = moves[-1][1].quote_id
    moves = [(i, e) for i, e in moves if e.quote_id == quote_id]
    final = moves[-1][1]
    label = f"version {final.version} ({_short(final.version_hash)})"
    sentences = [f"quote {quote_id} ended in {final.to_state} at {label}"]
    approvals = [(i, e) for i, e in moves if e.action.value == "approve"]
    bound = [(i, e) for i, e in approvals if e.version_hash == final.version_hash]
    if bound:
        i, e = bound[-1]
        sentences.append(f"{_by(e.role.value, _authority(trail, i, roles))} approved "
                         f"{label} at t={e.minute}m")
    elif approvals:
        i, e = approvals[-1]
        sentences.append(f"no approval is bound to the final {label}: "
                         f"{_by(e.role.value, _authority(trail, i, roles))} approved "
                         f"version {e.version} ({_short(e.version_hash)}) at t={e.minute}m, "
                         "which was changed afterwards")
    else:
        sentences.append(f"no approval is bound to the final {label}")
    released = [(i, e) for i, e in moves if e.action.value == "release_payment"]
    if released:
        i, e = released[-1]
        sentences.append(f"payment was released by "
                         f"{_by(e.role.value, _authority(trail, i, roles))} at t={e.minute}m")
    else:
        sentences.append("payment was not released")
    return tuple(sentences)


def _transcript(trail: Sequence[TrailEntry]) -> tuple[TranscriptLine, ...]:
    return tuple(TranscriptLine(step=e.step, minute=e.minute, sender=e.sender.value,
                                to=e.to.value, tool=e.tool, text=e.text,
                                handoff_id=e.handoff_id)
                 for e in trail if isinstance(e, MessageEntry))


def _ended(trail: Sequence[TrailEntry]) -> str:
    end = next((e for e in reversed(trail) if isinstance(e, EndEntry)), None)
    if end is None:
        return "not ended"
    said = f": {end.summary}" if end.summary else ""
    return f"{end.reason} at step {end.step} (t={end.minute}m){said}"


def approval_trail(record: TrialRecord, scenario: Scenario | None = None, *,
                   mode: ControlMode | None = None,
                   roles: Mapping[str, str] | None = None) -> ApprovalTrail:
    """The approval trail of one trial (see the module docstring).

    Args:
        record: the trial, with its trail.
        scenario: its scenario; without it there is no plan, so no divergence and no
            explanation (``divergence_note`` says so).
        mode: its control mode, if known (who may act on an owner step; grant roles).
        roles: grant id -> role; default: from ``mode``'s map.

    Example:
        >>> trail = approval_trail(record, scenario)              # doctest: +SKIP
        >>> trail.confirmations[1]                                # doctest: +SKIP
        'finance approved version 3 (a1b2c3d4) at t=57m'
    """
    grants = dict(roles) if roles is not None else grant_roles(mode)
    found: Divergence | None = None
    explanation = ""
    if scenario is None:
        note = "no suite given: the reference plan is unknown, so no divergence is marked"
    elif record.scored.score.passed:
        # A passing agent may take another valid path (submit before an approval the plan
        # skips, go on past the plan's end); marking it would only add noise.
        note = "the trial passed, so no departure from the reference plan is marked"
    else:
        found, explained = divergence_and_explanation(record, scenario, mode=mode)
        note = "" if found is not None else "the agent followed the reference plan"
        explanation = explained if record.trail else ""
    return ApprovalTrail(
        decisions=_decisions(record.trail, grants, found),
        confirmations=confirmations(record.trail, grants),
        divergence=found,
        divergence_note=note,
        transcript=_transcript(record.trail),
        ended=_ended(record.trail),
        explanation=explanation,
    )
