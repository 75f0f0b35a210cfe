"""Deciding one request against a map, with the reasons.

Semantics (each a tested property):

* **Deny by default.** A request is allowed only if at least one grant for its role and
  action has all its conditions met.
* **A forbid always wins.** If any forbid covering the role and action applies (all its
  conditions hold), the request is denied whatever the grants say.
* **Order never matters.** Grants and forbids are looked up in an index sorted by id;
  every id tuple in a :class:`Decision` is sorted, so shuffling a map changes nothing.
* **Explained.** A decision lists the grants that allowed it, the forbids that applied,
  every unmet condition of every candidate grant as a sentence, and the map's hash.

``decide`` runs on every simulated step: it does two dictionary lookups in the map's
precomputed index and evaluates only the conditions of the candidate grants and forbids.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from remit.authority.conditions import ConditionKind, Predicate
from remit.authority.policy import AuthorityMap, MapIndex
from remit.authority.request import Request
from remit.authority.roles import Role
from remit.trusted import trusted

__all__ = ["Decision", "Unmet", "decide"]

_NO_PREDICATES: Mapping[str, Predicate] = MappingProxyType({})


class Unmet(BaseModel):
    """One condition of a candidate grant that the request did not meet.

    Attributes:
        grant_id: the grant whose condition failed.
        kind: the condition's kind (``threshold``, ``evidence_required``...).
        sentence: what was needed, what was given, and what to do.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    grant_id: str
    kind: ConditionKind
    sentence: str


class Decision(BaseModel):
    """The answer to one request, with everything that decided it.

    Attributes:
        allowed: True iff some grant was fully met and no forbid applied.
        grant_ids: the grants for the role and action whose conditions were all met.
        forbid_ids: the forbids that applied.
        unmet: each unmet condition of each candidate grant (role and action matched).
        reasons: human sentences, the verdict first.
        holders: the roles that hold a grant for the action in this map (to whom a
            denied actor should hand the action off).
        map_hash: the hash of the map that decided.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    allowed: bool
    grant_ids: tuple[str, ...] = ()
    forbid_ids: tuple[str, ...] = ()
    unmet: tuple[Unmet, ...] = ()
    reasons: tuple[str, ...] = ()
    holders: tuple[Role, ...] = ()
    map_hash: str


def decide(
    authority_map: AuthorityMap,
    request: Request,
    predicates: Mapping[str, Predicate] | None = None,
) -> Decision:
    """Decide ``request`` against ``authority_map``.

    Args:
        authority_map: the map (of a control mode) in force.
        request: who asks to do what, on which record, in which context.
        predicates: the custom predicates the map's ``custom`` conditions may name. There
            is no global registry; an unknown name fails closed.

    Returns:
        The decision with grant ids, forbid ids, unmet conditions, reasons and map hash.

    Example:
        >>> from remit.authority import Action, Request, Resource, Role, default_map
        >>> d = decide(default_map(), Request(actor_id="a-1", role=Role.AGENT,
        ...            action=Action.APPROVE, resource=Resource(id="Q-1")))
        >>> d.allowed, d.holders
        (False, (<Role.FINANCE: 'finance'>,))
    """
    preds = _NO_PREDICATES if predicates is None else predicates
    index = authority_map.index
    key = (request.role, request.action)

    granted: list[str] = []
    unmet: list[Unmet] = []
    for grant in index.grants_for.get(key, ()):
        met = True
        for condition in grant.conditions:
            if not condition.holds(request, preds, False):
                met = False
                sentence = condition.explain(request, preds, False, False)
                unmet.append(
                    trusted(
                        Unmet,
                        {
                            "grant_id": grant.id,
                            "kind": condition.kind,
                            "sentence": f"{grant.id}: {sentence}",
                        },
                    )
                )
        if met:
            granted.append(grant.id)

    forbidden: list[str] = []
    forbid_reasons: list[str] = []
    for forbid in index.forbids_for.get(key, ()):
        if all(c.holds(request, preds, True) for c in forbid.conditions):
            forbidden.append(forbid.id)
            why = "; ".join(c.explain(request, preds, True, True) for c in forbid.conditions)
            forbid_reasons.append(
                f"forbidden by {forbid.id}: {forbid.reason}" + (f" ({why})" if why else "")
            )

    allowed = bool(granted) and not forbidden
    reasons = _reasons(request, index, granted if allowed else [], forbid_reasons, unmet)
    return trusted(
        Decision,
        {
            "allowed": allowed,
            "grant_ids": tuple(granted),
            "forbid_ids": tuple(forbidden),
            "unmet": tuple(unmet),
            "reasons": reasons,
            "holders": index.holder_roles.get(request.action, ()),
            "map_hash": index.hash,
        },
    )


def _reasons(
    request: Request,
    index: MapIndex,
    granted: list[str],
    forbid_reasons: list[str],
    unmet: list[Unmet],
) -> tuple[str, ...]:
    who = f"{request.role} may"
    what = f"{request.action} {request.resource.label()}"
    if granted:  # only passed when the request is allowed
        return (f"{who} {what}: granted by {', '.join(granted)}",)
    if forbid_reasons:
        head = f"{who} not {what}: a forbid applies"
        return (head, *forbid_reasons, *(u.sentence for u in unmet))
    if unmet:
        head = (
            f"{who} not {what}: no grant for {request.role} {request.action} "
            "has all its conditions met"
        )
        return (head, *(u.sentence for u in unmet))
    return (f"{who} not {what}: {_no_grant(request, index)}",)


def _no_grant(request: Request, index: MapIndex) -> str:
    sentence = f"no grant gives {request.role} {request.action}"
    holders = [(r, ids) for r, ids in index.holders.get(request.action, ()) if r != request.role]
    if not holders:
        return f"{sentence}; no role holds {request.action} in this map; add a grant to the map"
    held = ", ".join(f"{role} ({', '.join(ids)})" for role, ids in holders)
    ask = " or ".join(f'request_action(to="{role}", ...)' for role, _ in holders)
    return f"{sentence}; held by {held}; request it with {ask}"
