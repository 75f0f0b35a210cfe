"""Governed attributes and the evidence that governs them.

A governed attribute is a product fact (PN rating, seat material, ...) with a value, a
unit, a status and the id of the evidence document that governs it. Only attributes
whose status is ``released`` and whose evidence is released may be cited to a buyer.
A quote line cites :class:`AttributeSnapshot` copies, frozen at quoting time.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from remit.catalogue.units import Unit, quantity_of, to_canonical
from remit.trusted import trusted

__all__ = [
    "AttributeSnapshot",
    "AttributeStatus",
    "AttributeValue",
    "CertificateGrade",
    "EvidenceDocument",
    "EvidenceKind",
    "GovernedAttribute",
]

AttributeValue = float | str
"""A governed value: a number (with a unit) or a categorical code such as ``"316"``."""


class AttributeStatus(StrEnum):
    """Whether a fact (or its evidence document) is released for use with buyers."""

    RELEASED = "released"
    DRAFT = "draft"


class EvidenceKind(StrEnum):
    """Kinds of evidence document."""

    DATASHEET = "datasheet"
    CERTIFICATE = "certificate"


class CertificateGrade(StrEnum):
    """EN 10204 inspection document types. 3.1 is the stronger, per-heat certificate."""

    TYPE_2_1 = "2.1"
    TYPE_3_1 = "3.1"


class EvidenceDocument(BaseModel):
    """A datasheet revision or an EN 10204 certificate.

    Attributes:
        id: stable id, e.g. ``DS-BV-0012-r3`` or ``CERT-BV-0012-3.1``.
        kind: datasheet or certificate.
        sku: the SKU the document covers.
        revision: datasheet revision (``r1``, ``r2``...); certificates use ``""``.
        status: released or draft. Draft datasheets may not be cited to buyers.
        grade: certificate grade, for certificates only.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: EvidenceKind
    sku: str
    revision: str = ""
    status: AttributeStatus = AttributeStatus.RELEASED
    grade: CertificateGrade | None = None


class GovernedAttribute(BaseModel):
    """One governed product fact.

    Attributes:
        name: attribute name (``pn``, ``seat``, ``breakaway_torque``...).
        value: number or categorical code.
        unit: unit for numeric values; ``None`` for codes.
        status: released or draft.
        evidence_id: the evidence document that governs the value.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    value: AttributeValue
    unit: Unit | None = None
    status: AttributeStatus = AttributeStatus.RELEASED
    evidence_id: str

    def canonical_value(self) -> AttributeValue:
        """The value in its quantity's canonical unit (codes are returned unchanged)."""
        if self.unit is None or isinstance(self.value, str):
            return self.value
        return to_canonical(self.value, self.unit)

    def same_quantity(self, unit: Unit) -> bool:
        """True when ``unit`` measures the same quantity as this attribute's unit."""
        return self.unit is not None and quantity_of(self.unit) is quantity_of(unit)


class AttributeSnapshot(BaseModel):
    """A governed attribute of one SKU, copied at the moment a quote line cited it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str
    name: str
    value: AttributeValue
    unit: Unit | None = None
    status: AttributeStatus
    evidence_id: str

    @classmethod
    def of(cls, sku: str, attribute: GovernedAttribute) -> AttributeSnapshot:
        """Snapshot ``attribute`` of ``sku``."""
        if type(sku) is str:  # the rest is the validated attribute's own
            return trusted(cls, {"sku": sku, "name": attribute.name, "value": attribute.value,
                                 "unit": attribute.unit, "status": attribute.status,
                                 "evidence_id": attribute.evidence_id})
        return cls(
            sku=sku,
            name=attribute.name,
            value=attribute.value,
            unit=attribute.unit,
            status=attribute.status,
            evidence_id=attribute.evidence_id,
        )
