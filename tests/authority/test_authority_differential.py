"""decide() against a deliberately naive reference evaluator, on thousands of requests.

The reference below reads the semantics straight from DESIGN.md and the conditions'
docstrings: plain loops over every grant and forbid, no index, no methods of the
condition classes. Any disagreement with the indexed ``decide`` is a bug in one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from remit.authority import (
    Action,
    AuthorityMap,
    Condition,
    Request,
    Role,
    Unmet,
    builtin_modes,
    decide,
    default_map,
    delegate,
)
from remit.authority.conditions import Predicate
from tests.authority.strategies import PREDICATES, SETTINGS, any_requests, maps, requests

Verdict = tuple[bool, tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]


def _holds(  # noqa: PLR0911 - the naive reference is one if-chain on purpose
    condition: Condition, request: Request, predicates: Mapping[str, Predicate], *, in_forbid: bool
) -> bool:
    context = request.context
    if condition.kind == "threshold":
        actual = getattr(context, condition.attribute)
        if actual is None:
            return False
        limit = condition.value
        return bool(
            {
                "<=": actual <= limit,
                "<": actual < limit,
                ">=": actual >= limit,
                ">": actual > limit,
                "==": actual == limit,
            }[condition.op]
        )
    if condition.kind == "evidence_required":
        for wanted in condition.kinds:
            found = False
            for cited in context.evidence:
                if cited.kind == wanted and (cited.released or not condition.released_only):
                    found = True
            if not found:
                return False
        return True
    if condition.kind == "separation_of_duties":
        same = context.prior_actors.get(condition.prior_action) == request.actor_id
        return same if in_forbid else not same
    if condition.kind == "state":
        return request.resource.state is not None and request.resource.state in condition.states
    if condition.kind == "delegation_limit":
        actual = getattr(context, condition.attribute)
        return actual is not None and actual <= condition.max
    # custom: unknown names fail closed (unmet on a grant, applying on a forbid)
    if condition.name not in predicates:
        return in_forbid
    return predicates[condition.name](request)


def reference(
    authority_map: AuthorityMap, request: Request, predicates: Mapping[str, Predicate]
) -> Verdict:
    granted: list[str] = []
    unmet: list[tuple[str, str]] = []
    for grant in sorted(authority_map.grants, key=lambda g: g.id):
        if grant.role != request.role or request.action not in grant.actions:
            continue
        all_met = True
        for condition in grant.conditions:
            if not _holds(condition, request, predicates, in_forbid=False):
                all_met = False
                unmet.append((grant.id, condition.kind))
        if all_met:
            granted.append(grant.id)
    forbidden: list[str] = []
    for forbid in sorted(authority_map.forbids, key=lambda f: f.id):
        if request.role not in forbid.roles or request.action not in forbid.actions:
            continue
        if all(_holds(c, request, predicates, in_forbid=True) for c in forbid.conditions):
            forbidden.append(forbid.id)
    allowed = len(granted) > 0 and len(forbidden) == 0
    return allowed, tuple(granted), tuple(forbidden), tuple(unmet)


def _verdict(
    authority_map: AuthorityMap, request: Request, predicates: Mapping[str, Predicate]
) -> Verdict:
    decision = decide(authority_map, request, predicates)
    assert len(decision.reasons) >= 1
    unmet = tuple((u.grant_id, u.kind) for u in decision.unmet)
    _sentences_name_their_facts(authority_map, request, decision.unmet)
    return decision.allowed, decision.grant_ids, decision.forbid_ids, unmet


def _facts(condition: Condition, request: Request) -> tuple[str, ...]:
    """What a sentence about an unmet ``condition`` must name, derived independently of
    the sentences ``decide`` writes: the attribute, kinds, action, states or name."""
    if condition.kind in ("threshold", "delegation_limit"):
        extra = (condition.delegated_from.value,) if condition.kind == "delegation_limit" else ()
        return (condition.attribute, *extra)
    if condition.kind == "evidence_required":
        cited = {e.kind for e in request.context.evidence
                 if e.released or not condition.released_only}
        return tuple(k for k in condition.kinds if k not in cited)
    if condition.kind == "separation_of_duties":
        return (condition.prior_action.value,)
    if condition.kind == "state":
        return (*condition.states, repr(request.resource.state))
    return (condition.name,)


def _sentences_name_their_facts(authority_map: AuthorityMap, request: Request,
                                unmet: Sequence[Unmet]) -> None:
    grants = {g.id: g for g in authority_map.grants}
    for item in unmet:
        kinds = [c for c in grants[item.grant_id].conditions if c.kind == item.kind]
        assert any(all(fact in item.sentence for fact in _facts(c, request)) for c in kinds), (
            item.sentence, [_facts(c, request) for c in kinds])


_MODES = (
    *builtin_modes().values(),
    delegate(
        default_map(),
        Action.APPROVE,
        to=Role.AGENT,
        from_role=Role.FINANCE,
        attribute="discount_pct",
        limit=Decimal(5),
        name="agent_approves_5pct",
    ),
)


@settings(SETTINGS, max_examples=100)
@given(authority_map=maps(), batch=st.lists(requests, min_size=20, max_size=20))
def test_decide_agrees_with_the_reference_on_random_maps(
    authority_map: AuthorityMap, batch: list[Request]
) -> None:
    # 100 maps x 20 requests = 2000 decisions
    for request in batch:
        assert _verdict(authority_map, request, PREDICATES) == reference(
            authority_map, request, PREDICATES
        )


@settings(SETTINGS, max_examples=300)
@given(batch=st.lists(any_requests, min_size=2, max_size=2))
def test_decide_agrees_with_the_reference_on_the_default_modes(batch: list[Request]) -> None:
    # 300 x 2 requests x 4 modes = 2400 decisions over every action
    for request in batch:
        for mode in _MODES:
            assert _verdict(mode.map, request, {}) == reference(mode.map, request, {}), mode.name
