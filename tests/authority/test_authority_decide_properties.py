"""Properties of decide(): deny by default, forbid wins, order-independence, monotonicity."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from remit.authority import (
    AuthorityMap,
    Decision,
    Forbid,
    Request,
    Threshold,
    Unmet,
    decide,
    map_hash,
)
from tests.authority.strategies import PREDICATES, SETTINGS, forbids, maps, requests


def _verdict(decision: Decision) -> tuple[object, ...]:
    return (decision.allowed, decision.grant_ids, decision.forbid_ids, decision.unmet)


@SETTINGS
@given(request=requests)
def test_empty_map_denies_everything(request: Request) -> None:
    decision = decide(AuthorityMap(name="empty", version="1"), request, PREDICATES)
    assert not decision.allowed
    assert decision.grant_ids == decision.forbid_ids == ()
    assert decision.unmet == ()
    assert "no role holds" in decision.reasons[0]


@SETTINGS
@given(authority_map=maps(), request=requests)
def test_request_without_a_grant_for_role_and_action_is_denied(
    authority_map: AuthorityMap, request: Request
) -> None:
    has_grant = any(
        g.role is request.role and request.action in g.actions for g in authority_map.grants
    )
    decision = decide(authority_map, request, PREDICATES)
    if not has_grant:
        assert not decision.allowed
        assert decision.grant_ids == ()
        assert decision.unmet == ()
    # allowed iff some grant fully met and no forbid applied, in every case
    assert decision.allowed == (bool(decision.grant_ids) and not decision.forbid_ids)


@SETTINGS
@given(authority_map=maps(), request=requests)
def test_an_unconditional_forbid_always_wins(authority_map: AuthorityMap, request: Request) -> None:
    blocker = Forbid(id="f-block", roles=[request.role], actions=[request.action], reason="blocked")
    blocked = authority_map.model_copy(update={"forbids": (*authority_map.forbids, blocker)})
    decision = decide(blocked, request, PREDICATES)
    assert not decision.allowed
    assert "f-block" in decision.forbid_ids
    assert any("forbidden by f-block: blocked" in r for r in decision.reasons)
    # the grants are still reported: the forbid won over them, it did not hide them
    assert decision.grant_ids == decide(authority_map, request, PREDICATES).grant_ids


@SETTINGS
@given(authority_map=maps(), request=requests)
def test_any_applying_forbid_denies(authority_map: AuthorityMap, request: Request) -> None:
    decision = decide(authority_map, request, PREDICATES)
    if decision.forbid_ids:
        assert not decision.allowed
        assert decision.reasons[0].endswith("a forbid applies")


@SETTINGS
@given(authority_map=maps(), request=requests, seed=st.integers(0, 2**32 - 1))
def test_shuffling_grants_and_forbids_never_changes_a_decision(
    authority_map: AuthorityMap, request: Request, seed: int
) -> None:
    rng = random.Random(seed)
    grants, forbids = list(authority_map.grants), list(authority_map.forbids)
    rng.shuffle(grants)
    rng.shuffle(forbids)
    shuffled = AuthorityMap(
        name=authority_map.name,
        version=authority_map.version,
        grants=tuple(grants),
        forbids=tuple(forbids),
    )
    before, after = (
        decide(authority_map, request, PREDICATES),
        decide(shuffled, request, PREDICATES),
    )
    assert _verdict(after) == _verdict(before)
    assert after.reasons == before.reasons
    assert map_hash(shuffled) == map_hash(authority_map)  # the hash is order-free as well
    assert after == before


@SETTINGS
@given(authority_map=maps(), request=requests, forbid=forbids("f-new"))
def test_adding_a_forbid_never_widens_access(
    authority_map: AuthorityMap, request: Request, forbid: Forbid
) -> None:
    wider = authority_map.model_copy(update={"forbids": (*authority_map.forbids, forbid)})
    before, after = decide(authority_map, request, PREDICATES), decide(wider, request, PREDICATES)
    assert after.allowed <= before.allowed  # allowed after implies allowed before
    assert set(before.forbid_ids) <= set(after.forbid_ids)
    assert after.grant_ids == before.grant_ids
    assert after.unmet == before.unmet


@SETTINGS
@given(authority_map=maps(), request=requests)
def test_decisions_are_deterministic_and_ids_sorted(
    authority_map: AuthorityMap, request: Request
) -> None:
    first, second = (
        decide(authority_map, request, PREDICATES),
        decide(authority_map, request, PREDICATES),
    )
    assert first == second
    assert list(first.grant_ids) == sorted(first.grant_ids)
    assert list(first.forbid_ids) == sorted(first.forbid_ids)
    assert [u.grant_id for u in first.unmet] == sorted(u.grant_id for u in first.unmet)
    assert first.map_hash == map_hash(authority_map)


def test_fast_built_decision_equals_the_validated_model() -> None:
    authority_map = AuthorityMap.model_validate(
        {
            "name": "m",
            "version": "1",
            "grants": [
                {
                    "id": "g-agent-submit",
                    "role": "agent",
                    "actions": ["submit"],
                    "conditions": [
                        {"kind": "threshold", "attribute": "discount_pct", "op": "<=", "value": 5}
                    ],
                }
            ],
        }
    )
    request = Request.model_validate(
        {"actor_id": "a", "role": "agent", "action": "submit", "resource": {"id": "Q-1"}}
    )
    decision = decide(authority_map, request)
    rebuilt = Decision.model_validate(decision.model_dump())
    assert rebuilt == decision
    assert Decision.model_validate_json(decision.model_dump_json()) == decision
    assert decision.unmet == (
        Unmet(
            grant_id="g-agent-submit",
            kind="threshold",
            sentence=decision.unmet[0].sentence,
        ),
    )
    assert isinstance(authority_map.grants[0].conditions[0], Threshold)


def test_index_is_rebuilt_when_a_copy_swaps_the_grants() -> None:
    authority_map = AuthorityMap.model_validate(
        {
            "name": "m",
            "version": "1",
            "grants": [{"id": "g-1", "role": "agent", "actions": ["submit"]}],
        }
    )
    request = Request.model_validate(
        {"actor_id": "a", "role": "agent", "action": "submit", "resource": {"id": "Q-1"}}
    )
    assert decide(authority_map, request).allowed  # builds and caches the index
    emptied = authority_map.model_copy(update={"grants": ()})
    assert not decide(emptied, request).allowed
    assert map_hash(emptied) != map_hash(authority_map)
    renamed = authority_map.model_copy(update={"version": "2"})
    assert map_hash(renamed) != map_hash(authority_map)
