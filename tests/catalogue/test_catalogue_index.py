"""Indexed search answers what a scan of every variant answers, errors included."""

from __future__ import annotations

import functools
import pickle

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from remit.catalogue import (
    Catalogue,
    Constraint,
    ConstraintOp,
    Family,
    GovernedAttribute,
    Unit,
    Variant,
    attribute_specs,
    convert,
    generate_catalogue,
)
from remit.errors import UnitError
from tests.catalogue.strategies import DETERMINISTIC

_OTHER_UNIT = {Unit.BAR: Unit.PSI, Unit.CELSIUS: Unit.FAHRENHEIT}


def _restated(variant: Variant) -> Variant:
    """``variant`` with its pressures in psi and temperatures in F (the same facts)."""
    attributes = {
        name: attribute if attribute.unit not in _OTHER_UNIT or isinstance(
            attribute.value, str) else attribute.model_copy(update={
                "value": convert(attribute.value, attribute.unit, _OTHER_UNIT[attribute.unit]),
                "unit": _OTHER_UNIT[attribute.unit]})
        for name, attribute in variant.attributes.items()
    }
    return Variant.model_validate({**dict(variant), "attributes": attributes})


@functools.cache
def _catalogue(seed: int, size: int | None, mixed_units: bool) -> Catalogue:
    catalogue = generate_catalogue(seed, size)
    if not mixed_units:
        return catalogue
    return catalogue.with_records([_restated(v) for v in catalogue.variants_of()[::3]])


def _scan(catalogue: Catalogue, family: Family | None, constraints: list[Constraint],
          active_only: bool) -> tuple[Variant, ...]:
    """The reference: every variant tested with Constraint.matches, in catalogue order."""
    return tuple(variant for variant in catalogue.variants_of(family)
                 if (variant.is_active or not active_only)
                 and all(c.matches(variant) for c in constraints))


def _outcome(search: functools.partial[tuple[Variant, ...]]) -> tuple[str, ...] | str:
    try:
        return tuple(variant.sku for variant in search())
    except UnitError as exc:
        return f"UnitError: {exc}"


_NAMES = sorted({spec.name for family in Family for spec in attribute_specs(family)})
_CODES = sorted({code for family in Family for spec in attribute_specs(family)
                 for code in spec.codes})
_NUMBERS = [0.0, 1e-9, 1.0, 1.6, 10.0, 15.0, 15.99999, 16.0, 16.000001, 20.0, 25.0, 32.0,
            40.0, 50.0, 50.00004, 65.0, 80.0, 100.0, 145.038, 180.0, 232.06, 250.0, 356.0,
            482.0, 580.15, -3.0, 1e12]
"""DNs, PNs, torques and temperatures the generated catalogues hold (some in psi or F),
values a hair off them, and values none holds."""


@st.composite
def _constraints(draw: st.DrawFn) -> Constraint:
    value = draw(st.one_of(st.sampled_from(_NUMBERS), st.sampled_from(_NUMBERS),
                           st.floats(-1e3, 1e3), st.sampled_from(_CODES),
                           st.sampled_from(["50", "1e1", "x"])))
    try:
        return Constraint(attribute=draw(st.sampled_from([*_NAMES, "colour"])),
                          op=draw(st.sampled_from(ConstraintOp)), value=value,
                          unit=draw(st.one_of(st.none(), st.sampled_from(Unit))))
    except ValidationError:
        return Constraint(attribute=draw(st.sampled_from(_NAMES)), value=value)


@DETERMINISTIC
@given(seed=st.integers(0, 2), size=st.sampled_from([None, 7, 300]),
       mixed_units=st.booleans(),
       family=st.one_of(st.none(), st.sampled_from(Family)),
       constraints=st.lists(_constraints(), max_size=2), active_only=st.booleans())
@example(seed=0, size=300, mixed_units=True, family=Family.BALL_VALVE,
         constraints=[Constraint(attribute="pn", op=ConstraintOp.MIN, value=16.0,
                                 unit=Unit.BAR)], active_only=False)
@example(seed=0, size=None, mixed_units=True, family=None,
         constraints=[Constraint(attribute="pn", op=ConstraintOp.MIN, value=120.0,
                                 unit=Unit.CELSIUS)], active_only=True)
@example(seed=0, size=300, mixed_units=True, family=None,  # within 1e-6 of PN 16 bar
         constraints=[Constraint(attribute="pn", value=16.000001, unit=Unit.BAR)],
         active_only=False)
@example(seed=0, size=300, mixed_units=False, family=Family.BALL_VALVE,  # of DN 50
         constraints=[Constraint(attribute="dn", value=50.00004)], active_only=True)
@example(seed=1, size=None, mixed_units=False, family=Family.GASKET_KIT,
         constraints=[Constraint(attribute="dn", value=50.0, unit=Unit.BAR)],
         active_only=False)
def test_indexed_search_answers_as_the_scan(
    *, seed: int, size: int | None, mixed_units: bool, family: Family | None,
    constraints: list[Constraint], active_only: bool,
) -> None:
    catalogue = _catalogue(seed, size, mixed_units)
    indexed = _outcome(functools.partial(catalogue.matching, family, constraints,
                                         active_only=active_only))
    scanned = _outcome(functools.partial(_scan, catalogue, family, constraints,
                                         active_only))
    assert indexed == scanned


def test_a_unit_of_the_wrong_quantity_raises_as_the_scan_does() -> None:
    catalogue = generate_catalogue(0)
    wrong = Constraint(attribute="pn", op=ConstraintOp.MIN, value=120.0, unit=Unit.CELSIUS)
    with pytest.raises(UnitError, match=r"unit='C'"):
        catalogue.matching(Family.BALL_VALVE, [wrong])


def test_an_attribute_recorded_in_two_ways_is_scanned() -> None:
    """A guard the family schema makes unreachable for validated records: one actuator
    records its supply as a number where the others record a code. The scan answers."""
    catalogue = generate_catalogue(0)
    odd = catalogue.variants_of(Family.ACTUATOR)[0]
    strange = odd.model_copy(update={"attributes": {
        **odd.attributes,
        "supply": GovernedAttribute.model_construct(
            name="supply", value=24.0, unit=None,
            evidence_id=odd.attributes["supply"].evidence_id)}})
    mixed = Catalogue.model_construct(variants={**catalogue.variants, odd.sku: strange},
                                      documents=catalogue.documents,
                                      fff_classes=catalogue.fff_classes)
    for constraint in (Constraint(attribute="supply", value=24.0),
                       Constraint(attribute="supply", value="24 VDC")):
        found = mixed.matching(Family.ACTUATOR, [constraint])
        assert found == _scan(mixed, Family.ACTUATOR, [constraint], active_only=False)
    assert [v.sku for v in mixed.matching(Family.ACTUATOR, [
        Constraint(attribute="supply", value=24.0)])] == [odd.sku]


def test_search_keeps_refusing_unknown_attributes() -> None:
    with pytest.raises(ValueError, match=r"colour"):
        generate_catalogue(0).search(Family.BALL_VALVE, colour="red")


@pytest.mark.parametrize("size", [None, 300])
def test_having_number_is_the_exact_match(size: int | None) -> None:
    catalogue = generate_catalogue(0, size)
    for family in (Family.BALL_VALVE, Family.GASKET_KIT):
        for dn in (15, 25, 50, 50.5, 999):
            assert catalogue.having_number(family, "dn", dn) == tuple(
                v for v in catalogue.variants_of(family) if v.number("dn") == dn)


def test_what_a_catalogue_derives_changes_neither_equality_nor_pickling() -> None:
    """Indexes and derived values (kept by the catalogue once it is queried) are not
    records: they leave equality alone and are rebuilt after unpickling, not copied."""
    queried, fresh = generate_catalogue(4, 200), generate_catalogue(4, 200)
    found = queried.search(Family.BALL_VALVE, dn=50)
    kept = queried.derived(("a test's value",), lambda: len(found))
    assert queried == fresh
    restored = pickle.loads(pickle.dumps(queried))
    assert restored == fresh
    assert restored.search(Family.BALL_VALVE, dn=50) == found
    assert restored.derived(("a test's value",), lambda: -1) == -1  # not carried over
    assert queried.derived(("a test's value",), lambda: -1) == kept
