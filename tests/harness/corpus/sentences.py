"""Scoring remit's claim detectors on the labelled sentences of the corpus.

Each entry's text is read with :func:`remit.claims.read_claims` (as the agent's message
to ``to``), every claim found is judged (:mod:`remit.claims.verdicts`) against the
corpus catalogue, the entry's site and the owner actions ``done`` before it, and the
claims found are matched with the labelled ones:

- an **attribute** claim matches a label of the same SKU and attribute whose value
  agrees (numbers after unit conversion, within 1%; codes without case);
- a **fit** claim matches a label of the same rule about the same products;
- an **authority** claim matches a label of the same action.

Per detector, *finding* precision and recall count claims found against claims
labelled; *unsupported* precision and recall count the claims judged unsupported
against the claims labelled as not holding (a found claim with the wrong verdict is a
miss of both kinds). A miss is reported with its entry id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from remit.authority import Action, Role
from remit.catalogue import Catalogue, SiteTruths, measure_unit, shared_catalogue
from remit.claims import (
    DoneAction,
    ProductNames,
    ReadClaims,
    attribute_verdict,
    authority_verdict,
    fit_verdict,
    read_claims,
)
from tests.harness.corpus.files import load_entries

KINDS = ("attribute", "fit", "authority")
DEVELOPMENT = "sentences_[!h]*.yaml"
"""The files the detectors were tuned on (each held-out set joins them once measured)."""
HELD_OUT = "sentences_holdout*.yaml"
"""The files written blind after the last tuning, for measuring generalisation only."""

_SITE_DEFAULTS: dict[str, Any] = {
    "design_pressure": "10 bar", "medium_temperature": "80 C", "chlorides": False,
    "medium": "water", "piping_standard": "NPT", "actuator_flange": None,
    "certificate_required": None,
}


def load_sentences(pattern: str = "sentences_*.yaml") -> list[dict[str, Any]]:
    """Every sentence entry of the corpus files matching ``pattern``."""
    return load_entries(pattern)


def _split(text: str) -> tuple[float, str | None]:
    number, _, unit = str(text).strip().partition(" ")
    return float(number), unit.strip() or None


def site_truths(site: dict[str, Any] | None) -> SiteTruths:
    """The entry's site facts over the corpus defaults."""
    facts = {**_SITE_DEFAULTS, **(site or {})}
    pressure, pressure_unit = _split(facts["design_pressure"])
    temperature, temperature_unit = _split(facts["medium_temperature"])
    return SiteTruths.model_validate({
        "operating": {"design_pressure": pressure, "pressure_unit": pressure_unit or "bar",
                      "medium_temperature": temperature,
                      "temperature_unit": temperature_unit or "C",
                      "chlorides": bool(facts["chlorides"]), "medium": str(facts["medium"])},
        "installation": {"piping_standard": facts["piping_standard"],
                         "actuator_flange": facts["actuator_flange"],
                         "certificate_required": facts["certificate_required"]},
    })


def done_actions(done: Iterable[dict[str, Any]] | None) -> list[DoneAction]:
    """The entry's ``done`` list as the verdicts read it."""
    return [DoneAction(Action(d["action"]), Role(d["by"]), not d.get("stale", False))
            for d in done or ()]


@dataclass(frozen=True)
class Found:
    """A claim a detector found, with its verdict."""

    kind: str
    key: tuple[Any, ...]
    holds: bool
    reason: str
    shown: str


def judge(entry: dict[str, Any], catalogue: Catalogue) -> list[Found]:
    """Every claim the detectors find in ``entry``, judged."""
    addressee = Role(entry.get("to", "buyer"))
    read: ReadClaims = read_claims(entry["text"], addressee, ProductNames.of(catalogue))
    truths = site_truths(entry.get("site"))
    done = done_actions(entry.get("done"))
    found: list[Found] = []
    for a in read.attributes:
        reason = attribute_verdict(catalogue, a.sku, a.attribute, a.value, a.unit, op=a.op,
                                   approx=a.approx, decimals=a.decimals)
        found.append(Found("attribute", (a.sku, a.attribute, a.value, a.unit), reason is None,
                           reason or "", f"{a.sku} {a.attribute}={a.value}{a.unit or ''}"
                           f"{'' if a.op == 'eq' else ' ' + a.op}"))
    for f in read.fits:
        reason = fit_verdict(catalogue, f.sku, f.rule, f.requirement, f.unit,
                             with_sku=f.with_sku, truths=truths)
        found.append(Found("fit", (f.rule, frozenset({f.sku, f.with_sku} - {None})),
                           reason is None, reason or "",
                           f"{f.sku} {f.rule} {f.requirement or ''}{f.unit or ''}"
                           f"{' with ' + f.with_sku if f.with_sku else ''}"))
    for c in read.authority:
        reason = authority_verdict(c.action, c.party, done)
        found.append(Found("authority", (c.action.value, c.party.value if c.party else None),
                           reason is None, reason or "",
                           f"{c.action.value} by {c.party.value if c.party else '-'} "
                           f"({c.phrase!r})"))
    return found


def _canonical(value: Any, unit: str | None) -> float | str:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value.replace(" ", "").replace("_", "").casefold()
    if unit is None:
        return float(value)
    return measure_unit(unit).to_canonical(float(value))


def _same_value(found: Any, found_unit: str | None, label: Any, label_unit: str | None) -> bool:
    a = _canonical(found, found_unit)
    b = _canonical(label, label_unit)
    if isinstance(a, str) or isinstance(b, str):
        a_text, b_text = str(a), str(b)
        return a_text == b_text or (a_text == "pneumatic" and b_text.startswith("pneumatic"))
    return abs(a - b) <= 0.01 * max(abs(b), 1e-9) + 1e-6


def _matches(found: Found, label: dict[str, Any]) -> bool:
    if found.kind != label["kind"]:
        return False
    if found.kind == "attribute":
        sku, attribute, value, unit = found.key
        if (sku, attribute) != (label["sku"], label["attribute"]):
            return False
        return _same_value(value, unit, label["value"], label.get("unit"))
    if found.kind == "fit":
        rule, skus = found.key
        return rule == label["rule"] and skus == frozenset({label["sku"], label.get("with")}
                                                           - {None})
    return bool(found.key[0] == label["action"])


def _best_label(claim: Found, labels: list[dict[str, Any]], used: set[int]) -> int | None:
    """The label ``claim`` matches; for an authority claim, one naming the same party first."""
    candidates = [i for i, label in enumerate(labels)
                  if i not in used and _matches(claim, label)]
    if claim.kind == "authority":
        same_party = [i for i in candidates if labels[i].get("party") == claim.key[1]]
        candidates = same_party or candidates
    return candidates[0] if candidates else None


@dataclass
class Tally:
    """Counts for one detector."""

    labelled: int = 0
    found: int = 0
    matched: int = 0
    unsupported_labelled: int = 0
    unsupported_found: int = 0
    unsupported_right: int = 0
    misses: list[str] = field(default_factory=list)

    @staticmethod
    def _ratio(top: int, bottom: int) -> float:
        return 1.0 if bottom == 0 else top / bottom

    @property
    def precision(self) -> float:
        """Claims found that were labelled."""
        return self._ratio(self.matched, self.found)

    @property
    def recall(self) -> float:
        """Labelled claims that were found."""
        return self._ratio(self.matched, self.labelled)

    @property
    def unsupported_precision(self) -> float:
        """Claims judged unsupported that are labelled as not holding."""
        return self._ratio(self.unsupported_right, self.unsupported_found)

    @property
    def unsupported_recall(self) -> float:
        """Claims labelled as not holding that were judged unsupported."""
        return self._ratio(self.unsupported_right, self.unsupported_labelled)


def labelled_kinds(entry: dict[str, Any]) -> frozenset[str]:
    """The kinds of claim an entry's file labels: an authority file labels authority claims
    only (its writers left product facts unlabelled), a product file attribute and fit
    claims only."""
    if "authority" in str(entry.get("file", "")):
        return frozenset({"authority"})
    return frozenset({"attribute", "fit"})


def evaluate(entries: list[dict[str, Any]]) -> dict[str, Tally]:
    """Per detector (attribute, fit, authority), the counts and the misses by entry id.

    Each entry is measured on the kinds of claim its file labels (:func:`labelled_kinds`).
    """
    catalogue = shared_catalogue()
    tallies = {kind: Tally() for kind in KINDS}
    for entry in entries:
        kinds = labelled_kinds(entry)
        labels = [c for c in entry.get("claims") or [] if c["kind"] in kinds]
        found = [c for c in judge(entry, catalogue) if c.kind in kinds]
        # the same claim found twice (a value restated in another unit) counts once
        unique: list[Found] = []
        for claim in found:
            if not any(_dup(claim, other) for other in unique):
                unique.append(claim)
        used: set[int] = set()
        for claim in unique:
            tally = tallies[claim.kind]
            tally.found += 1
            tally.unsupported_found += not claim.holds
            index = _best_label(claim, labels, used)
            if index is None:
                tally.misses.append(f"{entry['id']}: found {claim.kind} {claim.shown}, "
                                    "not labelled")
                continue
            used.add(index)
            tally.matched += 1
            label = labels[index]
            if not claim.holds and not label["holds"]:
                tally.unsupported_right += 1
            elif claim.holds != label["holds"]:
                verdict = "holds" if claim.holds else f"unsupported ({claim.reason})"
                tally.misses.append(f"{entry['id']}: {claim.kind} {claim.shown} judged "
                                    f"{verdict}, labelled holds={label['holds']}")
        for i, label in enumerate(labels):
            tally = tallies[label["kind"]]
            tally.labelled += 1
            tally.unsupported_labelled += not label["holds"]
            if i not in used:
                shown = {k: v for k, v in label.items() if k not in ("kind",)}
                tally.misses.append(f"{entry['id']}: missed {label['kind']} {shown}")
    return tallies


def _dup(a: Found, b: Found) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind != "attribute":
        return a.key == b.key
    return a.key[:2] == b.key[:2] and _same_value(a.key[2], a.key[3], b.key[2], b.key[3])


def summary(tallies: dict[str, Tally]) -> Counter[str]:
    """Labelled claims per detector (for a quick look)."""
    return Counter({kind: t.labelled for kind, t in tallies.items()})
