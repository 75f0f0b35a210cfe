"""Control modes: named, fingerprinted transforms of one authority map.

A :class:`ControlMode` is the map in force for a trial plus two briefing flags. The
built-in modes follow tau2-bench:

* ``dual_control`` -- the map as written; the agent must hand actions off to their owners.
* ``all_tools`` -- the No-User analogue: the agent holds a copy of every role's grants
  and reads every role's observations; separation-of-duties forbids are lifted, because
  a single actor doing everything would otherwise be blocked by them.
* ``oracle_plan`` -- authority as in ``dual_control``; the agent's briefing includes the
  reference plan.

:func:`delegate` builds custom modes, e.g. finance delegating approval of discounts up
to 5 % to the agent. Each mode's :attr:`ControlMode.fingerprint` hashes its name, its
flags and its map's hash, so runs record exactly which authority they ran under.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from remit.authority.conditions import DelegationLimit, SeparationOfDuties
from remit.authority.policy import AuthorityMap, Forbid, Grant, map_hash
from remit.authority.request import ContextAttribute
from remit.authority.roles import Action, Role
from remit.authority.valve_map import default_map
from remit.errors import AuthorityError

__all__ = [
    "BUILTIN_MODE_NAMES",
    "BuiltinModeName",
    "ControlMode",
    "ModeError",
    "UnknownModeError",
    "all_tools",
    "builtin_modes",
    "delegate",
    "dual_control",
    "mode_by_name",
    "oracle_plan",
]

BuiltinModeName = Literal["dual_control", "all_tools", "oracle_plan"]
"""The names of the built-in control modes."""

BUILTIN_MODE_NAMES: tuple[BuiltinModeName, ...] = ("dual_control", "all_tools", "oracle_plan")
"""The built-in mode names, in presentation order."""


class ModeError(AuthorityError, ValueError):
    """A control mode that cannot be built (reserved name, nothing to delegate...).

    Attributes:
        name: the mode name concerned.
    """

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        super().__init__(message)


class UnknownModeError(ModeError):
    """A mode name that is not a built-in mode.

    Attributes:
        name: the name asked for.
        valid: the built-in mode names.
    """

    def __init__(self, name: str) -> None:
        self.valid: tuple[str, ...] = BUILTIN_MODE_NAMES
        super().__init__(
            name,
            f"unknown control mode name={name!r}; valid modes: {', '.join(self.valid)}; "
            "for a custom mode give a mode file (.yaml or .json) or build one with "
            "delegate(...)",
        )


class ControlMode(BaseModel):
    """A named authority setting for a trial.

    Attributes:
        name: ``dual_control``, ``all_tools``, ``oracle_plan`` or a custom name.
        map: the authority map in force.
        agent_reads_all: the agent observes every role's observations.
        plan_in_briefing: the agent's briefing includes the reference plan.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    map: AuthorityMap
    agent_reads_all: bool = False
    plan_in_briefing: bool = False

    @property
    def fingerprint(self) -> str:
        """SHA-256 hex over the name, the two flags and the map hash."""
        payload = {
            "name": self.name,
            "agent_reads_all": self.agent_reads_all,
            "plan_in_briefing": self.plan_in_briefing,
            "map_hash": map_hash(self.map),
        }
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def _is_sod(forbid: Forbid) -> bool:
    return any(isinstance(c, SeparationOfDuties) for c in forbid.conditions)


def _with(authority_map: AuthorityMap, grants: list[Grant], forbids: list[Forbid]) -> AuthorityMap:
    return AuthorityMap(
        name=authority_map.name,
        version=authority_map.version,
        grants=tuple(grants),
        forbids=tuple(forbids),
    )


def dual_control(authority_map: AuthorityMap) -> ControlMode:
    """The map as written: each party holds its own grants."""
    return ControlMode(name="dual_control", map=authority_map)


def all_tools(authority_map: AuthorityMap) -> ControlMode:
    """The agent holds a copy of every role's grants and reads every role's observations.

    Each grant of another role is copied to the agent with the id suffixed ``@agent``
    (``g-finance-approve@agent``), keeping its conditions. Forbids with a
    separation-of-duties condition are removed (a single actor doing everything would
    be blocked by them). Every other forbid that covers some other role is extended to
    cover the agent too, since the agent now acts with that role's grants.
    """
    copies = [
        Grant(
            id=f"{g.id}@agent",
            role=Role.AGENT,
            actions=g.actions,
            conditions=g.conditions,
            description=f"all_tools copy of {g.id} ({g.role})",
        )
        for g in authority_map.grants
        if g.role is not Role.AGENT
    ]
    forbids = []
    for forbid in authority_map.forbids:
        if _is_sod(forbid):
            continue
        if Role.AGENT not in forbid.roles and any(r is not Role.SYSTEM for r in forbid.roles):
            forbids.append(forbid.model_copy(update={"roles": (*forbid.roles, Role.AGENT)}))
        else:
            forbids.append(forbid)
    return ControlMode(
        name="all_tools",
        map=_with(authority_map, [*authority_map.grants, *copies], forbids),
        agent_reads_all=True,
    )


def oracle_plan(authority_map: AuthorityMap) -> ControlMode:
    """Authority as in dual-control; the agent's briefing includes the reference plan."""
    return ControlMode(name="oracle_plan", map=authority_map, plan_in_briefing=True)


def delegate(
    map_or_mode: AuthorityMap | ControlMode,
    action: Action,
    *,
    to: Role,
    from_role: Role,
    attribute: ContextAttribute,
    limit: Decimal | None = None,
    at_least: Decimal | None = None,
    name: str,
    lift_separation: bool = True,
) -> ControlMode:
    """A custom mode in which ``from_role`` delegates ``action`` to ``to`` within a bound.

    Every grant of ``action`` held by ``from_role`` is copied to ``to`` (id suffixed
    ``@<to>-delegated``) with its conditions plus a :class:`DelegationLimit` on
    ``attribute <= limit`` (or ``attribute >= at_least``, for margins). Beyond the bound,
    ``to`` is denied with a sentence naming ``from_role``.

    A bounded delegation replaces separation of duties for that action: the delegate
    usually performed the prior step itself (the agent submitted the quote it now
    approves). So by default ``to`` is taken out of the separation-of-duties forbids on
    ``action`` (other roles stay covered, other actions stay covered for ``to``). Pass
    ``lift_separation=False`` to keep them.

    Args:
        map_or_mode: a map (taken as dual-control) or a mode whose flags are kept.
        action: the action delegated, e.g. ``Action.APPROVE``.
        to: the role receiving the authority, e.g. ``Role.AGENT``.
        from_role: the role delegating it; it must hold a grant for ``action``.
        attribute: the request-context attribute bounded, e.g. ``"discount_pct"``.
        limit: the inclusive maximum of ``attribute``.
        at_least: the inclusive minimum of ``attribute`` (e.g. a margin floor); give
            ``limit``, ``at_least`` or both.
        name: the custom mode's name (not a built-in name).
        lift_separation: take ``to`` out of the SoD forbids on ``action``.

    Raises:
        ModeError: ``name`` is a built-in name, ``from_role`` holds no grant for ``action``,
            or neither bound is given.

    Example:
        >>> mode = delegate(default_map(), Action.APPROVE, to=Role.AGENT,
        ...                 from_role=Role.FINANCE, attribute="discount_pct",
        ...                 limit=Decimal(5), name="agent_approves_5pct")
    """
    if name in BUILTIN_MODE_NAMES:
        raise ModeError(
            name, f"name={name!r} is a built-in mode name; give the custom mode another name"
        )
    if limit is None and at_least is None:
        raise ModeError(name, f"the delegation of {action} on {attribute} in mode {name!r} "
                              "has no bound; give limit (at most) or at_least")
    base = map_or_mode if isinstance(map_or_mode, ControlMode) else dual_control(map_or_mode)
    source = base.map
    sources = [g for g in source.grants if g.role is from_role and action in g.actions]
    if not sources:
        holders = sorted({g.role.value for g in source.grants if action in g.actions})
        raise ModeError(
            name,
            f"cannot delegate {action} from {from_role} to {to} in mode {name!r}: "
            f"{from_role} holds no grant for {action}; holders: {', '.join(holders) or 'none'}; "
            "delegate from a holder",
        )
    limit_condition = DelegationLimit(delegated_from=from_role, attribute=attribute, max=limit,
                                      min=at_least)
    delegated = [
        Grant(
            id=f"{g.id}@{to.value}-delegated",
            role=to,
            actions=(action,),
            conditions=(*g.conditions, limit_condition),
            description=f"{from_role} delegates {action} to {to} for {limit_condition.rule()}",
        )
        for g in sources
    ]
    forbids: list[Forbid] = []
    for forbid in source.forbids:
        covers = to in forbid.roles and action in forbid.actions
        if not (lift_separation and covers and _is_sod(forbid)):
            forbids.append(forbid)
            continue
        others = tuple(r for r in forbid.roles if r is not to)
        if others:
            forbids.append(forbid.model_copy(update={"roles": others}))
        rest = tuple(a for a in forbid.actions if a is not action)
        if rest:
            forbids.append(
                forbid.model_copy(
                    update={"id": f"{forbid.id}@{to.value}", "roles": (to,), "actions": rest}
                )
            )
    return ControlMode(
        name=name,
        map=_with(source, [*source.grants, *delegated], forbids),
        agent_reads_all=base.agent_reads_all,
        plan_in_briefing=base.plan_in_briefing,
    )


def builtin_modes(map: AuthorityMap | None = None) -> dict[str, ControlMode]:
    """The three built-in modes of ``map`` (default: :func:`default_map`), by name."""
    source = default_map() if map is None else map
    return {
        "dual_control": dual_control(source),
        "all_tools": all_tools(source),
        "oracle_plan": oracle_plan(source),
    }


def mode_by_name(name: str, map: AuthorityMap | None = None) -> ControlMode:
    """The built-in mode called ``name`` of ``map`` (default: :func:`default_map`).

    Raises:
        UnknownModeError: ``name`` is not a built-in mode; the error lists the valid names.
    """
    if name not in BUILTIN_MODE_NAMES:
        raise UnknownModeError(name)
    return builtin_modes(map)[name]
