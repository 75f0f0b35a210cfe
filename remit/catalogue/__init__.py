"""Governed product records of the valve distributor, and the rules of fit.

- Records: :class:`Variant` (with :class:`GovernedAttribute` facts and their
  :class:`EvidenceDocument`), :class:`Lifecycle`, :class:`FffClass`, :class:`Catalogue`.
- Buyer request and hidden truths: :class:`Requirement`, :class:`OperatingFacts`,
  :class:`InstallationFacts`, :class:`SiteTruths`.
- Rules: fit C1-C7 (:func:`check_valve`, :func:`check_actuator`, :func:`check_fit`),
  substitution S1-S3 (:func:`s1_supersession`, :func:`s2_fff`,
  :func:`s3_confirmations`), and the wrong-variant oracle :func:`acceptable_skus`.
- Fixtures: :func:`generate_catalogue` (seeded), :func:`shared_catalogue` (generated once
  per process) and the builders :func:`ball_valve`,
  :func:`actuator`, :func:`gasket_kit`, :func:`assemble`.

Example:
    >>> from remit.catalogue import generate_catalogue
    >>> catalogue = generate_catalogue(seed=0)
    >>> catalogue.variant("BV-00001").family
    <Family.BALL_VALVE: 'ball_valve'>
"""

from __future__ import annotations

from remit.catalogue.acceptance import acceptable_pairs, acceptable_skus, unacceptable_because
from remit.catalogue.attributes import (
    AttributeSnapshot,
    AttributeStatus,
    AttributeValue,
    CertificateGrade,
    EvidenceDocument,
    EvidenceKind,
    GovernedAttribute,
)
from remit.catalogue.builders import (
    actuator,
    assemble,
    ball_valve,
    certificate_id,
    datasheet_id,
    evidence_for,
    gasket_kit,
)
from remit.catalogue.catalogue import Catalogue
from remit.catalogue.exceptions import (
    GenerationError,
    SubstitutionError,
    UnknownAttributeError,
    UnknownEvidenceError,
    WrongFamilyError,
)
from remit.catalogue.families import (
    CHLORIDE_SAFE_GASKETS,
    SEAT_MAX_TEMP_C,
    STANDARD_PN,
    ActuatorType,
    AttributeSpec,
    BodyMaterial,
    EndConnection,
    Facing,
    Family,
    GasketMaterial,
    Iso5211Flange,
    Seat,
    Supply,
    attribute_specs,
)
from remit.catalogue.fit import (
    TORQUE_SAFETY_FACTOR,
    RuleId,
    RuleResult,
    c1_flange_match,
    c1_mounting_flange,
    c2_torque_margin,
    c3_pressure_rating,
    c4_seat_temperature,
    c5_end_connection,
    c6_chlorides,
    c7_certificate,
    check_actuator,
    check_fit,
    check_gasket,
    check_valve,
    dn_match,
    flange_fits,
    gasket_fits,
    required_certificate,
    torque_fits,
    torque_suffices,
    valve_fits,
)
from remit.catalogue.generator import DEFAULT_SIZE, generate_catalogue, shared_catalogue
from remit.catalogue.money import Money
from remit.catalogue.products import FffClass, Lifecycle, LifecycleStatus, Variant
from remit.catalogue.requirements import (
    InstallationFacts,
    OperatingFacts,
    Requirement,
    SiteTruths,
)
from remit.catalogue.search import Constraint, ConstraintOp
from remit.catalogue.substitution import (
    BUYER_FACTS,
    TECHNICAL_FACTS,
    SubstitutionReview,
    s1_supersession,
    s2_fff,
    s3_confirmations,
)
from remit.catalogue.units import (
    CANONICAL,
    MeasureUnit,
    Quantity,
    Unit,
    convert,
    measure_unit,
    parse_unit,
    quantity_of,
    require_quantity,
    to_canonical,
)

__all__ = [
    "BUYER_FACTS",
    "CANONICAL",
    "CHLORIDE_SAFE_GASKETS",
    "DEFAULT_SIZE",
    "SEAT_MAX_TEMP_C",
    "STANDARD_PN",
    "TECHNICAL_FACTS",
    "TORQUE_SAFETY_FACTOR",
    "ActuatorType",
    "AttributeSnapshot",
    "AttributeSpec",
    "AttributeStatus",
    "AttributeValue",
    "BodyMaterial",
    "Catalogue",
    "CertificateGrade",
    "Constraint",
    "ConstraintOp",
    "EndConnection",
    "EvidenceDocument",
    "EvidenceKind",
    "Facing",
    "Family",
    "FffClass",
    "GasketMaterial",
    "GenerationError",
    "GovernedAttribute",
    "InstallationFacts",
    "Iso5211Flange",
    "Lifecycle",
    "LifecycleStatus",
    "MeasureUnit",
    "Money",
    "OperatingFacts",
    "Quantity",
    "Requirement",
    "RuleId",
    "RuleResult",
    "Seat",
    "SiteTruths",
    "SubstitutionError",
    "SubstitutionReview",
    "Supply",
    "Unit",
    "UnknownAttributeError",
    "UnknownEvidenceError",
    "Variant",
    "WrongFamilyError",
    "acceptable_pairs",
    "acceptable_skus",
    "actuator",
    "assemble",
    "attribute_specs",
    "ball_valve",
    "c1_flange_match",
    "c1_mounting_flange",
    "c2_torque_margin",
    "c3_pressure_rating",
    "c4_seat_temperature",
    "c5_end_connection",
    "c6_chlorides",
    "c7_certificate",
    "certificate_id",
    "check_actuator",
    "check_fit",
    "check_gasket",
    "check_valve",
    "convert",
    "datasheet_id",
    "dn_match",
    "evidence_for",
    "flange_fits",
    "gasket_fits",
    "gasket_kit",
    "generate_catalogue",
    "measure_unit",
    "parse_unit",
    "quantity_of",
    "require_quantity",
    "required_certificate",
    "s1_supersession",
    "s2_fff",
    "s3_confirmations",
    "shared_catalogue",
    "to_canonical",
    "torque_fits",
    "torque_suffices",
    "unacceptable_because",
    "valve_fits",
]
