"""Records remit builds from values it has just built itself, without validating again.

Validation belongs at the boundary: what an agent or a persona sends, a scenario, a map
or a mode file, a stored trail read back. Inside a trial, remit builds a few hundred
records from values that are valid by construction: a trail entry from the world's own
counters and enum members, a request from the gate's facts, a verdict of a fit rule.
Validating those again cost about a fifth of a trial, and pydantic's
``model_construct`` is no cheaper for small models (it looks up aliases and defaults
field by field).

:func:`trusted` builds such a record as ``model_construct`` would, given every field:
the instance validation would give, for a fraction of the cost. Its contract:

- ``values`` names every field of ``model``, in declaration order (a dict literal);
- each value is what validation would make of it (a tuple for a tuple field, an enum
  member for an enum field, a plain ``str`` for a ``str`` field, a finite ``Decimal``)
  and within the field's constraints; ``values`` becomes the instance's own dict, so it
  is a fresh one;
- ``model`` has no validators, private attributes or ``model_post_init``.

Inside :func:`checking` every trusted build is validated as well and compared, field by
field and type by type; the tests run every built-in agent through the built-in suites
that way, so a caller that breaks the contract fails a test rather than changing a
result.

Example:
    >>> from remit.world import EndEntry
    >>> entry = trusted(EndEntry, {"step": 3, "minute": 9, "kind": "end",
    ...                            "reason": "agent_end", "summary": ""})
    >>> entry == EndEntry(step=3, minute=9, reason="agent_end")
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from pydantic import BaseModel

__all__ = ["TrustedBuildError", "checking", "trusted"]

_M = TypeVar("_M", bound=BaseModel)

_CHECKING: ContextVar[list[str] | None] = ContextVar("remit_trusted_checking", default=None)
"""Inside :func:`checking`: where the builds that broke the contract are described."""


_new = object.__new__  # what BaseModel.__new__ is; the model's frozen __setattr__ is not
_set = object.__setattr__  # in the way: model_construct sets these four the same way


class TrustedBuildError(AssertionError):
    """Raised on leaving :func:`checking`: a :func:`trusted` build broke its contract (a
    defect of the caller, never of the input)."""


_FIELDS_SET: dict[type[BaseModel], set[str]] = {}
"""Per model, the names of its fields: the ``__pydantic_fields_set__`` of every trusted
build (each names every field), shared rather than built each time. Pydantic only adds
to it the name of a field set anew, which it holds already, and copies it for a copy."""


def trusted(model: type[_M], values: dict[str, object]) -> _M:
    """``model(**values)`` for values remit built and knows to be valid, without
    validating them again (see the module docstring for the contract)."""
    instance = _new(model)
    _set(instance, "__dict__", values)
    fields = _FIELDS_SET.get(model)
    if fields is None:
        fields = _FIELDS_SET[model] = set(model.model_fields)
    _set(instance, "__pydantic_fields_set__", fields)
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    problems = _CHECKING.get()
    if problems is not None:
        problem = _problem(model, values, instance)
        if problem is not None:
            problems.append(problem)
    return instance


def _problem(model: type[BaseModel], values: dict[str, object],
             instance: BaseModel) -> str | None:
    """How a trusted build breaks the contract, or ``None``."""
    decorators = model.__pydantic_decorators__
    if (decorators.model_validators or decorators.field_validators
            or model.__private_attributes__ or model.__pydantic_post_init__):
        return (f"{model.__name__} has validators, private attributes or a "
                "model_post_init; build it with validation")
    if list(values) != list(model.model_fields):
        return f"trusted({model.__name__}) got {list(values)}, not {list(model.model_fields)}"
    try:
        validated = model.model_validate(values)
    except ValueError as exc:
        return f"trusted({model.__name__}): validation refuses it: {exc}"
    mismatched = [name for name, value in validated.__dict__.items()
                  if not _same(value, values[name])]
    if mismatched or validated != instance:
        shown = ", ".join(f"{name}={values[name]!r} (validation gives "
                          f"{validated.__dict__[name]!r})" for name in mismatched)
        return f"trusted({model.__name__}): {shown or 'not equal'}"
    return None


def _same(validated: object, given: object) -> bool:
    """Equal, and of the same types all the way down through lists, tuples and dicts."""
    if type(validated) is not type(given) or validated != given:
        return False
    if isinstance(validated, list | tuple):
        assert isinstance(given, list | tuple)
        return all(_same(a, b) for a, b in zip(validated, given, strict=True))
    if isinstance(validated, dict):
        assert isinstance(given, dict)
        return all(type(a) is type(b) for a, b in zip(validated, given, strict=True)) and all(
            _same(validated[key], given[key]) for key in validated)
    return True


@contextmanager
def checking() -> Iterator[list[str]]:
    """Validate every :func:`trusted` build inside as well (for tests: it costs what the
    trusted builds save).

    Yields the list of contract breaches found so far (each one sentence); on leaving,
    raises :class:`TrustedBuildError` naming them if there are any. They are collected
    rather than raised where they happen, so that no code on the way (the world turns
    its own defects into tool errors) can hide one.
    """
    problems: list[str] = []
    token = _CHECKING.set(problems)
    try:
        yield problems
    finally:
        _CHECKING.reset(token)
    if problems:
        raise TrustedBuildError(f"{len(problems)} trusted builds break the contract: "
                                + "; ".join(problems[:5]))
