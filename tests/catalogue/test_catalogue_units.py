"""Units: conversions, wrong-unit detection, and why a psi value read as bar matters."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from pydantic import ValidationError

from remit.catalogue import (
    Constraint,
    ConstraintOp,
    EndConnection,
    Family,
    OperatingFacts,
    SiteTruths,
    Unit,
    c3_pressure_rating,
    convert,
    measure_unit,
    parse_unit,
    to_canonical,
    units,
)
from remit.errors import UnitError
from tests.catalogue.sample import small_catalogue, valve
from tests.catalogue.strategies import (
    DETERMINISTIC,
    bar_values,
    celsius_values,
    pressure_units,
    temperature_units,
)


@pytest.mark.parametrize(
    ("value", "from_unit", "to_unit", "expected"),
    [
        (16.0, Unit.BAR, Unit.PSI, 232.060380),
        (290.0, Unit.PSI, Unit.BAR, 19.99480),
        (2.5, Unit.MPA, Unit.BAR, 25.0),
        (40.0, Unit.BAR, Unit.MPA, 4.0),
        (1.0, Unit.MPA, Unit.PSI, 145.037738),
        (180.0, Unit.CELSIUS, Unit.FAHRENHEIT, 356.0),
        (392.0, Unit.FAHRENHEIT, Unit.CELSIUS, 200.0),
        (-40.0, Unit.CELSIUS, Unit.FAHRENHEIT, -40.0),
    ],
)
def test_convert_between_units_of_one_quantity(
    value: float, from_unit: Unit, to_unit: Unit, expected: float
) -> None:
    assert convert(value, from_unit, to_unit) == pytest.approx(expected, rel=1e-6)


@given(value=bar_values, unit=pressure_units)
@DETERMINISTIC
def test_pressure_round_trips_through_any_unit(value: float, unit: Unit) -> None:
    there = convert(value, Unit.BAR, unit)
    assert convert(there, unit, Unit.BAR) == pytest.approx(value, rel=1e-9)
    assert to_canonical(there, unit) == pytest.approx(value, rel=1e-9)


@given(value=celsius_values, unit=temperature_units)
@DETERMINISTIC
def test_temperature_round_trips_through_any_unit(value: float, unit: Unit) -> None:
    assert convert(convert(value, Unit.CELSIUS, unit), unit, Unit.CELSIUS) == pytest.approx(
        value, abs=1e-9
    )


@pytest.mark.parametrize(("text", "unit"), [("psig", Unit.PSI), (" Bar ", Unit.BAR),
                                            ("°F", Unit.FAHRENHEIT), ("MPa", Unit.MPA)])
def test_parse_unit_accepts_common_spellings(text: str, unit: Unit) -> None:
    assert parse_unit(text) is unit


@pytest.mark.parametrize("unit", list(Unit))
def test_a_record_unit_read_as_written_is_the_unit_pint_reads(unit: Unit) -> None:
    """parse_unit reads a unit's own value without pint (as stored suites hold it): the
    unit pint's reading of that spelling gives too."""
    assert parse_unit(unit.value) is unit
    assert parse_unit(f" {unit.value} ") is unit  # not the value itself: read through pint
    assert measure_unit(unit.value).name == measure_unit(f" {unit.value} ").name


def test_parse_unit_rejects_unknown_spelling() -> None:
    with pytest.raises(UnitError, match=r"unit='kgf' is not a known unit; use one of bar"):
        parse_unit("kgf")


def test_convert_across_quantities_raises_unit_error() -> None:
    with pytest.raises(UnitError, match=r"unit='C' is not a pressure unit; use one of bar"):
        convert(16.0, Unit.BAR, Unit.CELSIUS)


def _facts(**overrides: object) -> dict[str, object]:
    facts: dict[str, object] = {
        "design_pressure": 20.0, "pressure_unit": "bar", "medium_temperature": 80.0,
        "temperature_unit": "C", "chlorides": False, "medium": "water",
    }
    facts.update(overrides)
    return facts


def test_operating_facts_accept_spellings_and_normalise() -> None:
    facts = OperatingFacts(**_facts(design_pressure=290.0, pressure_unit="psig",
                                    medium_temperature=392.0, temperature_unit="°F"))
    assert facts.pressure_unit is Unit.PSI
    assert facts.design_pressure_bar == pytest.approx(19.9948, rel=1e-4)
    assert facts.medium_temperature_c == pytest.approx(200.0)


def test_temperature_unit_for_pressure_is_a_unit_error() -> None:
    with pytest.raises(UnitError, match=r"unit='C' is not a pressure unit") as caught:
        OperatingFacts(**_facts(pressure_unit="C"))
    assert caught.value.quantity == "pressure"


def test_pressure_unit_for_temperature_is_a_unit_error() -> None:
    with pytest.raises(UnitError, match=r"unit='psi' is not a temperature unit; use one of C"):
        OperatingFacts(**_facts(temperature_unit=Unit.PSI))


def test_wrong_unit_in_loaded_truths_names_the_unit() -> None:
    """Loading through model_validate (YAML path): a ValidationError carrying the UnitError."""
    payload = {"operating": _facts(pressure_unit="F"),
               "installation": {"piping_standard": "NPT"}}
    with pytest.raises(ValidationError, match=r"unit='F' is not a pressure unit") as caught:
        SiteTruths.model_validate(payload)
    assert isinstance(caught.value.errors()[0]["ctx"]["error"], UnitError)


def test_search_constraint_in_psi_matches_pn_in_bar() -> None:
    catalogue = small_catalogue()
    at_least_300_psi = Constraint(attribute="pn", op=ConstraintOp.MIN, value=300.0,
                                  unit=Unit.PSI)  # 20.7 bar: PN 40 yes, PN 16 no
    hits = {v.sku for v in catalogue.search(Family.BALL_VALVE, [at_least_300_psi])}
    assert "BV-B" in hits
    assert "BV-A" not in hits
    equal_in_mpa = Constraint(attribute="pn", value=1.6, unit=Unit.MPA)
    assert [v.sku for v in catalogue.search(Family.BALL_VALVE, [equal_in_mpa])] == ["BV-A"]


def test_search_constraint_in_wrong_quantity_raises_unit_error() -> None:
    wrong = Constraint(attribute="pn", op=ConstraintOp.MIN, value=120.0, unit=Unit.CELSIUS)
    with pytest.raises(UnitError, match=r"unit='C' is not a pressure unit"):
        small_catalogue().search(Family.BALL_VALVE, [wrong])


def test_search_constraint_with_unit_on_dimensionless_dn_raises() -> None:
    wrong = Constraint(attribute="dn", value=50.0, unit=Unit.MILLIMETRE)
    with pytest.raises(UnitError, match=r"unit='mm' is not a dn \(dimensionless\) unit"):
        small_catalogue().search(Family.BALL_VALVE, [wrong])


def test_psi_value_mistaken_for_bar_flips_the_c3_verdict() -> None:
    """The buyer means 232 psi (16 bar); read as 232 bar, PN 40 looks far too weak."""
    pn40 = valve("BV-X", pn=40)
    as_meant = OperatingFacts(**_facts(design_pressure=232.0, pressure_unit="psi"))
    misread = OperatingFacts(**_facts(design_pressure=232.0, pressure_unit="bar"))
    meant = c3_pressure_rating(pn40, as_meant)
    wrong = c3_pressure_rating(pn40, misread)
    assert meant.passed
    assert meant.reason == ("C3 passes: PN 40 bar of BV-X is at least design pressure "
                            "16.0 bar (232.0 psi as given).")
    assert not wrong.passed
    assert "below design pressure 232.0 bar" in wrong.reason


@given(pressure_bar=bar_values, unit=pressure_units)
@DETERMINISTIC
def test_c3_verdict_does_not_depend_on_the_unit_it_was_given_in(
    pressure_bar: float, unit: Unit
) -> None:
    pn16 = valve("BV-X", pn=16)
    in_bar = OperatingFacts(**_facts(design_pressure=pressure_bar))
    in_unit = OperatingFacts(**_facts(
        design_pressure=convert(pressure_bar, Unit.BAR, unit), pressure_unit=unit))
    if math.isclose(pressure_bar, 16.0, rel_tol=1e-6):
        return
    assert c3_pressure_rating(pn16, in_bar).passed == c3_pressure_rating(pn16, in_unit).passed
    assert c3_pressure_rating(pn16, in_bar).passed == (pressure_bar <= 16.0)


def test_piping_standard_is_a_closed_set() -> None:
    with pytest.raises(ValidationError, match=r"piping_standard"):
        SiteTruths.model_validate({"operating": _facts(),
                                   "installation": {"piping_standard": "JIS"}})
    assert EndConnection("EN1092-1") is EndConnection.FLANGED


def test_the_kept_unit_maps_are_what_pint_works_out_bit_for_bit() -> None:
    """A run converts with the maps remit keeps instead of loading pint: for every unit
    name a spelling reads as, they must be pint's own figures, to the last bit."""
    names = set(units._SPELLINGS.values()) - {"count"}
    assert set(units._PINT_MAPS) == names
    for name in sorted(names):
        by_pint = units.pint_measure(name)
        assert by_pint is not None, name
        quantity, scale, offset = units._PINT_MAPS[name]
        assert (quantity, scale.hex(), offset.hex()) == (
            by_pint.quantity, by_pint.scale.hex(), by_pint.offset.hex()), name
        assert units._measure(name) == by_pint  # what every spelling of it reads as
