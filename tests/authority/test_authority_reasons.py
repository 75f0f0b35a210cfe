"""The sentences of decisions: each says what blocked the request and what to do."""

from __future__ import annotations

from decimal import Decimal

from remit.authority import (
    Action,
    AuthorityMap,
    CitedEvidence,
    Custom,
    DelegationLimit,
    Forbid,
    Grant,
    Request,
    RequestContext,
    Resource,
    Role,
    StateIn,
    Threshold,
    decide,
    default_map,
    map_hash,
)


def _request(
    role: Role, action: Action, actor_id: str = "u-1", state: str | None = None, **context: object
) -> Request:
    return Request(
        actor_id=actor_id,
        role=role,
        action=action,
        resource=Resource(id="Q-17", state=state),
        context=RequestContext.model_validate(context),
    )


def test_denied_request_names_the_holder_and_how_to_hand_off() -> None:
    decision = decide(default_map(), _request(Role.AGENT, Action.APPROVE))
    assert not decision.allowed
    assert decision.holders == (Role.FINANCE,)
    assert decision.reasons == (
        "agent may not approve quote Q-17: no grant gives agent approve; held by finance "
        '(g-finance-approve); request it with request_action(to="finance", ...)',
    )
    assert decision.map_hash == map_hash(default_map())


def test_denied_request_with_two_holders_names_both() -> None:
    decision = decide(default_map(), _request(Role.AGENT, Action.CANCEL))
    assert decision.holders == (Role.BUYER, Role.FINANCE)
    assert "held by buyer (g-buyer-cancel), finance (g-finance-cancel)" in decision.reasons[0]
    assert (
        'request_action(to="buyer", ...) or request_action(to="finance", ...)'
        in (decision.reasons[0])
    )


def test_allowed_request_names_its_grant() -> None:
    decision = decide(default_map(), _request(Role.AGENT, Action.PRICE))
    assert decision.allowed
    assert decision.grant_ids == ("g-agent-price",)
    assert decision.reasons == ("agent may price quote Q-17: granted by g-agent-price",)


def _threshold_map() -> AuthorityMap:
    limit = Threshold(attribute="discount_pct", op="<=", value=Decimal(5))
    grant = Grant(id="g-agent-submit", role=Role.AGENT, actions=[Action.SUBMIT], conditions=[limit])
    return AuthorityMap(name="m", version="1", grants=[grant])


def test_unmet_threshold_states_attribute_limit_and_actual_value() -> None:
    decision = decide(_threshold_map(), _request(Role.AGENT, Action.SUBMIT, discount_pct="7.5"))
    assert not decision.allowed
    assert [(u.grant_id, u.kind) for u in decision.unmet] == [("g-agent-submit", "threshold")]
    assert decision.unmet[0].sentence == (
        "g-agent-submit: needs discount_pct <= 5; actual discount_pct=7.5"
    )
    assert decision.reasons == (
        "agent may not submit quote Q-17: no grant for agent submit has all its conditions met",
        decision.unmet[0].sentence,
    )


def test_threshold_on_a_missing_attribute_fails_closed_and_says_so() -> None:
    decision = decide(_threshold_map(), _request(Role.AGENT, Action.SUBMIT))
    assert not decision.allowed
    assert decision.unmet[0].sentence == (
        "g-agent-submit: needs discount_pct <= 5 but the request gives no discount_pct; "
        "pass discount_pct in the request context"
    )


def test_sod_forbid_sentence_names_the_actor_and_the_prior_action() -> None:
    request = _request(
        Role.FINANCE, Action.APPROVE, actor_id="u-fin", prior_actors={"submit": "u-fin"}
    )
    decision = decide(default_map(), request)
    assert not decision.allowed
    assert decision.grant_ids == ("g-finance-approve",)
    assert decision.forbid_ids == ("f-sod-approve-own-submission",)
    assert decision.reasons == (
        "finance may not approve quote Q-17: a forbid applies",
        "forbidden by f-sod-approve-own-submission: the approver must not be the actor who "
        "submitted the quote (actor_id='u-fin' also performed submit on quote Q-17; another "
        "actor must approve it)",
    )
    other = _request(Role.FINANCE, Action.APPROVE, actor_id="u-fin", prior_actors={"submit": "u-a"})
    assert decide(default_map(), other).allowed


def test_release_by_the_invoicing_actor_is_forbidden() -> None:
    request = _request(
        Role.FINANCE, Action.RELEASE_PAYMENT, actor_id="u-1", prior_actors={"invoice": "u-1"}
    )
    decision = decide(default_map(), request)
    assert decision.forbid_ids == ("f-sod-release-own-invoice",)
    assert not decision.allowed


def test_confirm_fit_needs_a_released_datasheet() -> None:
    draft = CitedEvidence(id="DS-1-r2", kind="datasheet", released=False)
    released = CitedEvidence(id="DS-1-r1", kind="datasheet", released=True)
    denied = decide(
        default_map(), _request(Role.TECHNICAL_OWNER, Action.CONFIRM_FIT, evidence=[draft])
    )
    assert not denied.allowed
    assert denied.unmet[0].sentence == (
        "g-technical-owner-confirm-fit: needs cited released evidence of kind datasheet; "
        "cited: DS-1-r2 (datasheet, draft); cite it"
    )
    allowed = decide(
        default_map(), _request(Role.BUYER, Action.CONFIRM_FIT, evidence=[draft, released])
    )
    assert allowed.allowed
    assert allowed.grant_ids == ("g-buyer-confirm-fit",)


def test_state_condition_names_states_and_actual() -> None:
    grant = Grant(
        id="g-agent-present",
        role=Role.AGENT,
        actions=[Action.PRESENT],
        conditions=[StateIn(states=["approved"])],
    )
    authority_map = AuthorityMap(name="m", version="1", grants=[grant])
    decision = decide(authority_map, _request(Role.AGENT, Action.PRESENT, state="priced"))
    assert decision.unmet[0].sentence == (
        "g-agent-present: needs quote Q-17 in state approved; actual state='priced'"
    )
    assert decide(authority_map, _request(Role.AGENT, Action.PRESENT, state="approved")).allowed


def test_unknown_custom_predicate_is_unmet_fail_closed() -> None:
    grant = Grant(
        id="g-agent-price",
        role=Role.AGENT,
        actions=[Action.PRICE],
        conditions=[Custom(name="credit_ok")],
    )
    authority_map = AuthorityMap(name="m", version="1", grants=[grant])
    decision = decide(authority_map, _request(Role.AGENT, Action.PRICE), {"other": lambda r: True})
    assert not decision.allowed
    assert [(u.grant_id, u.kind) for u in decision.unmet] == [("g-agent-price", "custom")]
    assert decision.unmet[0].sentence == (
        "g-agent-price: custom predicate 'credit_ok' is unknown (known: other); treated as "
        "unmet (fail closed); pass it to decide(predicates={'credit_ok': ...})"
    )
    assert decide(
        authority_map, _request(Role.AGENT, Action.PRICE), {"credit_ok": lambda r: True}
    ).allowed
    falsy = decide(
        authority_map, _request(Role.AGENT, Action.PRICE), {"credit_ok": lambda r: False}
    )
    assert falsy.unmet[0].sentence.endswith(
        "custom predicate 'credit_ok' is false for this request"
    )


def test_unknown_custom_predicate_on_a_forbid_applies_fail_closed() -> None:
    grant = Grant(id="g-agent-price", role=Role.AGENT, actions=[Action.PRICE])
    forbid = Forbid(
        id="f-embargo",
        roles=[Role.AGENT],
        actions=[Action.PRICE],
        conditions=[Custom(name="embargoed")],
        reason="embargoed customers may not be quoted",
    )
    authority_map = AuthorityMap(name="m", version="1", grants=[grant], forbids=[forbid])
    decision = decide(authority_map, _request(Role.AGENT, Action.PRICE))
    assert not decision.allowed
    assert decision.forbid_ids == ("f-embargo",)
    assert (
        "custom predicate 'embargoed' is unknown (known: none); the forbid applies"
        in (decision.reasons[1])
    )
    assert decide(
        authority_map, _request(Role.AGENT, Action.PRICE), {"embargoed": lambda r: False}
    ).allowed


def test_delegation_limit_sentence_points_to_the_delegating_role() -> None:
    limit = DelegationLimit(delegated_from=Role.FINANCE, attribute="discount_pct", max=Decimal(5))
    grant = Grant(id="g-d", role=Role.AGENT, actions=[Action.APPROVE], conditions=[limit])
    authority_map = AuthorityMap(name="m", version="1", grants=[grant])
    decision = decide(authority_map, _request(Role.AGENT, Action.APPROVE, discount_pct=6))
    assert decision.unmet[0].sentence == (
        "g-d: delegated from finance only for discount_pct <= 5; actual discount_pct=6; "
        'request it with request_action(to="finance", ...)'
    )


def test_every_unmet_condition_of_every_candidate_grant_is_listed() -> None:
    grants = [
        Grant(
            id="g-b",
            role=Role.AGENT,
            actions=[Action.SUBMIT],
            conditions=[
                Threshold(attribute="margin_pct", op=">=", value=Decimal(20)),
                Threshold(attribute="amount", op="<", value=Decimal(1000)),
            ],
        ),
        Grant(
            id="g-a",
            role=Role.AGENT,
            actions=[Action.SUBMIT],
            conditions=[StateIn(states=["priced"])],
        ),
    ]
    authority_map = AuthorityMap(name="m", version="1", grants=grants)
    request = _request(Role.AGENT, Action.SUBMIT, state="draft", margin_pct=10, amount=5000)
    decision = decide(authority_map, request)
    assert [(u.grant_id, u.kind) for u in decision.unmet] == [
        ("g-a", "state"),
        ("g-b", "threshold"),
        ("g-b", "threshold"),
    ]
    assert "actual margin_pct=10" in decision.unmet[1].sentence
    assert "needs amount < 1000; actual amount=5000" in decision.unmet[2].sentence
