"""Hypothesis strategies for authority maps and requests.

The pools are small on purpose (three roles, four actions, three actors, a few states, integer
thresholds from 0 to 10) so that random requests often hit random grants and forbids,
and every condition kind is exercised both met and unmet.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from remit.authority import (
    Action,
    AuthorityMap,
    CitedEvidence,
    Condition,
    Custom,
    DelegationLimit,
    EvidenceRequired,
    Forbid,
    Grant,
    Request,
    RequestContext,
    Resource,
    Role,
    SeparationOfDuties,
    StateIn,
    Threshold,
)
from remit.authority.conditions import Predicate

ACTIONS = (Action.SUBMIT, Action.APPROVE, Action.INVOICE, Action.RELEASE_PAYMENT)
ACTORS = ("u-1", "u-2", "u-3")
STATES = ("draft", "priced", "approval_pending", "invoiced")
ATTRIBUTES = ("discount_pct", "margin_pct", "amount", "quantity")
PREDICATES: Mapping[str, Predicate] = MappingProxyType(
    {
        "always": lambda request: True,
        "never": lambda request: False,
        "big_discount": lambda request: (request.context.discount_pct or Decimal(0)) > 5,
    }
)
"""Predicates passed to decide(); ``missing`` is named by maps but never passed."""
PREDICATE_NAMES = ("always", "never", "big_discount", "missing")

SETTINGS = settings(
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Deterministic settings shared by the property tests of this package."""

numbers = st.integers(min_value=0, max_value=10).map(Decimal)
actions = st.sampled_from(ACTIONS)
roles = st.sampled_from([Role.AGENT, Role.BUYER, Role.FINANCE])
all_roles = st.sampled_from(list(Role))

conditions: st.SearchStrategy[Condition] = st.one_of(
    st.builds(
        Threshold,
        attribute=st.sampled_from(ATTRIBUTES),
        op=st.sampled_from(["<=", "<", ">=", ">", "=="]),
        value=numbers,
    ),
    st.builds(
        EvidenceRequired,
        kinds=st.lists(st.sampled_from(["datasheet", "certificate"]), min_size=1, max_size=2),
        released_only=st.booleans(),
    ),
    st.builds(SeparationOfDuties, prior_action=actions),
    st.builds(StateIn, states=st.lists(st.sampled_from(STATES), min_size=1, max_size=3)),
    st.builds(
        DelegationLimit,
        delegated_from=all_roles,
        attribute=st.sampled_from(ATTRIBUTES),
        max=numbers,
    ),
    st.builds(Custom, name=st.sampled_from(PREDICATE_NAMES)),
)


@st.composite
def grants(draw: st.DrawFn, grant_id: str) -> Grant:
    """A grant with the given id."""
    return Grant(
        id=grant_id,
        role=draw(roles),
        actions=draw(st.lists(actions, min_size=1, max_size=2)),
        conditions=draw(st.lists(conditions, max_size=2)),
    )


@st.composite
def forbids(draw: st.DrawFn, forbid_id: str) -> Forbid:
    """A forbid with the given id (no conditions a quarter of the time or so)."""
    return Forbid(
        id=forbid_id,
        roles=draw(st.lists(roles, min_size=1, max_size=3)),
        actions=draw(st.lists(actions, min_size=1, max_size=2)),
        conditions=draw(st.lists(conditions, max_size=2)),
        reason=f"{forbid_id} reason",
    )


@st.composite
def maps(draw: st.DrawFn, max_grants: int = 8, max_forbids: int = 4) -> AuthorityMap:
    """A random valid map; ids ``g-<n>`` and ``f-<n>`` in a random order."""
    n_grants = draw(st.integers(0, max_grants))
    n_forbids = draw(st.integers(0, max_forbids))
    grant_ids = draw(st.permutations([f"g-{i}" for i in range(n_grants)]))
    forbid_ids = draw(st.permutations([f"f-{i}" for i in range(n_forbids)]))
    return AuthorityMap(
        name="random",
        version="1",
        grants=tuple(draw(grants(i)) for i in grant_ids),
        forbids=tuple(draw(forbids(i)) for i in forbid_ids),
    )


evidence = st.builds(
    CitedEvidence,
    id=st.sampled_from(["DS-1", "DS-2", "CERT-1"]),
    kind=st.sampled_from(["datasheet", "certificate"]),
    released=st.booleans(),
)

contexts = st.builds(
    RequestContext,
    discount_pct=st.none() | numbers,
    margin_pct=st.none() | numbers,
    amount=st.none() | numbers,
    quantity=st.none() | numbers,
    evidence=st.lists(evidence, max_size=2).map(tuple),
    prior_actors=st.dictionaries(
        st.sampled_from([*ACTIONS, Action.SUBMIT, Action.INVOICE]),
        st.sampled_from(ACTORS),
        max_size=3,
    ),
)


def requests_for(
    action_pool: st.SearchStrategy[Action], role_pool: st.SearchStrategy[Role]
) -> st.SearchStrategy[Request]:
    """Requests whose action and role are drawn from the given pools."""
    return st.builds(
        Request,
        actor_id=st.sampled_from(ACTORS),
        role=role_pool,
        action=action_pool,
        resource=st.builds(Resource, id=st.just("Q-1"), state=st.none() | st.sampled_from(STATES)),
        context=contexts,
    )


requests = requests_for(actions, roles)
"""Requests over the small action pool that random maps use."""

any_requests = requests_for(st.sampled_from(list(Action)), all_roles)
"""Requests over every action (for the default map and its modes)."""
