"""Conditions on grants and forbids: a closed, serialisable set, plus named custom predicates.

Every condition is a pydantic model discriminated by ``kind``, so maps load from and dump
to YAML/JSON unchanged. A condition is evaluated against a :class:`Request` in one of two
positions:

* on a **grant** it must *be met* for the grant to allow the request;
* on a **forbid** it must *hold* for the forbid to apply (a forbid applies when all its
  conditions hold).

For every kind but one, "met" and "holds" are the same test. The exception is
:class:`SeparationOfDuties`, which names the rule rather than the test: on a grant it is
met when the actor *differs* from whoever performed ``prior_action`` on the same record;
on a forbid it holds when the actor *is the same* (the violation the forbid catches).

Missing facts fail closed: a threshold on an attribute that the request does not give is
unmet on a grant and does not hold on a forbid. An unknown custom predicate fails closed
in both positions: it is unmet on a grant and *holds* on a forbid (the forbid applies).
Exceptions raised by a custom predicate propagate: they are bugs in the caller's code.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from remit.authority.request import ContextAttribute, EvidenceKindName, Request
from remit.authority.roles import Action, Role

__all__ = [
    "ComparisonOp",
    "Condition",
    "ConditionKind",
    "Custom",
    "DelegationLimit",
    "EvidenceRequired",
    "Predicate",
    "SeparationOfDuties",
    "StateIn",
    "Threshold",
]

ComparisonOp = Literal["<=", "<", ">=", ">", "=="]
"""Comparison operators of a threshold."""

ConditionKind = Literal[
    "threshold", "evidence_required", "separation_of_duties", "state", "delegation_limit", "custom"
]
"""The closed set of condition kinds."""

Predicate = Callable[[Request], bool]
"""A named custom predicate, passed explicitly to ``decide(predicates=...)``."""

_OPS: Mapping[str, Callable[[Decimal, Decimal], bool]] = MappingProxyType(
    {
        "<=": operator.le,
        "<": operator.lt,
        ">=": operator.ge,
        ">": operator.gt,
        "==": operator.eq,
    }
)


def _num(value: Decimal) -> str:
    """Render a Decimal without exponent noise (``5``, ``4.5``)."""
    return format(value, "f")


class _Base(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """Whether the condition is met (on a grant) or holds (on a forbid)."""
        raise NotImplementedError

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """One sentence saying why the condition held (``held``) or did not."""
        raise NotImplementedError

    def describe(self) -> str:
        """The condition as a rule, independent of any request, for briefings:
        ``only when discount_pct <= 5``, ``citing a released datasheet``..."""
        raise NotImplementedError


class Threshold(_Base):
    """A numeric request-context attribute compared with a limit.

    Example: ``Threshold(attribute="discount_pct", op="<=", value=Decimal(5))`` is met by a
    request whose ``context.discount_pct`` is 5 or less, and unmet when it is not given.
    """

    kind: Literal["threshold"] = "threshold"
    attribute: ContextAttribute
    op: ComparisonOp
    value: Decimal

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """True when the attribute is given and compares as stated."""
        actual: Decimal | None = getattr(request.context, self.attribute)
        return actual is not None and _OPS[self.op](actual, self.value)

    def describe(self) -> str:
        """E.g. ``only when discount_pct <= 5``."""
        return f"only when {self.attribute} {self.op} {_num(self.value)}"

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """State the attribute, the limit and the actual value."""
        rule = f"{self.attribute} {self.op} {_num(self.value)}"
        actual: Decimal | None = getattr(request.context, self.attribute)
        if actual is None:
            return (
                f"needs {rule} but the request gives no {self.attribute}; "
                f"pass {self.attribute} in the request context"
            )
        if held:
            return f"{self.attribute}={_num(actual)} satisfies {rule}"
        return f"needs {rule}; actual {self.attribute}={_num(actual)}"


class EvidenceRequired(_Base):
    """The request must cite evidence of every listed kind (released, if ``released_only``).

    Example: a technical owner confirming fit must cite a released datasheet:
    ``EvidenceRequired(kinds=["datasheet"], released_only=True)``.
    """

    kind: Literal["evidence_required"] = "evidence_required"
    kinds: tuple[EvidenceKindName, ...] = Field(min_length=1)
    released_only: bool = True

    def _missing(self, request: Request) -> list[str]:
        cited = request.context.evidence
        return [
            k
            for k in self.kinds
            if not any(e.kind == k and (e.released or not self.released_only) for e in cited)
        ]

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """True when each listed kind is cited (and released, if required)."""
        return not self._missing(request)

    def describe(self) -> str:
        """E.g. ``citing a released datasheet``."""
        quality = "released " if self.released_only else ""
        return f"citing {' and '.join(f'a {quality}{k}' for k in self.kinds)}"

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """Name the missing kinds and the evidence actually cited."""
        quality = "released " if self.released_only else ""
        cited = ", ".join(e.label() for e in request.context.evidence) or "none"
        if held:
            return f"cites {quality}{', '.join(self.kinds)} ({cited})"
        missing = ", ".join(self._missing(request))
        return f"needs cited {quality}evidence of kind {missing}; cited: {cited}; cite it"


class SeparationOfDuties(_Base):
    """The actor must differ from whoever performed ``prior_action`` on the same record.

    On a grant the condition is met when the actors differ (or nobody has performed
    ``prior_action`` yet); on a forbid it holds when they are the same actor, so the
    forbid ``f-sod-approve-own-submission`` reads "forbid approving your own submission".
    """

    kind: Literal["separation_of_duties"] = "separation_of_duties"
    prior_action: Action

    def _same_actor(self, request: Request) -> bool:
        return request.context.prior_actors.get(self.prior_action) == request.actor_id

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """Grant: actors differ. Forbid: same actor."""
        return self._same_actor(request) == in_forbid

    def describe(self) -> str:
        """E.g. ``not by the actor who performed submit``."""
        return f"not by the actor who performed {self.prior_action} on the quote"

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """Say who performed the prior action."""
        where = request.resource.label()
        if self._same_actor(request):
            return (
                f"actor_id={request.actor_id!r} also performed {self.prior_action} on {where}; "
                f"another actor must {request.action} it"
            )
        prior = request.context.prior_actors.get(self.prior_action)
        if prior is None:
            return f"nobody has performed {self.prior_action} on {where} yet"
        return (
            f"actor_id={request.actor_id!r} differs from {prior!r} "
            f"who performed {self.prior_action}"
        )


class StateIn(_Base):
    """The record must be in one of the named states.

    Example: ``StateIn(states=["approved", "presented"])``. A request without a state
    fails closed.
    """

    kind: Literal["state"] = "state"
    states: tuple[str, ...] = Field(min_length=1)

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """True when the resource's state is listed."""
        return request.resource.state in self.states

    def describe(self) -> str:
        """E.g. ``only in state approved or presented``."""
        return f"only in state {' or '.join(self.states)}"

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """Name the states and the actual one."""
        where = request.resource.label()
        if held:
            return f"{where} is in state={request.resource.state!r}"
        return (
            f"needs {where} in state {' or '.join(self.states)}; "
            f"actual state={request.resource.state!r}"
        )


class DelegationLimit(_Base):
    """A bounded delegation of another role's authority.

    Example: finance delegates approval of discounts up to 5 % to the agent with
    ``DelegationLimit(delegated_from=Role.FINANCE, attribute="discount_pct", max=5)``; the
    grant is met when ``discount_pct`` is given and at most 5. Beyond the bound the
    request must go to ``delegated_from``.

    A delegation bounds the direction in which its attribute grows riskier: ``max`` for
    discount, amount and quantity, ``min`` for margin (``min=20``: the delegate may
    approve margins of at least 20 %). One of the two must be given; both give a range.
    """

    kind: Literal["delegation_limit"] = "delegation_limit"
    delegated_from: Role
    attribute: ContextAttribute
    max: Decimal | None = Field(default=None, exclude_if=lambda v: v is None)
    min: Decimal | None = Field(default=None, exclude_if=lambda v: v is None)

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        if self.max is None and self.min is None:
            raise ValueError(f"a delegation_limit on {self.attribute} needs a bound: give max "
                             "(at most) or min (at least)")
        return self

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """True when the attribute is given and within the bounds."""
        actual: Decimal | None = getattr(request.context, self.attribute)
        return (actual is not None and (self.max is None or actual <= self.max)
                and (self.min is None or actual >= self.min))

    def rule(self) -> str:
        """The bound in words, e.g. ``discount_pct <= 5`` or ``margin_pct >= 20``."""
        if self.min is not None and self.max is not None:
            return f"{_num(self.min)} <= {self.attribute} <= {_num(self.max)}"
        if self.max is not None:
            return f"{self.attribute} <= {_num(self.max)}"
        assert self.min is not None
        return f"{self.attribute} >= {_num(self.min)}"

    def describe(self) -> str:
        """The condition as a briefing states it."""
        return (f"only when {self.rule()} (delegated by {self.delegated_from}; otherwise "
                f"request it from {self.delegated_from})")

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """State the delegating role, the bound and the actual value."""
        rule = self.rule()
        actual: Decimal | None = getattr(request.context, self.attribute)
        shown = "not given" if actual is None else f"{self.attribute}={_num(actual)}"
        if held:
            return f"{shown} is within the delegation from {self.delegated_from} ({rule})"
        return (
            f"delegated from {self.delegated_from} only for {rule}; actual {shown}; "
            f'request it with request_action(to="{self.delegated_from}", ...)'
        )


class Custom(_Base):
    """A named predicate, resolved through the ``predicates`` mapping given to ``decide()``.

    There is no global registry: the caller passes the predicates it knows. An unknown
    name fails closed (unmet on a grant, applying on a forbid) with a sentence.
    """

    kind: Literal["custom"] = "custom"
    name: str = Field(min_length=1)

    def holds(self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool) -> bool:
        """Call the named predicate; an unknown name fails closed."""
        predicate = predicates.get(self.name)
        if predicate is None:
            return in_forbid
        return bool(predicate(request))

    def describe(self) -> str:
        """E.g. ``only when the custom check 'key_account' holds``."""
        return f"only when the custom check {self.name!r} holds"

    def explain(
        self, request: Request, predicates: Mapping[str, Predicate], in_forbid: bool, held: bool
    ) -> str:
        """Say whether the predicate was unknown, true or false."""
        if self.name not in predicates:
            known = ", ".join(sorted(predicates)) or "none"
            outcome = "the forbid applies" if in_forbid else "treated as unmet"
            return (
                f"custom predicate {self.name!r} is unknown (known: {known}); {outcome} "
                f"(fail closed); pass it to decide(predicates={{{self.name!r}: ...}})"
            )
        return f"custom predicate {self.name!r} is {'true' if held else 'false'} for this request"


Condition = Annotated[
    Threshold | EvidenceRequired | SeparationOfDuties | StateIn | DelegationLimit | Custom,
    Field(discriminator="kind"),
]
"""One condition of a grant or forbid, discriminated on ``kind``."""
