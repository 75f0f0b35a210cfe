"""A small hand-built catalogue whose acceptable sets are worked out by hand in tests.

All DN 50 unless named otherwise; breakaway torques in Nm, PN in bar.

| SKU      | body | ends     | seat | PN | flange | breakaway | cert | lifecycle          |
|----------|------|----------|------|----|--------|-----------|------|--------------------|
| BV-A     | 316  | NPT      | PTFE | 16 | F07    | 40        | 3.1  | active             |
| BV-B     | 316  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | active, FFF-1 lead |
| BV-B2    | 316  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | active, FFF-1      |
| BV-C     | WCB  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | active, FFF-1      |
| BV-D     | 316  | BSPP     | PEEK | 40 | F07    | 40        | 3.1  | active             |
| BV-E     | 316  | NPT      | PEEK | 40 | F10    | 80        | 2.1  | active             |
| BV-F     | 316  | EN1092-1 | PEEK | 40 | F07    | 40        | 3.1  | active             |
| BV-OLD   | 316  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | superseded by BV-MID |
| BV-MID   | 316  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | superseded by BV-B |
| BV-DISC  | 316  | NPT      | PEEK | 40 | F07    | 40        | 3.1  | discontinued       |
| BV-25    | DN 25, otherwise as BV-B                                 | active             |

Actuators: AC-EXACT F07 50 Nm (= 1.25 x 40), AC-LOW F07 49.5 Nm, AC-F10 F10 100 Nm
(= 1.25 x 80), AC-DISC F07 200 Nm discontinued. Gasket kits: GK-1 DN50 PN40 PTFE,
GK-2 DN50 PN16 EPDM, GK-3 DN50 PN40 graphite_316, GK-4 DN25 PN40 PTFE.
"""

from __future__ import annotations

from remit.catalogue import (
    Catalogue,
    CertificateGrade,
    EndConnection,
    FffClass,
    InstallationFacts,
    Iso5211Flange,
    OperatingFacts,
    SiteTruths,
    Unit,
    Variant,
    actuator,
    assemble,
    ball_valve,
    gasket_kit,
)


def valve(sku: str, **overrides: object) -> Variant:
    """A DN 50, PN 40, 316, NPT, PEEK, F07, 40 Nm, 3.1 valve, with ``overrides``."""
    values: dict[str, object] = {
        "dn": 50, "pn": 40, "body_material": "316", "end_connection": "NPT",
        "seat": "PEEK", "iso5211_flange": "F07", "breakaway_torque": 40,
        "certificate": "3.1", "face_to_face": 120,
    }
    values.update(overrides)
    return ball_valve(sku, **values)


def small_catalogue() -> Catalogue:
    """The catalogue of the module docstring."""
    return assemble(
        [
            valve("BV-A", pn=16, seat="PTFE"),
            valve("BV-B", fff_class="FFF-1"),
            valve("BV-B2", fff_class="FFF-1"),
            valve("BV-C", body_material="WCB", fff_class="FFF-1"),
            valve("BV-D", end_connection="BSPP"),
            valve("BV-E", iso5211_flange="F10", breakaway_torque=80, certificate="2.1"),
            valve("BV-F", end_connection="EN1092-1", face_to_face=178),
            valve("BV-OLD", superseded_by="BV-MID"),
            valve("BV-MID", superseded_by="BV-B"),
            valve("BV-DISC", discontinued=True),
            valve("BV-25", dn=25),
            actuator("AC-EXACT", actuator_type="pneumatic_da", output_torque=50,
                     iso5211_flange="F07"),
            actuator("AC-LOW", actuator_type="pneumatic_da", output_torque=49.5,
                     iso5211_flange="F07"),
            actuator("AC-F10", actuator_type="electric", output_torque=100,
                     iso5211_flange="F10"),
            actuator("AC-DISC", actuator_type="pneumatic_sr", output_torque=200,
                     iso5211_flange="F07", discontinued=True),
            gasket_kit("GK-1", dn=50, pn=40, facing="RF", material="PTFE"),
            gasket_kit("GK-2", dn=50, pn=16, facing="RF", material="EPDM"),
            gasket_kit("GK-3", dn=50, pn=40, facing="RF", material="graphite_316"),
            gasket_kit("GK-4", dn=25, pn=40, facing="RF", material="PTFE"),
        ],
        [FffClass(id="FFF-1", members=("BV-B", "BV-B2", "BV-C"), leading_sku="BV-B")],
    )


def site(
    *,
    pressure: float = 10.0,
    pressure_unit: Unit = Unit.BAR,
    temperature: float = 80.0,
    temperature_unit: Unit = Unit.CELSIUS,
    chlorides: bool = False,
    piping: EndConnection = EndConnection.NPT,
    actuator_flange: Iso5211Flange | None = None,
    certificate: CertificateGrade | None = None,
) -> SiteTruths:
    """Site truths; the defaults are mild (10 bar, 80 C, water, NPT, no certificate)."""
    return SiteTruths(
        operating=OperatingFacts(
            design_pressure=pressure, pressure_unit=pressure_unit,
            medium_temperature=temperature, temperature_unit=temperature_unit,
            chlorides=chlorides, medium="brine" if chlorides else "water",
        ),
        installation=InstallationFacts(
            piping_standard=piping, actuator_flange=actuator_flange,
            certificate_required=certificate,
        ),
    )
