"""Consistency rules of a catalogue, checked once when it is built.

Every problem is one sentence naming the record and the offending value, so a broken
fixture or scenario override fails with a list of what to fix:

- variant and evidence keys equal their ids;
- every attribute's evidence document exists and covers that SKU;
- certificates offered exist, are certificates of that SKU, and a ball valve's
  ``certificate`` attribute is the highest grade offered;
- ``superseded_by`` names a SKU of the same family, and chains are one-way (no cycles);
- FFF classes name existing SKUs of one family, each SKU in at most one class, and a
  variant's ``fff_class`` agrees with the class that lists it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from remit.catalogue.attributes import CertificateGrade, EvidenceDocument, EvidenceKind
from remit.catalogue.families import Family
from remit.catalogue.products import FffClass, Variant

__all__ = ["integrity_problems"]

_GRADE_ORDER: Mapping[CertificateGrade, int] = MappingProxyType(
    {CertificateGrade.TYPE_2_1: 1, CertificateGrade.TYPE_3_1: 2})


def _evidence_problems(
    variant: Variant, evidence: Mapping[str, EvidenceDocument]
) -> list[str]:
    problems: list[str] = []
    sku = variant.sku
    for name, attribute in variant.attributes.items():
        document = evidence.get(attribute.evidence_id)
        if document is None:
            problems.append(f"{sku}: attribute {name!r} cites missing "
                            f"evidence_id={attribute.evidence_id!r}")
        elif document.sku != sku:
            problems.append(f"{sku}: attribute {name!r} cites {document.id!r}, "
                            f"which covers sku={document.sku!r}")
    grades: list[CertificateGrade] = []
    for certificate_id in variant.certificates:
        document = evidence.get(certificate_id)
        if (document is None or document.kind is not EvidenceKind.CERTIFICATE
                or document.grade is None or document.sku != sku):
            problems.append(f"{sku}: certificates lists {certificate_id!r}, which is not "
                            "an EN 10204 certificate document of this SKU")
        else:
            grades.append(document.grade)
    if variant.family is Family.BALL_VALVE and "certificate" in variant.attributes:
        stated = variant.code("certificate")
        highest = max(grades, key=_GRADE_ORDER.__getitem__, default=None)
        if highest is None or highest.value != stated:
            problems.append(f"{sku}: certificate attribute is {stated!r} but the highest "
                            f"certificate offered is {highest and highest.value!r}")
    return problems


def _chain_problems(variants: Mapping[str, Variant]) -> list[str]:
    problems: list[str] = []
    done: set[str] = set()
    for start in variants:
        path: list[str] = []
        on_path: set[str] = set()
        sku: str | None = start
        while sku is not None and sku not in done:
            if sku in on_path:
                cycle = " -> ".join([*path[path.index(sku):], sku])
                problems.append(f"supersession cycle {cycle}; chains must be one-way")
                break
            path.append(sku)
            on_path.add(sku)
            variant = variants[sku]
            successor = variant.lifecycle.superseded_by
            if successor is not None:
                target = variants.get(successor)
                if target is None:
                    problems.append(f"{sku}: superseded_by={successor!r} is not in the "
                                    "catalogue")
                    successor = None
                elif target.family is not variant.family:
                    problems.append(f"{sku}: superseded_by={successor!r} has "
                                    f"family={target.family.value!r}, not "
                                    f"{variant.family.value!r}; supersede within a family")
            sku = successor
        done.update(path)
    return problems


def _fff_problems(
    variants: Mapping[str, Variant], fff_classes: Mapping[str, FffClass]
) -> list[str]:
    problems: list[str] = []
    owner: dict[str, str] = {}
    for key, fff in fff_classes.items():
        if key != fff.id:
            problems.append(f"FFF class keyed {key!r} has id={fff.id!r}")
        families = set()
        for sku in fff.members:
            variant = variants.get(sku)
            if variant is None:
                problems.append(f"FFF class {fff.id}: member {sku!r} is not in the catalogue")
                continue
            families.add(variant.family)
            if sku in owner:
                problems.append(f"{sku} is in FFF classes {owner[sku]} and {fff.id}; "
                                "keep one")
            owner[sku] = fff.id
            if variant.fff_class != fff.id:
                problems.append(f"{sku}: fff_class={variant.fff_class!r} but FFF class "
                                f"{fff.id} lists it")
        if len(families) > 1:
            problems.append(f"FFF class {fff.id} mixes families "
                            f"{sorted(f.value for f in families)}")
    problems.extend(
        f"{sku}: fff_class={variant.fff_class!r} is not a class listing it"
        for sku, variant in variants.items()
        if variant.fff_class is not None and sku not in owner
    )
    return problems


def integrity_problems(
    variants: Mapping[str, Variant],
    evidence: Mapping[str, EvidenceDocument],
    fff_classes: Mapping[str, FffClass],
) -> list[str]:
    """Every consistency problem of a catalogue's records, one sentence each."""
    problems: list[str] = [f"variant keyed {key!r} has sku={variant.sku!r}"
                           for key, variant in variants.items() if key != variant.sku]
    problems.extend(f"evidence keyed {key!r} has id={document.id!r}"
                    for key, document in evidence.items() if key != document.id)
    for variant in variants.values():
        problems.extend(_evidence_problems(variant, evidence))
    problems.extend(_chain_problems(variants))
    problems.extend(_fff_problems(variants, fff_classes))
    return problems
