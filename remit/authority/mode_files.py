"""Custom control modes written as data: a name, a built-in base, delegations.

A mode file lets a user run a custom mode from the command line (``remit run --modes
dual_control,agent-5pct.yaml``) and from ``pytest --remit-modes`` without writing Python.
It says which built-in mode it starts from, optionally on which authority map (the
valve fixture's default map otherwise), and which actions are delegated, each applied
in order with :func:`~remit.authority.modes.delegate`::

    name: agent-approves-5pct
    base: dual_control
    delegations:
      - action: approve
        from: finance
        to: agent
        attribute: discount_pct
        limit: 5

Example:
    >>> spec = load_mode_spec(text, format="yaml", source="agent-5pct.yaml")  # doctest: +SKIP
    >>> spec.build().name                                                       # doctest: +SKIP
    'agent-approves-5pct'
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field

from remit.authority.analysis import run_problems
from remit.authority.loading import MapFormat, parse_document
from remit.authority.modes import (
    BUILTIN_MODE_NAMES,
    BuiltinModeName,
    ControlMode,
    ModeError,
    builtin_modes,
    delegate,
)
from remit.authority.policy import AuthorityMap
from remit.authority.request import ContextAttribute
from remit.authority.roles import Action, Role

__all__ = ["Delegation", "ModeSpec", "load_mode_spec"]

_FLOORED = frozenset({"margin_pct"})
"""Attributes that grow riskier as they fall: a delegation bounds them from below."""


class Delegation(BaseModel):
    """One delegation of a mode file (see :func:`~remit.authority.modes.delegate`).

    Attributes:
        action: the action delegated.
        from_role: the role delegating it (``from`` in the file); it must hold a grant.
        to: the role receiving it.
        attribute: the request-context attribute bounded.
        limit: the inclusive maximum of ``attribute`` (discount, amount, quantity).
        at_least: the inclusive minimum of ``attribute`` (margin).
        lift_separation: take ``to`` out of the separation-of-duties forbids on ``action``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    action: Action
    from_role: Role = Field(alias="from")
    to: Role
    attribute: ContextAttribute
    limit: Decimal | None = None
    at_least: Decimal | None = None
    lift_separation: bool = True

    def problem(self) -> str | None:
        """Why this delegation cannot work as written (``None``: it can).

        A delegation must bound the direction in which its attribute grows riskier: a
        larger discount, amount or quantity, or a smaller margin. A bound the other way
        would hand the delegate exactly the cases the delegating role keeps.
        """
        where = f"delegation of {self.action.value} on {self.attribute}"
        if self.limit is None and self.at_least is None:
            hint = "at_least" if self.attribute in _FLOORED else "limit"
            return f"{where} has no bound; give {hint}: N"
        if self.attribute in _FLOORED and self.limit is not None:
            return (f"{where} gives limit (at most {self.limit}), which would delegate the "
                    f"thinnest margins; bound a margin from below with at_least: N")
        if self.attribute not in _FLOORED and self.at_least is not None:
            return (f"{where} gives at_least ({self.at_least}), which would delegate the "
                    f"largest values; bound {self.attribute} from above with limit: N")
        return None


class ModeSpec(BaseModel):
    """A custom control mode as data.

    Attributes:
        name: the mode's name (not a built-in name); it names the mode's test ids and
            report columns.
        base: the built-in mode it starts from (its authority and flags).
        map: the authority map the base applies to; the valve fixture's default map when
            not given.
        delegations: applied in order; none gives the base mode of ``map`` renamed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    base: BuiltinModeName = "dual_control"
    map: AuthorityMap | None = None
    delegations: tuple[Delegation, ...] = ()

    def build(self) -> ControlMode:
        """The control mode this spec describes.

        Raises:
            ModeError: the name is a built-in name, a delegation's ``from`` role holds no
                grant for its action, a delegation is bounded the wrong way, or the map
                has a condition the trial's gate cannot evaluate (see
                :func:`~remit.authority.analysis.run_problems`).
        """
        if self.name in BUILTIN_MODE_NAMES:
            raise ModeError(self.name, f"name={self.name!r} is a built-in mode name; give "
                                       "the custom mode another name")
        problems = [p for step in self.delegations if (p := step.problem()) is not None]
        if problems:
            raise ModeError(self.name, "; ".join(problems))
        mode = builtin_modes(self.map)[self.base].model_copy(update={"name": self.name})
        for step in self.delegations:
            mode = delegate(mode, step.action, to=step.to, from_role=step.from_role,
                            attribute=step.attribute, limit=step.limit,
                            at_least=step.at_least, name=self.name,
                            lift_separation=step.lift_separation)
        problems = run_problems(mode)
        if problems:
            raise ModeError(self.name, "; ".join(problems))
        return mode


def load_mode_spec(text: str, *, format: MapFormat, source: str = "mode file") -> ModeSpec:
    """Parse a mode file's text.

    Args:
        text: the document.
        format: ``"yaml"`` or ``"json"``.
        source: where the text came from (a file name), quoted in errors.

    Raises:
        MapError: the text does not parse or does not describe a mode; one problem per
            error, each naming the key path and the valid values.
    """
    return parse_document(text, ModeSpec, format=format, source=source)
