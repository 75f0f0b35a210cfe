"""What an agent is told about authority: per action, who may do it and on which conditions.

A briefing that says only ``approve: agent, finance`` hides the part that matters: the
agent may approve *only* discounts up to 5 %, and finance the rest. :func:`describe_authority`
reads a control mode's map and lists, for every action, each grant (the role, its
conditions as data, and one sentence) and each forbid that can stop it; :func:`authority_prose`
writes the same as a Markdown section for the briefing's policy text. An agent can also
check a request before making it with :meth:`ActionAuthority.decide`, which applies the
same rules the trial's gate applies.

Example:
    >>> from decimal import Decimal
    >>> mode = delegate(default_map(), Action.APPROVE, to=Role.AGENT,
    ...                 from_role=Role.FINANCE, attribute="discount_pct",
    ...                 limit=Decimal(5), name="agent-approves-5pct")     # doctest: +SKIP
    >>> print(describe_authority(mode)[Action.APPROVE].sentence(Role.AGENT))  # doctest: +SKIP
    approve: finance, never by the actor who performed submit on the quote; you (agent),
    only when discount_pct <= 5 (delegated by finance; otherwise request it from finance)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from remit.authority.conditions import DelegationLimit, Threshold
from remit.authority.decision import Decision, decide
from remit.authority.modes import ControlMode
from remit.authority.policy import AuthorityMap, Forbid, Grant, map_hash
from remit.authority.request import Request, RequestContext, Resource
from remit.authority.roles import Action, Role

__all__ = ["ActionAuthority", "authority_prose", "describe_authority"]


class ActionAuthority(BaseModel):
    """Who may perform one action in a mode, and on which conditions.

    Attributes:
        action: the action.
        grants: the grants of the action (their roles, conditions and descriptions), in
            the map's order.
        forbids: the forbids that can stop it, whatever their roles.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Action
    grants: tuple[Grant, ...] = ()
    forbids: tuple[Forbid, ...] = ()

    @property
    def holders(self) -> tuple[Role, ...]:
        """The roles holding at least one grant of the action, in role order."""
        held = {g.role for g in self.grants}
        return tuple(r for r in Role if r in held)

    def grants_of(self, role: Role) -> tuple[Grant, ...]:
        """The grants by which ``role`` may perform the action (empty: it may not)."""
        return tuple(g for g in self.grants if g.role is role)

    def delegated_from(self, role: Role) -> tuple[Role, ...]:
        """The roles that delegated this action to ``role`` within a bound: whom to ask
        when the bound is exceeded."""
        found = {c.delegated_from for g in self.grants_of(role) for c in g.conditions
                 if isinstance(c, DelegationLimit)}
        return tuple(r for r in Role if r in found)

    def is_conditional(self, role: Role) -> bool:
        """Whether every grant of ``role`` carries a condition (it may not always act)."""
        grants = self.grants_of(role)
        return bool(grants) and all(g.conditions for g in grants)

    def within_bounds(self, role: Role, facts: Mapping[str, Decimal | None]) -> bool | None:
        """Whether some grant of ``role`` has its numeric bounds (thresholds and
        delegation limits) met by ``facts`` (``get_quote``'s ``authority_facts``).

        Other conditions (evidence, states, separation of duties) are not judged here.
        ``None`` when a bound needs a fact that ``facts`` does not give; ``False`` when
        ``role`` holds no grant or every grant's bounds are exceeded.
        """
        unknown = False
        for grant in self.grants_of(role):
            verdicts = [_bound_met(c, facts) for c in grant.conditions
                        if isinstance(c, Threshold | DelegationLimit)]
            if all(v is True for v in verdicts):
                return True
            unknown = unknown or (None in verdicts and False not in verdicts)
        return None if unknown else False

    def decide(self, request: Request) -> Decision:
        """The decision the gate would make on ``request`` for this action (the same
        rules: deny by default, a forbid wins; custom predicates fail closed)."""
        if request.action is not self.action:
            raise ValueError(f"request for {request.action} given to the authority of "
                             f"{self.action}; look up authority[{request.action.value!r}]")
        return decide(self._map, request)

    @functools.cached_property
    def _map(self) -> AuthorityMap:
        return AuthorityMap(name=f"briefing:{self.action.value}", version="1",
                            grants=self.grants, forbids=self.forbids)

    def sentence(self, you: Role | None = None) -> str:
        """One line: the action, then each holder with its conditions; ``you`` marks
        the reader's role (``you (agent)``)."""
        parts: list[str] = []
        for grant in self.grants:
            who = f"you ({grant.role})" if grant.role is you else grant.role.value
            conditions = [c.describe() for c in grant.conditions]
            conditions += [f"never {_forbid_clause(f)}" for f in self.forbids
                           if grant.role in f.roles]
            part = ", ".join([who, *conditions])
            if part not in parts:  # all-tools copies of two roles' grants read alike
                parts.append(part)
        return f"{self.action}: {'; '.join(parts) or 'nobody'}"


def _bound_met(condition: Threshold | DelegationLimit,
               facts: Mapping[str, Decimal | None]) -> bool | None:
    actual = facts.get(condition.attribute)
    if actual is None:
        return None
    request = Request(actor_id="-", role=Role.AGENT, action=Action.APPROVE,
                      resource=Resource(id="-"),
                      context=RequestContext(**{condition.attribute: actual}))
    return condition.holds(request, {}, in_forbid=False)


def _forbid_clause(forbid: Forbid) -> str:
    conditions = [c.describe() for c in forbid.conditions]
    if not conditions:
        return "(forbidden)"
    # A separation-of-duties forbid holds for the same actor: "never by the actor who..."
    return " and ".join(c.removeprefix("not ").removeprefix("only ") for c in conditions)


_DESCRIBED: dict[str, dict[Action, ActionAuthority]] = {}
_DESCRIBED_MAX = 64


def describe_authority(mode: ControlMode | AuthorityMap) -> dict[Action, ActionAuthority]:
    """Every action's authority in ``mode``, in :class:`Action` order.

    Built once per map (by its hash) and shared: every trial's briefing asks for it.
    """
    authority_map = mode.map if isinstance(mode, ControlMode) else mode
    key = map_hash(authority_map)
    described = _DESCRIBED.get(key)
    if described is None:
        described = {
            action: ActionAuthority(
                action=action,
                grants=tuple(g for g in authority_map.grants if action in g.actions),
                forbids=tuple(f for f in authority_map.forbids if action in f.actions),
            )
            for action in Action
        }
        if len(_DESCRIBED) >= _DESCRIBED_MAX:
            _DESCRIBED.clear()
        _DESCRIBED[key] = described
    return dict(described)


def authority_prose(authority: dict[Action, ActionAuthority], *, mode: str,
                    you: Role = Role.AGENT) -> str:
    """The authority of a mode as a Markdown section of the briefing's policy text."""
    lines = [
        f"## Who may do what in this mode (`{mode}`)",
        "Each line names an action, then every role that may perform it with its "
        "conditions. Perform an action yourself only when a line names you and its "
        "conditions hold; otherwise request it from a role that holds it "
        "(`request_action`). A bounded delegation names the role to ask beyond its bound.",
    ]
    lines += [f"- {entry.sentence(you)}" for entry in authority.values()]
    return "\n".join(lines)
