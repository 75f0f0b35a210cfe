"""Static analysis of maps and modes: who can do what, what nobody can do, what conflicts.

These functions read a map without any request. They back the golden who-can tables
(one per built-in mode), ``remit authority check`` and the comparison of two modes.

Definitions:

* **who can** perform an action: the roles with at least one grant for it that no
  *unconditional* forbid (a forbid without conditions) blocks. Conditional grants count:
  the role can perform the action when the conditions are met.
* **unreachable**: an action that no role can perform.
* **separation-of-duties conflict**: a forbid with a ``separation_of_duties`` condition
  on action X relative to a prior action Y such that exactly one role R can do Y, R is
  also the only role that can do X, and the forbid covers R. With one actor per role (as
  in a trial), that actor performed Y and so is always forbidden to do X.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from remit.authority.conditions import (
    Condition,
    Custom,
    DelegationLimit,
    SeparationOfDuties,
    StateIn,
    Threshold,
)
from remit.authority.modes import ControlMode
from remit.authority.policy import AuthorityMap
from remit.authority.roles import Action, Role

__all__ = [
    "ModeDiff",
    "SodConflict",
    "check_map",
    "diff_modes",
    "run_problems",
    "sod_conflicts",
    "unreachable",
    "who_can",
    "who_can_table",
]


def _roles(roles: Iterable[Role]) -> str:
    ordered = [r.value for r in Role if r in set(roles)]
    return ", ".join(ordered) or "nobody"


def _map_of(mode_or_map: ControlMode | AuthorityMap) -> AuthorityMap:
    return mode_or_map.map if isinstance(mode_or_map, ControlMode) else mode_or_map


def who_can(mode_or_map: ControlMode | AuthorityMap, action: Action) -> frozenset[Role]:
    """The roles that hold a grant for ``action`` not blocked by an unconditional forbid."""
    index = _map_of(mode_or_map).index
    return frozenset(
        role
        for role, _ in index.holders.get(action, ())
        if not any(not f.conditions for f in index.forbids_for.get((role, action), ()))
    )


def who_can_table(
    modes: Iterable[ControlMode] | Mapping[str, ControlMode],
) -> dict[Action, dict[str, frozenset[Role]]]:
    """For every action, the roles that can perform it in each mode (keyed by mode name)."""
    listed = list(modes.values()) if isinstance(modes, Mapping) else list(modes)
    return {action: {mode.name: who_can(mode, action) for mode in listed} for action in Action}


def unreachable(mode_or_map: ControlMode | AuthorityMap) -> frozenset[Action]:
    """The actions that no role can perform."""
    return frozenset(a for a in Action if not who_can(mode_or_map, a))


class SodConflict(BaseModel):
    """A separation-of-duties forbid that blocks the only possible actor.

    Attributes:
        forbid_id: the forbid.
        action: the forbidden action (X).
        prior_action: the action whose performer may not do X (Y).
        role: the single role that alone can do both.
        sentence: the conflict and what to change.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    forbid_id: str
    action: Action
    prior_action: Action
    role: Role
    sentence: str


def sod_conflicts(mode_or_map: ControlMode | AuthorityMap) -> list[SodConflict]:
    """The separation-of-duties forbids that a single actor per role can never satisfy.

    See the module docstring for the definition. Sorted by forbid id, then action order.
    """
    authority_map = _map_of(mode_or_map)
    found: list[SodConflict] = []
    for forbid in sorted(authority_map.forbids, key=lambda f: f.id):
        for condition in forbid.conditions:
            if not isinstance(condition, SeparationOfDuties):
                continue
            prior = condition.prior_action
            prior_holders = who_can(authority_map, prior)
            for action in Action:
                if action not in forbid.actions:
                    continue
                holders = who_can(authority_map, action)
                if len(prior_holders) != 1 or holders != prior_holders:
                    continue
                (role,) = holders
                if role not in forbid.roles:
                    continue
                sentence = (
                    f"{forbid.id}: only {role} can {prior} and only {role} can {action}, so the "
                    f"{role} who performed {prior} is always forbidden to {action}; grant "
                    f"{action} to another role or take {role} out of {forbid.id}"
                )
                found.append(
                    SodConflict(
                        forbid_id=forbid.id,
                        action=action,
                        prior_action=prior,
                        role=role,
                        sentence=sentence,
                    )
                )
    return found


class ModeDiff(BaseModel):
    """How who-can for one action differs between two modes.

    Attributes:
        action: the action.
        added: roles that can perform it in the second mode but not the first.
        removed: roles that can perform it in the first mode but not the second.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Action
    added: frozenset[Role]
    removed: frozenset[Role]

    @property
    def sentence(self) -> str:
        """E.g. ``approve: +agent``."""
        changes = [f"+{r.value}" for r in Role if r in self.added]
        changes += [f"-{r.value}" for r in Role if r in self.removed]
        return f"{self.action}: {' '.join(changes)}"


def diff_modes(a: ControlMode | AuthorityMap, b: ControlMode | AuthorityMap) -> list[ModeDiff]:
    """Per action (in :class:`Action` order), the roles ``b`` adds and removes relative to ``a``.

    Actions whose who-can sets are equal are left out.
    """
    diffs = []
    for action in Action:
        before, after = who_can(a, action), who_can(b, action)
        if before != after:
            diffs.append(ModeDiff(action=action, added=after - before, removed=before - after))
    return diffs


def check_map(
    mode_or_map: ControlMode | AuthorityMap, *, known_predicates: Collection[str] | None = None
) -> list[str]:
    """Problems of a map, one sentence each, for ``remit authority check`` (exit 1 if any).

    Checks: duplicate ids (possible only for maps built without validation); custom
    predicates not in ``known_predicates`` (skipped when it is ``None``); unreachable
    actions; separation-of-duties conflicts; grants and forbids whose conditions
    contradict each other (empty threshold ranges, several disjoint state lists);
    grants that an unconditional forbid always blocks; delegations from a role that does
    not hold the delegated action.
    """
    authority_map = _map_of(mode_or_map)
    problems: list[str] = []
    counts = Counter([g.id for g in authority_map.grants] + [f.id for f in authority_map.forbids])
    problems += [
        f"id {i!r} is used {n} times; ids must be unique" for i, n in counts.items() if n > 1
    ]
    rules = [(f"grant {g.id}", g.conditions) for g in authority_map.grants]
    rules += [(f"forbid {f.id}", f.conditions) for f in authority_map.forbids]
    for label, conditions in rules:
        if known_predicates is not None:
            known = ", ".join(sorted(known_predicates)) or "none"
            problems += [
                f"{label}: custom predicate {c.name!r} is unknown (known: {known}); "
                "define it or fix the name"
                for c in conditions
                if isinstance(c, Custom) and c.name not in known_predicates
            ]
        problems += [f"{label}: {p}" for p in _contradictions(conditions)]
    problems += [
        f"no role can perform {action}; add a grant for it"
        for action in Action
        if action in unreachable(authority_map)
    ]
    problems += [c.sentence for c in sod_conflicts(authority_map)]
    index = authority_map.index
    for grant in authority_map.grants:
        for action in grant.actions:
            candidates = index.forbids_for.get((grant.role, action), ())
            blocking = [f.id for f in candidates if not f.conditions]
            if blocking:
                problems.append(
                    f"grant {grant.id}: {grant.role} can never {action}: "
                    f"forbid {', '.join(blocking)} always applies; remove one of them"
                )
            problems += [
                f"grant {grant.id}: delegates {action} from {c.delegated_from}, which holds no "
                f"grant for {action} (holders: {_roles(who_can(authority_map, action))})"
                for c in grant.conditions
                if isinstance(c, DelegationLimit)
                and not index.grants_for.get((c.delegated_from, action))
            ]
    return problems


def run_problems(mode_or_map: ControlMode | AuthorityMap) -> list[str]:
    """Conditions a trial's gate cannot evaluate, one sentence each (empty: none).

    In a trial the gate supplies every fact a condition can test: the quote's discount,
    margin, amount and quantity, the cited evidence and its status, the quote's state and
    who performed earlier actions. It knows no custom predicates, so a ``custom``
    condition would fail closed in every trial (its grant never allows, its forbid always
    applies); a mode whose map has one is refused rather than run under a rule that
    silently never holds.
    """
    authority_map = _map_of(mode_or_map)
    rules = [(f"grant {g.id}", g.conditions) for g in authority_map.grants]
    rules += [(f"forbid {f.id}", f.conditions) for f in authority_map.forbids]
    return [
        f"{label}: custom predicate {c.name!r} cannot be evaluated in a trial (the gate "
        "knows no custom predicates, so it would fail closed in every trial); state it with "
        "threshold, delegation_limit, evidence_required, state or separation_of_duties "
        "conditions"
        for label, conditions in rules
        for c in conditions
        if isinstance(c, Custom)
    ]


def _bounds(c: Condition) -> list[tuple[str, Decimal, bool, bool]]:
    """A numeric condition's bounds: (attribute, value, inclusive, is_lower)."""
    bounds: list[tuple[str, Decimal, bool, bool]] = []
    if isinstance(c, Threshold):
        if c.op in {">=", ">", "=="}:
            bounds.append((c.attribute, c.value, c.op != ">", True))
        if c.op in {"<=", "<", "=="}:
            bounds.append((c.attribute, c.value, c.op != "<", False))
    elif isinstance(c, DelegationLimit):
        if c.max is not None:
            bounds.append((c.attribute, c.max, True, False))
        if c.min is not None:
            bounds.append((c.attribute, c.min, True, True))
    return bounds


def _contradictions(conditions: Iterable[Condition]) -> list[str]:
    """Conditions of one rule that no request can satisfy together."""
    lower: dict[str, tuple[Decimal, bool]] = {}  # attribute -> (bound, inclusive)
    upper: dict[str, tuple[Decimal, bool]] = {}
    states: set[str] | None = None
    for c in conditions:
        if isinstance(c, StateIn):
            states = set(c.states) if states is None else states & set(c.states)
        for attribute, value, inclusive, is_lower in _bounds(c):
            side = lower if is_lower else upper
            current = side.get(attribute)
            tighter = current is None or (value > current[0] if is_lower else value < current[0])
            if tighter or (current is not None and value == current[0] and not inclusive):
                side[attribute] = (value, inclusive)
    found = []
    for attribute in sorted(lower.keys() & upper.keys()):
        (low, low_in), (high, high_in) = lower[attribute], upper[attribute]
        if low > high or (low == high and not (low_in and high_in)):
            found.append(
                f"conditions on {attribute} cannot all hold (no value is both "
                f"{'>=' if low_in else '>'} {low} and {'<=' if high_in else '<'} {high})"
            )
    if states is not None and not states:
        found.append("its state conditions have no state in common, so they cannot all hold")
    return found
