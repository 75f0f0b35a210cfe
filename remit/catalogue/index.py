"""Postings of a catalogue's governed attributes, so a search costs what it finds.

A search over 10,000 SKUs used to test every variant of the family against every
constraint. :class:`AttributeIndex` keeps, for each family and attribute, the variants
that carry it: code attributes by code, numeric attributes by recorded unit, sorted by
their value in the canonical unit (bar, C, Nm). A constraint then names its matches
directly (one code's postings, or a run of sorted values found by bisection, tested with
the very comparison :meth:`Constraint.matches <remit.catalogue.Constraint.matches>`
makes: :func:`~remit.catalogue.search.satisfies`), and the matches of all constraints
are intersected.

The index answers exactly what a scan of every variant answers, in the same order (the
tests compare the two on generated catalogues). Where it could not know that without the
scan, it says so (``None``) and the caller scans:

- an attribute whose variants do not all record it in the same way (all codes, all
  bare numbers, or all numbers in units of one quantity) or that has a value that is
  not finite; the family schema makes this a guard only;
- a constraint in a unit the attribute cannot take (``pn min 120 C``): the scan raises
  :class:`~remit.errors.UnitError` at the first variant it reaches;
- a bound that is not a finite number.

The postings of an attribute are built from the catalogue's immutable records the
first time a search names it, and kept (see :meth:`Catalogue.matching
<remit.catalogue.Catalogue.matching>`).
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from remit.catalogue.attributes import GovernedAttribute
from remit.catalogue.families import Family
from remit.catalogue.products import Variant
from remit.catalogue.search import Constraint, ConstraintOp, as_number, satisfies, tolerance
from remit.catalogue.units import Quantity, Unit, quantity_of, to_canonical

__all__ = ["AttributeIndex"]

_SLACK = 1e-5
"""Relative width of the window an ``eq`` bound looks in: every value ``math.isclose``
(1e-6) accepts lies inside; each one in it is then tested."""


class _Run(NamedTuple):
    """The variants recording a numeric attribute in one unit: canonical values sorted,
    with their positions."""

    values: list[float]
    positions: list[int]


class _Numbers(NamedTuple):
    """One numeric attribute of one family, by recorded unit (``None``: a bare number)."""

    quantity: Quantity | None
    runs: dict[Unit | None, _Run]
    carried: int  # how many variants carry it


class _Codes(NamedTuple):
    """One code attribute of one family: positions by code."""

    postings: dict[str, list[int]]


_Postings = _Numbers | _Codes | None  # None: not indexed, only a scan answers


def _kind(attribute: GovernedAttribute) -> tuple[str, Quantity | None]:
    if isinstance(attribute.value, str):
        return "code", None
    if attribute.unit is None:
        return "number", None
    return "measure", quantity_of(attribute.unit)


def _postings(variants: Sequence[Variant], name: str) -> _Postings:
    """The postings of attribute ``name`` over ``variants`` (positions in that order)."""
    carrying = [(position, variant.attributes[name]) for position, variant
                in enumerate(variants) if name in variant.attributes]
    kinds = {_kind(attribute) for _, attribute in carrying}
    if not kinds:
        return _Codes({})
    if len(kinds) != 1:
        return None
    kind, quantity = kinds.pop()
    if kind == "code":
        codes: dict[str, list[int]] = defaultdict(list)
        for position, attribute in carrying:
            codes[str(attribute.value)].append(position)
        return _Codes(dict(codes))
    by_unit: dict[Unit | None, list[tuple[float, int]]] = defaultdict(list)
    for position, attribute in carrying:
        value = attribute.value
        assert not isinstance(value, str)
        canonical = value if attribute.unit is None else to_canonical(value, attribute.unit)
        if not math.isfinite(canonical):
            return None
        by_unit[attribute.unit].append((canonical, position))
    runs: dict[Unit | None, _Run] = {}
    for unit, pairs in by_unit.items():
        pairs.sort()
        runs[unit] = _Run([value for value, _ in pairs], [position for _, position in pairs])
    return _Numbers(quantity, runs, len(carrying))


def _matches(run: _Run, op: ConstraintOp, wanted: float) -> list[int]:
    """Positions in ``run`` whose value satisfies ``op wanted``, as
    :func:`~remit.catalogue.search.satisfies` decides."""
    values = run.values
    if op is ConstraintOp.MIN:  # satisfies() is this very bound: a slice is exact
        return run.positions[bisect.bisect_left(values, wanted - tolerance(wanted)):]
    if op is ConstraintOp.MAX:
        return run.positions[:bisect.bisect_right(values, wanted + tolerance(wanted))]
    slack = _SLACK * (abs(wanted) + 1.0)
    start, end = bisect.bisect_left(values, wanted - slack), bisect.bisect_right(
        values, wanted + slack)
    equal_start, equal_end = bisect.bisect_left(values, wanted), bisect.bisect_right(
        values, wanted)
    near = [*range(start, equal_start), *range(equal_end, end)]  # few: values a hair off
    return [*run.positions[equal_start:equal_end],
            *(run.positions[i] for i in near if satisfies(op, values[i], wanted))]


class AttributeIndex:
    """Which variants of each family carry which attribute values.

    Args:
        by_family: each family's variants, in the order results are given (by SKU).

    Positions are indexes into ``by_family[family]``.
    """

    def __init__(self, by_family: Mapping[Family, Sequence[Variant]]) -> None:
        self._by_family = by_family
        self._postings: dict[tuple[Family, str], _Postings] = {}

    def _of(self, family: Family, name: str) -> _Postings:
        key = (family, name)
        if key not in self._postings:
            self._postings[key] = _postings(self._by_family[family], name)
        return self._postings[key]

    def positions(self, family: Family, constraint: Constraint) -> list[int] | None:
        """Positions of the variants of ``family`` that match ``constraint``, in no
        particular order; ``None`` when only a scan can answer (see the module
        docstring)."""
        postings = self._of(family, constraint.attribute)
        if postings is None:
            return None
        if isinstance(postings, _Codes):  # Constraint.matches on a recorded code
            if constraint.op is not ConstraintOp.EQ:
                return []
            return list(postings.postings.get(str(constraint.value), ()))
        return self._numeric(postings, constraint)

    @staticmethod
    def _numeric(postings: _Numbers, constraint: Constraint) -> list[int] | None:
        """:meth:`positions` on a numeric attribute, as Constraint.matches compares."""
        number = as_number(constraint.value)
        if number is None:
            return []
        given = constraint.unit
        if given is not None and (postings.quantity is None
                                  or quantity_of(given) is not postings.quantity):
            return None  # the scan raises UnitError at the first variant it reaches
        found: list[int] = []
        for recorded, run in postings.runs.items():
            unit = given or recorded  # no unit given: the attribute's recorded unit
            wanted = number if unit is None else to_canonical(number, unit)
            if not math.isfinite(wanted):
                return None
            found += _matches(run, constraint.op, wanted)
        return found

    def equal(self, family: Family, name: str, value: float) -> list[int] | None:
        """Positions of the variants of ``family`` whose bare number ``name`` equals
        ``value`` exactly, sorted; ``None`` unless every variant of the family carries
        ``name`` as a bare number."""
        postings = self._of(family, name)
        if (not isinstance(postings, _Numbers) or postings.quantity is not None
                or postings.carried != len(self._by_family[family])):
            return None
        run = postings.runs[None]
        start = bisect.bisect_left(run.values, value)
        return sorted(run.positions[start:bisect.bisect_right(run.values, value)])

    def matching(self, family: Family, constraints: Sequence[Constraint]
                 ) -> list[Variant] | None:
        """The variants of ``family`` matching every constraint, in order; ``None`` when
        only a scan can answer."""
        variants = self._by_family[family]
        if not constraints:
            return list(variants)
        found: list[list[int]] = []
        for constraint in constraints:
            positions = self.positions(family, constraint)
            if positions is None:
                return None
            found.append(positions)
        found.sort(key=len)
        chosen = set(found[0])
        for positions in found[1:]:
            chosen.intersection_update(positions)
        return [variants[position] for position in sorted(chosen)]
