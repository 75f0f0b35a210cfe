"""Build variants, their evidence and whole catalogues from plain values.

The builders write every attribute with its unit and its governing evidence under one
id scheme: datasheet revisions ``DS-<sku>-r<k>`` and EN 10204 certificates
``CERT-<sku>-<grade>``. Attributes named in ``draft`` are governed by a draft datasheet
revision one above the released ``revision``. :func:`evidence_for` derives the evidence
documents a variant cites, and :func:`assemble` builds a validated catalogue, so a test
or a scenario override can write a catalogue in a few lines.

Example:
    >>> valve = ball_valve("BV-1", dn=50, pn=16, body_material="316",
    ...     end_connection="NPT", seat="PTFE", iso5211_flange="F07", breakaway_torque=30)
    >>> assemble([valve]).variant("BV-1").number("seat_max_temp")
    180.0
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from decimal import Decimal

from remit.catalogue.attributes import (
    AttributeStatus,
    CertificateGrade,
    EvidenceDocument,
    EvidenceKind,
    GovernedAttribute,
)
from remit.catalogue.catalogue import Catalogue
from remit.catalogue.exceptions import UnknownEvidenceError
from remit.catalogue.families import SEAT_MAX_TEMP_C, ActuatorType, Family, Supply
from remit.catalogue.money import Money
from remit.catalogue.products import FffClass, Lifecycle, LifecycleStatus, Variant
from remit.catalogue.units import Unit

__all__ = [
    "actuator",
    "assemble",
    "ball_valve",
    "certificate_id",
    "datasheet_id",
    "evidence_for",
    "gasket_kit",
]

_Value = tuple[float | str, Unit | None]


def datasheet_id(sku: str, revision: int) -> str:
    """Id of datasheet revision ``revision`` of ``sku``: ``DS-<sku>-r<k>``."""
    return f"DS-{sku}-r{revision}"


def certificate_id(sku: str, grade: CertificateGrade | str) -> str:
    """Id of the EN 10204 certificate of ``grade`` for ``sku``: ``CERT-<sku>-<grade>``."""
    return f"CERT-{sku}-{CertificateGrade(grade).value}"


def _lifecycle(superseded_by: str | None, discontinued: bool) -> Lifecycle:
    if superseded_by is not None:
        return Lifecycle(status=LifecycleStatus.SUPERSEDED, superseded_by=superseded_by)
    if discontinued:
        return Lifecycle(status=LifecycleStatus.DISCONTINUED)
    return Lifecycle()


def _variant(
    sku: str,
    family: Family,
    name: str,
    values: dict[str, _Value],
    *,
    revision: int,
    draft: Collection[str],
    certificates: tuple[str, ...],
    superseded_by: str | None,
    discontinued: bool,
    fff_class: str | None,
    stock: int,
    lead_time_days: int,
    list_price: Decimal | str,
    unit_cost: Decimal | str,
    currency: str,
) -> Variant:
    attributes: dict[str, GovernedAttribute] = {}
    for key, (value, unit) in values.items():
        is_draft = key in draft
        evidence = datasheet_id(sku, revision + 1 if is_draft else revision)
        if key == "certificate":
            evidence = certificate_id(sku, str(value))
        attributes[key] = GovernedAttribute(
            name=key, value=value, unit=unit, evidence_id=evidence,
            status=AttributeStatus.DRAFT if is_draft else AttributeStatus.RELEASED,
        )
    return Variant(
        sku=sku, family=family, name=name, attributes=attributes,
        lifecycle=_lifecycle(superseded_by, discontinued), fff_class=fff_class,
        stock=stock, lead_time_days=lead_time_days,
        list_price=Money.of(list_price, currency), unit_cost=Money.of(unit_cost, currency),
        certificates=certificates,
    )


def ball_valve(
    sku: str,
    *,
    dn: int,
    pn: float,
    body_material: str,
    end_connection: str,
    seat: str,
    iso5211_flange: str,
    breakaway_torque: float,
    certificate: str = "3.1",
    seat_max_temp: float | None = None,
    face_to_face: float | None = None,
    name: str | None = None,
    revision: int = 1,
    draft: Collection[str] = (),
    superseded_by: str | None = None,
    discontinued: bool = False,
    fff_class: str | None = None,
    stock: int = 10,
    lead_time_days: int = 3,
    list_price: Decimal | str = "100.00",
    unit_cost: Decimal | str = "60.00",
    currency: str = "EUR",
) -> Variant:
    """A ball valve; ``pn`` in bar, torque in Nm, temperatures in C, lengths in mm.

    ``seat_max_temp`` defaults to the seat's catalogue limit (PTFE 180 C, PEEK 250 C).
    A valve offering 3.1 also offers 2.1; ``certificate`` is the highest grade.
    """
    grade = CertificateGrade(certificate)
    offered = (CertificateGrade.TYPE_2_1,) if grade is CertificateGrade.TYPE_2_1 else (
        CertificateGrade.TYPE_2_1, CertificateGrade.TYPE_3_1)
    values: dict[str, _Value] = {
        "dn": (float(dn), None),
        "pn": (float(pn), Unit.BAR),
        "body_material": (str(body_material), None),
        "end_connection": (str(end_connection), None),
        "seat": (str(seat), None),
        "seat_max_temp": (seat_max_temp if seat_max_temp is not None
                          else SEAT_MAX_TEMP_C[str(seat)], Unit.CELSIUS),
        "iso5211_flange": (str(iso5211_flange), None),
        "breakaway_torque": (float(breakaway_torque), Unit.NEWTON_METRE),
        "certificate": (grade.value, None),
    }
    if face_to_face is not None:
        values["face_to_face"] = (float(face_to_face), Unit.MILLIMETRE)
    return _variant(
        sku, Family.BALL_VALVE,
        name or f"Ball valve DN{dn} PN{pn:g} {body_material} {end_connection} {seat}",
        values, revision=revision, draft=draft,
        certificates=tuple(certificate_id(sku, g) for g in offered),
        superseded_by=superseded_by, discontinued=discontinued, fff_class=fff_class,
        stock=stock, lead_time_days=lead_time_days, list_price=list_price,
        unit_cost=unit_cost, currency=currency,
    )


def actuator(
    sku: str,
    *,
    actuator_type: str,
    output_torque: float,
    iso5211_flange: str,
    supply: str | None = None,
    name: str | None = None,
    revision: int = 1,
    draft: Collection[str] = (),
    superseded_by: str | None = None,
    discontinued: bool = False,
    fff_class: str | None = None,
    stock: int = 10,
    lead_time_days: int = 3,
    list_price: Decimal | str = "300.00",
    unit_cost: Decimal | str = "180.00",
    currency: str = "EUR",
) -> Variant:
    """A quarter-turn actuator; torque in Nm. ``supply`` defaults by type."""
    if supply is None:
        electric = str(actuator_type) == ActuatorType.ELECTRIC
        supply = Supply.DC_24 if electric else Supply.AIR_6_BAR
    values: dict[str, _Value] = {
        "actuator_type": (str(actuator_type), None),
        "output_torque": (float(output_torque), Unit.NEWTON_METRE),
        "iso5211_flange": (str(iso5211_flange), None),
        "supply": (str(supply), None),
    }
    return _variant(
        sku, Family.ACTUATOR,
        name or f"Actuator {actuator_type} {output_torque:g} Nm {iso5211_flange}",
        values, revision=revision, draft=draft, certificates=(),
        superseded_by=superseded_by, discontinued=discontinued, fff_class=fff_class,
        stock=stock, lead_time_days=lead_time_days, list_price=list_price,
        unit_cost=unit_cost, currency=currency,
    )


def gasket_kit(
    sku: str,
    *,
    dn: int,
    pn: float,
    facing: str,
    material: str,
    name: str | None = None,
    revision: int = 1,
    draft: Collection[str] = (),
    superseded_by: str | None = None,
    discontinued: bool = False,
    fff_class: str | None = None,
    stock: int = 50,
    lead_time_days: int = 2,
    list_price: Decimal | str = "25.00",
    unit_cost: Decimal | str = "12.00",
    currency: str = "EUR",
) -> Variant:
    """A flange gasket kit; ``pn`` in bar."""
    values: dict[str, _Value] = {
        "dn": (float(dn), None),
        "pn": (float(pn), Unit.BAR),
        "facing": (str(facing), None),
        "material": (str(material), None),
    }
    return _variant(
        sku, Family.GASKET_KIT, name or f"Gasket kit DN{dn} PN{pn:g} {facing} {material}",
        values, revision=revision, draft=draft, certificates=(),
        superseded_by=superseded_by, discontinued=discontinued, fff_class=fff_class,
        stock=stock, lead_time_days=lead_time_days, list_price=list_price,
        unit_cost=unit_cost, currency=currency,
    )


def _revision_of(sku: str, evidence_id: str) -> int:
    prefix = f"DS-{sku}-r"
    suffix = evidence_id.removeprefix(prefix)
    if suffix == evidence_id or not suffix.isdigit():
        raise UnknownEvidenceError(evidence_id, (
            f"evidence_for derives only DS-{sku}-r<k> and CERT-{sku}-<grade> documents; "
            "pass EvidenceDocument records for other ids yourself"))
    return int(suffix)


def evidence_for(variant: Variant) -> tuple[EvidenceDocument, ...]:
    """The evidence documents ``variant`` cites, under the builders' id scheme.

    Datasheet revisions r1 up to the highest cited are produced; a revision is draft
    when a draft attribute cites it, released otherwise. Certificates are released.

    Raises:
        UnknownEvidenceError: an id outside the ``DS-``/``CERT-`` scheme.
    """
    sku = variant.sku
    certificates = {certificate_id(sku, grade): grade for grade in CertificateGrade}
    draft_revisions: set[int] = set()
    highest = 1
    for attribute in variant.attributes.values():
        if attribute.evidence_id in certificates:
            continue
        revision = _revision_of(sku, attribute.evidence_id)
        highest = max(highest, revision)
        if attribute.status is AttributeStatus.DRAFT:
            draft_revisions.add(revision)
    documents = [
        EvidenceDocument(
            id=datasheet_id(sku, k), kind=EvidenceKind.DATASHEET, sku=sku, revision=f"r{k}",
            status=AttributeStatus.DRAFT if k in draft_revisions else AttributeStatus.RELEASED,
        )
        for k in range(1, highest + 1)
    ]
    for document_id in variant.certificates:
        grade = certificates.get(document_id)
        if grade is None:
            raise UnknownEvidenceError(document_id, (
                f"evidence_for derives only CERT-{sku}-<grade> certificates; pass "
                "EvidenceDocument records for other ids yourself"))
        documents.append(EvidenceDocument(id=document_id, kind=EvidenceKind.CERTIFICATE,
                                          sku=sku, grade=grade))
    return tuple(documents)


def assemble(variants: Iterable[Variant], fff_classes: Iterable[FffClass] = ()) -> Catalogue:
    """A validated catalogue of ``variants`` with the evidence they cite (see above)."""
    listed = list(variants)
    return Catalogue.of(
        listed, [document for variant in listed for document in evidence_for(variant)],
        fff_classes,
    )
