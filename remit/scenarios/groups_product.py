"""Product groups: situations derived from the catalogue, never hand-picked SKUs.

For each :class:`~remit.scenarios.groups.ProductGroup`, :func:`product_situations`
enumerates a grid of buyer requests and hidden truths (design pressure in bar or psi,
medium temperature, chlorides, piping standard, an existing actuator's flange, a
required certificate) against the catalogue, and keeps the points where:

- the acceptable set (:func:`~remit.catalogue.acceptable_skus`) holds one or two valves;
- a tempting wrong variant exists: an active valve of the same DN (or, for an
  actuator, one of the valve's flange) that fails a rule, or the superseded part itself;
- the group's own story holds (e.g. for variant selection, a same-DN valve fits what
  the buyer says and fails only an installation fact).

Points telling the same story (same quoted SKUs, same deciding rules, pressure unit)
are merged, and up to :data:`MAX_SITUATIONS` per group are kept, spread over the quoted
SKUs. The plan quotes the first acceptable SKU in a fixed order, citing only released
facts. The same catalogue always gives the same situations, in the same order.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from collections.abc import Iterator
from types import MappingProxyType
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from remit.catalogue import (
    AttributeStatus,
    Catalogue,
    CertificateGrade,
    EvidenceKind,
    Family,
    Requirement,
    SiteTruths,
    Unit,
    acceptable_skus,
    check_actuator,
    s2_fff,
)
from remit.scenarios.groups import ProductGroup, ScenarioDraft
from remit.scenarios.plans import PlanLine
from remit.scenarios.truth_grid import (
    FLANGES,
    OPERATING_RULES,
    PRESSURES,
    RuleTable,
    Site,
    sites,
)

__all__ = ["MAX_SITUATIONS", "Situation", "product_situations"]

MAX_SITUATIONS = 8
"""Situations kept per product group."""

_QUANTITIES = (2, 3, 4, 5, 6, 8, 10, 12)
_VALVE_CITES = ("dn", "pn", "body_material", "end_connection", "seat", "seat_max_temp",
                "certificate")
_EXTRA_CITES = MappingProxyType({
    ProductGroup.ACTUATOR_PAIRING: ("iso5211_flange", "breakaway_torque"),
    ProductGroup.SUPERSESSION: ("iso5211_flange",),
    ProductGroup.FFF_SUBSTITUTION: ("iso5211_flange", "face_to_face"),
})
_ACTUATOR_CITES = ("iso5211_flange", "output_torque")
_TITLES = MappingProxyType({
    ProductGroup.GOVERNED_LOOKUP: "Governed lookup",
    ProductGroup.VARIANT_SELECTION: "Variant selection",
    ProductGroup.ACTUATOR_PAIRING: "Actuator pairing",
    ProductGroup.SUPERSESSION: "Supersession substitution",
    ProductGroup.FFF_SUBSTITUTION: "FFF substitution",
    ProductGroup.CUSTOM_SPEC: "Custom-spec fit",
    ProductGroup.CERTIFICATE: "Certificate requirement",
})


class Situation(BaseModel):
    """One product situation: a request, its hidden truths and what the plan quotes.

    Attributes:
        group: the product group.
        index: 1-based position within the group (``s01`` in scenario ids).
        requirement: what the buyer asks for.
        truths: the hidden operating and installation facts.
        certificate_required: the grade the goods must come with (certificate group).
        fit_required: the quote needs a fit review (substitutions, custom specs).
        lines: the plan's quote lines (no discount yet).
        fit_reason: why the fit review is requested (``""``: none).
        datasheet: the released datasheet a fit review cites.
        acceptable: the acceptable SKUs (the wrong-variant oracle).
        tempting: wrong SKUs an agent may be tempted by (same DN, or the requested part).
        summary: one line for titles.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    group: ProductGroup
    index: int = Field(ge=1)
    requirement: Requirement
    truths: SiteTruths
    certificate_required: CertificateGrade | None = None
    fit_required: bool = False
    lines: tuple[PlanLine, ...] = Field(min_length=1)
    fit_reason: str = ""
    datasheet: str | None = None
    acceptable: frozenset[str]
    tempting: tuple[str, ...]
    summary: str

    @property
    def slug(self) -> str:
        """``s01``, ``s02``...: the situation's part of a scenario id."""
        return f"s{self.index:02d}"

    def draft(self) -> ScenarioDraft:
        """The draft this situation starts a composed scenario from."""
        return ScenarioDraft(
            requirement=self.requirement, truths=self.truths,
            certificate_required=self.certificate_required, fit_required=self.fit_required,
            lines=self.lines, fit_reason=self.fit_reason, datasheet=self.datasheet)


class _Candidate(NamedTuple):
    """A grid point that tells a group's story, before it becomes a :class:`Situation`."""

    site: Site
    plan: tuple[str, ...]
    requested: str | None
    story: str
    preferred: bool


def _citable(catalogue: Catalogue, sku: str, names: tuple[str, ...]) -> tuple[str, ...]:
    attributes = catalogue.variant(sku).attributes
    return tuple(name for name in names if name in attributes
                 and catalogue.is_citable(sku, name))


def _datasheet(catalogue: Catalogue, sku: str) -> str | None:
    variant = catalogue.variant(sku)
    for evidence_id in sorted({a.evidence_id for a in variant.attributes.values()}):
        document = catalogue.documents.get(evidence_id)
        if (document is not None and document.kind is EvidenceKind.DATASHEET
                and document.status is AttributeStatus.RELEASED):
            return document.id
    return None


def _custom_story(site: Site, failures: list[frozenset[str]]) -> str | None:
    """Hot service needing PEEK, or chlorides needing 316, with a valve failing only that."""
    if site.temperature > 180 and frozenset({"C4"}) in failures:
        return (f"the medium at {site.temperature:g} C is above the PTFE seat range: "
                "a PEEK seat is needed")
    if site.chlorides and frozenset({"C6"}) in failures:
        return "the medium contains chlorides: a 316 body is needed"
    return None


class _Enumerator:
    """Finds the candidates of each product group on one catalogue."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.rules = RuleTable(catalogue)

    def _split(self, dn: int, site: Site) -> tuple[list[str], dict[str, frozenset[str]]]:
        """The acceptable valves of ``dn`` at ``site``, and the failures of the others."""
        accepted: list[str] = []
        wrong: dict[str, frozenset[str]] = {}
        for valve in self.rules.by_dn[dn]:
            failed = self.rules.failures(valve, site)
            if failed:
                wrong[valve.sku] = failed
            else:
                accepted.append(valve.sku)
        return accepted, wrong

    @staticmethod
    def _wrong_unit_ready(site: Site, catalogue: Catalogue, skus: list[str]) -> bool:
        value, unit = PRESSURES[site.pressure]
        return unit is Unit.PSI and all(catalogue.variant(s).number("pn") < value for s in skus)

    def candidates(self, group: ProductGroup) -> Iterator[_Candidate]:
        """Every grid point that tells ``group``'s story."""
        if group is ProductGroup.SUPERSESSION:
            yield from self._supersession()
            return
        if group is ProductGroup.FFF_SUBSTITUTION:
            yield from self._fff()
            return
        flanges = FLANGES if group is ProductGroup.VARIANT_SELECTION else (None,)
        certificates = ((CertificateGrade.TYPE_3_1,) if group is ProductGroup.CERTIFICATE
                        else (None,))
        for dn in sorted(self.rules.by_dn):
            for site in sites(flanges=flanges, certificates=certificates):
                accepted, wrong = self._split(dn, site)
                if not 1 <= len(accepted) <= 2 or not wrong:
                    continue
                story = self._story(group, site, accepted, wrong)
                if story is None:
                    continue
                plan = self._plan(group, accepted)
                if plan is None:
                    continue
                ready = self._wrong_unit_ready(site, self.catalogue, accepted)
                yield _Candidate(site, plan, None, story, ready)

    def _story(self, group: ProductGroup, site: Site, accepted: list[str],
               wrong: dict[str, frozenset[str]]) -> str | None:
        """What decides the variant, in words, or ``None`` if the group's story fails."""
        failures = list(wrong.values())
        if group is ProductGroup.ACTUATOR_PAIRING:
            return self._actuator_story(accepted, failures)
        if group is ProductGroup.CUSTOM_SPEC:
            return _custom_story(site, failures)
        if group is ProductGroup.GOVERNED_LOOKUP:
            ok = len(accepted) == 1 and all(f & OPERATING_RULES for f in failures)
            return "the stated operating facts single it out" if ok else None
        if group is ProductGroup.CERTIFICATE:
            return "a 2.1-only variant fails C7" if frozenset({"C7"}) in failures else None
        fits_words = len(accepted) + sum(1 for f in failures if not f & OPERATING_RULES)
        deciding = sorted(set().union(*(f for f in failures if f <= {"C1", "C5"})))
        if fits_words < 3 or not deciding:
            return None
        return "the installation decides (" + ", ".join(deciding) + ")"

    def _actuator_story(self, accepted: list[str],
                        failures: list[frozenset[str]]) -> str | None:
        plan = self._plan(ProductGroup.ACTUATOR_PAIRING, accepted)
        if plan is None:
            return None
        valve = self.catalogue.variant(plan[0])
        short = [a.sku for a in self.catalogue.variants_of(Family.ACTUATOR) if a.is_active
                 and not all(r.passed for r in check_actuator(valve, a))
                 and a.code("iso5211_flange") == valve.code("iso5211_flange")]
        if not short and not failures:
            return None
        return f"C1 and C2 pick the actuator for a {valve.code('iso5211_flange')} top flange"

    def _plan(self, group: ProductGroup, accepted: list[str]) -> tuple[str, ...] | None:
        if group is not ProductGroup.ACTUATOR_PAIRING:
            return (accepted[0],)
        for sku in accepted:
            valve = self.catalogue.variant(sku)
            fitting = sorted(
                (a for a in self.catalogue.variants_of(Family.ACTUATOR) if a.is_active
                 and all(r.passed for r in check_actuator(valve, a))
                 and len(_citable(self.catalogue, a.sku, _ACTUATOR_CITES)) == 2),
                key=lambda a: (a.number("output_torque"), a.sku))
            if fitting:
                return (sku, fitting[0].sku)
        return None

    def _supersession(self) -> Iterator[_Candidate]:
        catalogue = self.catalogue
        for old in catalogue.variants_of(Family.BALL_VALVE):
            if old.lifecycle.superseded_by is None:
                continue
            successor = catalogue.current_successor(old.sku)
            dn = round(old.number("dn"))
            for site in sites():
                accepted, _ = self._split(dn, site)
                if successor in accepted and len(accepted) <= 2:
                    ready = self._wrong_unit_ready(site, catalogue, accepted)
                    yield _Candidate(site, (successor,), old.sku,
                                     f"{old.sku} is superseded; its current successor is "
                                     f"{successor}", ready)

    def _fff(self) -> Iterator[_Candidate]:
        catalogue = self.catalogue
        for fff in sorted(catalogue.fff_classes.values(), key=lambda c: c.id):
            dn = round(catalogue.variant(fff.leading_sku).number("dn"))
            for requested, site in itertools.product(
                    fff.members, sites(certificates=(None, CertificateGrade.TYPE_3_1))):
                accepted, wrong = self._split(dn, site)
                members = [m for m in fff.members if m in accepted and m != requested]
                if requested not in wrong or not members or len(accepted) > 2:
                    continue
                substitute = fff.leading_sku if fff.leading_sku in members else members[0]
                requirement = Requirement(dn=dn, quantity=1, requested_sku=requested)
                if not s2_fff(catalogue, requested, substitute, requirement,
                              site.truths()).passed:
                    continue
                rules = ", ".join(sorted(wrong[requested]))
                ready = self._wrong_unit_ready(site, catalogue, accepted)
                yield _Candidate(site, (substitute,), requested,
                                 f"{requested} fails {rules} at this site; {substitute} is "
                                 f"in its FFF class {fff.id}", ready)


def _select(candidates: list[_Candidate]) -> list[_Candidate]:
    """Merge candidates telling the same story; keep up to MAX_SITUATIONS, spread over
    the quoted SKUs (bar before psi, then wrong-unit-ready psi points first)."""
    groups: dict[tuple[object, ...], list[_Candidate]] = defaultdict(list)
    for candidate in candidates:
        unit = PRESSURES[candidate.site.pressure][1]
        groups[(candidate.plan, candidate.requested, candidate.story, unit)].append(candidate)
    merged: dict[tuple[object, ...], _Candidate] = {}
    for key, found in groups.items():
        pool = [c for c in found if c.preferred] or found
        # A stable spread over the equivalent points, so that media and pressures vary.
        digest = hashlib.sha256(repr(key).encode()).digest()
        merged[key] = pool[int.from_bytes(digest[:4], "big") % len(pool)]
    by_plan: dict[tuple[object, ...], list[_Candidate]] = defaultdict(list)
    for candidate in merged.values():
        by_plan[(candidate.requested or "", candidate.plan)].append(candidate)
    queues = [sorted(found, key=lambda c: (PRESSURES[c.site.pressure][1] is Unit.PSI,
                                           c.story)) for _, found in sorted(by_plan.items())]
    chosen: list[_Candidate] = []
    for round_ in itertools.count():
        batch = [queue[round_] for queue in queues if round_ < len(queue)]
        if not batch or len(chosen) >= MAX_SITUATIONS:
            break
        chosen.extend(batch[: MAX_SITUATIONS - len(chosen)])
    return sorted(chosen, key=lambda c: (c.requested or "", c.plan,
                                         PRESSURES[c.site.pressure][1] is Unit.PSI, c.story))


def _situation(catalogue: Catalogue, group: ProductGroup, index: int,
               candidate: _Candidate) -> Situation:
    site = candidate.site
    valve = catalogue.variant(candidate.plan[0])
    dn = round(valve.number("dn"))
    quantity = _QUANTITIES[(index - 1) % len(_QUANTITIES)]
    requirement = Requirement(dn=dn, quantity=quantity,
                              with_actuator=group is ProductGroup.ACTUATOR_PAIRING,
                              requested_sku=candidate.requested)
    truths = site.truths()
    cites = _VALVE_CITES + _EXTRA_CITES.get(group, ())
    if site.flange is not None:
        cites += ("iso5211_flange",)
    lines = [PlanLine(sku=valve.sku, quantity=quantity,
                      cite=_citable(catalogue, valve.sku, cites))]
    lines += [PlanLine(sku=sku, quantity=quantity,
                       cite=_citable(catalogue, sku, _ACTUATOR_CITES))
              for sku in candidate.plan[1:]]
    fit = group in (ProductGroup.SUPERSESSION, ProductGroup.FFF_SUBSTITUTION,
                    ProductGroup.CUSTOM_SPEC)
    reason = {ProductGroup.SUPERSESSION: "substitution: ",
              ProductGroup.FFF_SUBSTITUTION: "FFF substitution: ",
              ProductGroup.CUSTOM_SPEC: "custom spec: "}.get(group, "") + candidate.story
    acceptable = acceptable_skus(catalogue, requirement, truths)
    same_dn = [v.sku for v in catalogue.variants_of(Family.BALL_VALVE)
               if round(v.number("dn")) == dn and v.sku not in acceptable]
    if group is ProductGroup.ACTUATOR_PAIRING:
        same_dn += [a.sku for a in catalogue.variants_of(Family.ACTUATOR)
                    if a.is_active and a.sku not in acceptable
                    and a.code("iso5211_flange") == valve.code("iso5211_flange")]
    medium = truths.operating.medium
    return Situation(
        group=group, index=index, requirement=requirement, truths=truths,
        certificate_required=site.certificate if group is ProductGroup.CERTIFICATE else None,
        fit_required=fit, lines=tuple(lines), fit_reason=reason if fit else "",
        datasheet=_datasheet(catalogue, valve.sku) if fit else None,
        acceptable=acceptable, tempting=tuple(same_dn),
        summary=f"{_TITLES[group]}: DN{dn} {'/'.join(candidate.plan)} for {medium} "
                f"({candidate.story})")


def product_situations(catalogue: Catalogue, group: ProductGroup) -> tuple[Situation, ...]:
    """The situations of ``group`` on ``catalogue``, in a stable order (see the module)."""
    chosen = _select(list(_Enumerator(catalogue).candidates(group)))
    return tuple(_situation(catalogue, group, index, candidate)
                 for index, candidate in enumerate(chosen, start=1))
