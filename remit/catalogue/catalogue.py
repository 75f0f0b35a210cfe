"""The governed catalogue: variants, evidence and FFF classes, indexed once.

A :class:`Catalogue` is immutable. Its records are checked for consistency once, when
it is built (see :mod:`remit.catalogue.integrity`), not again when the built catalogue
is handed to another model (a trial's world setup). The indexes a query needs (variants
by family, FFF class by SKU, SKU spellings for "did you mean", attribute postings for
search: :mod:`remit.catalogue.index`) are built once, so a catalogue of 10,000+ SKUs
stays cheap to query. Values derived from the records alone (the acceptable set of a
requirement at a site) are kept by the catalogue too (:meth:`Catalogue.derived`). Its
canonical JSON and fingerprint identify it in run manifests.

Example:
    >>> from remit.catalogue import generate_catalogue
    >>> catalogue = generate_catalogue(seed=0)
    >>> len(catalogue.fingerprint())
    64
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Self, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from remit.catalogue.attributes import AttributeStatus, AttributeValue, EvidenceDocument
from remit.catalogue.exceptions import UnknownAttributeError, UnknownEvidenceError
from remit.catalogue.families import Family, attribute_specs
from remit.catalogue.index import AttributeIndex
from remit.catalogue.integrity import integrity_problems
from remit.catalogue.products import FffClass, LifecycleStatus, Variant
from remit.catalogue.search import Constraint, ConstraintOp
from remit.errors import UnknownSkuError

__all__ = ["Catalogue"]

_MAX_PROBLEMS_SHOWN = 12
_MISSING = object()
_T = TypeVar("_T")


def _normalised(sku: str) -> str:
    return "".join(ch for ch in sku.casefold() if ch.isalnum())


class Catalogue(BaseModel):
    """An immutable, validated set of variants, evidence documents and FFF classes.

    Attributes:
        variants: variants keyed by SKU.
        documents: evidence documents (datasheet revisions, certificates) keyed by id;
            given and serialised as ``evidence`` (the method :meth:`evidence` looks one
            up by id).
        fff_classes: form-fit-function classes keyed by id.

    Do not mutate the dictionaries: the indexes are built once. Derive a changed
    catalogue with :meth:`with_records` (never ``model_copy(update=...)``, which would
    carry the old indexes over).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_by_name=True,
                              validate_by_alias=True, serialize_by_alias=True)

    variants: dict[str, Variant]
    documents: dict[str, EvidenceDocument] = Field(alias="evidence")
    fff_classes: dict[str, FffClass] = {}

    _by_family: dict[Family, tuple[Variant, ...]] = PrivateAttr(default_factory=dict)
    _fff_of: dict[str, FffClass] = PrivateAttr(default_factory=dict)
    _spellings: dict[str, str] = PrivateAttr(default_factory=dict)
    _canonical: str | None = PrivateAttr(default=None)
    _index: AttributeIndex | None = PrivateAttr(default=None)
    _derived: dict[Hashable, object] = PrivateAttr(default_factory=dict)
    _verified: bool = PrivateAttr(default=False)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        # Pydantic runs a model's "after" validators again whenever a built instance is
        # a field of another model being validated (a WorldSetup, once per trial): the
        # records cannot have changed, so they are checked once per instance.
        if self._verified:
            return self
        problems = integrity_problems(self.variants, self.documents, self.fff_classes)
        if problems:
            shown = "; ".join(problems[:_MAX_PROBLEMS_SHOWN])
            more = len(problems) - _MAX_PROBLEMS_SHOWN
            raise ValueError(f"catalogue is inconsistent: {shown}"
                             + (f" (and {more} more)" if more > 0 else ""))
        self._verified = True
        return self

    def model_post_init(self, context: object, /) -> None:
        """Build the query indexes once."""
        grouped: dict[Family, list[Variant]] = {family: [] for family in Family}
        for sku in sorted(self.variants):
            grouped[self.variants[sku].family].append(self.variants[sku])
        self._by_family = {family: tuple(found) for family, found in grouped.items()}
        self._fff_of = {sku: fff for fff in self.fff_classes.values() for sku in fff.members}
        self._spellings = {_normalised(sku): sku for sku in self.variants}

    @classmethod
    def of(
        cls,
        variants: Iterable[Variant],
        evidence: Iterable[EvidenceDocument],
        fff_classes: Iterable[FffClass] = (),
    ) -> Catalogue:
        """Build a catalogue from plain iterables of records (keys are their ids)."""
        return cls(
            variants={variant.sku: variant for variant in variants},
            documents={document.id: document for document in evidence},
            fff_classes={fff.id: fff for fff in fff_classes},
        )

    def with_records(
        self,
        variants: Iterable[Variant] = (),
        evidence: Iterable[EvidenceDocument] = (),
        fff_classes: Iterable[FffClass] = (),
    ) -> Catalogue:
        """A new catalogue with these records added or replaced (same id), re-validated."""
        return Catalogue(
            variants={**self.variants, **{v.sku: v for v in variants}},
            documents={**self.documents, **{d.id: d for d in evidence}},
            fff_classes={**self.fff_classes, **{f.id: f for f in fff_classes}},
        )

    def _private(self) -> dict[str, Any]:
        """The private attributes, read directly: the hot queries read them on every
        call, and pydantic's lookup of one private attribute costs microseconds."""
        private = self.__pydantic_private__
        assert private is not None
        return private

    def __getstate__(self) -> dict[Any, Any]:
        """The state pickled: the records and the indexes, without what was derived
        from them later (rebuilt on use; a derived value need not be picklable)."""
        state = super().__getstate__()
        private = state.get("__pydantic_private__")
        if private:
            state["__pydantic_private__"] = {**private, "_index": None, "_derived": {}}
        return state

    def __eq__(self, other: object) -> bool:
        """Equal records make equal catalogues, whatever either has indexed or derived."""
        if not isinstance(other, Catalogue):
            return NotImplemented
        return (self.variants == other.variants and self.documents == other.documents
                and self.fff_classes == other.fff_classes)

    __hash__ = BaseModel.__hash__  # defining __eq__ would otherwise drop it

    def __contains__(self, sku: object) -> bool:
        return sku in self.variants

    def skus(self, family: Family | None = None) -> tuple[str, ...]:
        """All SKUs (of ``family`` if given), sorted."""
        return tuple(variant.sku for variant in self.variants_of(family))

    def variants_of(self, family: Family | None = None) -> tuple[Variant, ...]:
        """All variants (of ``family`` if given), sorted by SKU within each family."""
        if family is not None:
            return self._private()["_by_family"][family]  # type: ignore[no-any-return]
        by_family = self._private()["_by_family"]
        return tuple(v for f in Family for v in by_family[f])

    def variant(self, sku: str) -> Variant:
        """The variant ``sku``.

        Raises:
            UnknownSkuError: no such SKU; the message suggests close spellings and, for a
                suggested superseded SKU, its current successor.
        """
        found = self.variants.get(sku)
        if found is None:
            raise UnknownSkuError(sku, self._hint(sku))
        return found

    def _hint(self, sku: str) -> str:
        exact = self._private()["_spellings"].get(_normalised(sku))
        suggestions = [exact] if exact else difflib.get_close_matches(
            sku, self.variants.keys(), n=3, cutoff=0.6
        )
        if not suggestions:
            return ("no similar SKU in the catalogue; find candidates with "
                    "Catalogue.search(family=..., ...)")
        described: list[str] = []
        for suggestion in suggestions:
            status = self.variants[suggestion].lifecycle.status
            if status is LifecycleStatus.SUPERSEDED:
                described.append(f"{suggestion!r} (superseded; current successor "
                                 f"{self.current_successor(suggestion)!r})")
            elif status is LifecycleStatus.DISCONTINUED:
                described.append(f"{suggestion!r} (discontinued)")
            else:
                described.append(repr(suggestion))
        return f"did you mean {', '.join(described)}?"

    def evidence(self, evidence_id: str) -> EvidenceDocument:
        """The evidence document ``evidence_id`` (the records are in :attr:`documents`).

        Raises:
            UnknownEvidenceError: no such document; the message suggests close ids.
        """
        found = self.documents.get(evidence_id)
        if found is None:
            close = difflib.get_close_matches(evidence_id, self.documents.keys(), n=3)
            hint = (f"did you mean {', '.join(map(repr, close))}?" if close else
                    "evidence ids look like DS-<sku>-r<k> or CERT-<sku>-<grade>")
            raise UnknownEvidenceError(evidence_id, hint)
        return found

    def is_citable(self, sku: str, name: str) -> bool:
        """True when attribute ``name`` of ``sku`` and its evidence are both released."""
        attribute = self.variant(sku).attribute(name)
        document = self.evidence(attribute.evidence_id)
        return (attribute.status is AttributeStatus.RELEASED
                and document.status is AttributeStatus.RELEASED)

    def draft_attributes(self, sku: str) -> tuple[str, ...]:
        """Names of the attributes of ``sku`` that may not be cited (draft fact or evidence)."""
        return tuple(name for name in sorted(self.variant(sku).attributes)
                     if not self.is_citable(sku, name))

    def successor_chain(self, sku: str) -> tuple[str, ...]:
        """The supersession chain from ``sku`` forward: ``(sku, successor, ..., current)``.

        A SKU that is not superseded has the chain ``(sku,)``. Chains are one-way; the
        catalogue rejects cycles when it is built.
        """
        chain = [self.variant(sku).sku]
        successor = self.variants[sku].lifecycle.superseded_by
        while successor is not None:
            chain.append(successor)
            successor = self.variants[successor].lifecycle.superseded_by
        return tuple(chain)

    def current_successor(self, sku: str) -> str:
        """The last SKU of ``sku``'s supersession chain (``sku`` itself if not superseded)."""
        return self.successor_chain(sku)[-1]

    def fff_class_of(self, sku: str) -> FffClass | None:
        """The FFF class ``sku`` belongs to, or ``None``."""
        self.variant(sku)
        return self._private()["_fff_of"].get(sku)  # type: ignore[no-any-return]

    def search(
        self,
        family: Family | None = None,
        constraints: Iterable[Constraint] = (),
        *,
        active_only: bool = False,
        **equals: AttributeValue,
    ) -> tuple[Variant, ...]:
        """Variants matching every constraint, sorted by family then SKU.

        Args:
            family: restrict to one family.
            constraints: :class:`Constraint` objects (``pn min 290 psi``...).
            active_only: drop discontinued and superseded variants.
            **equals: shorthand equality constraints, in the attribute's recorded unit
                (``seat="PEEK"``, ``dn=50``).

        Raises:
            UnknownAttributeError: a constraint names an attribute the family (or, without
                a family, every family) lacks.
            UnitError: a constraint's unit measures the wrong quantity.

        Example:
            >>> from remit.catalogue import generate_catalogue
            >>> hits = generate_catalogue(0).search(Family.BALL_VALVE, seat="PEEK")
            >>> all(v.code("seat") == "PEEK" for v in hits)
            True
        """
        wanted = [*constraints, *(Constraint(attribute=name, op=ConstraintOp.EQ, value=value)
                                  for name, value in equals.items())]
        families = (family,) if family is not None else tuple(Family)
        known = sorted({spec.name for f in families for spec in attribute_specs(f)})
        for constraint in wanted:
            if constraint.attribute not in known:
                subject = f"family={family.value!r}" if family else "any family"
                raise UnknownAttributeError(subject, constraint.attribute, tuple(known))
        return self.matching(family, wanted, active_only=active_only)

    def matching(
        self,
        family: Family | None,
        constraints: Iterable[Constraint],
        *,
        active_only: bool = False,
    ) -> tuple[Variant, ...]:
        """Variants (of ``family`` if given) matching every constraint, sorted by family
        then SKU; an attribute no variant carries matches nothing (:meth:`search` refuses
        it instead).

        The answer is the one a scan of every variant with
        :meth:`Constraint.matches` gives, errors included, but it costs what it finds:
        the matches come from the attribute postings of
        :class:`~remit.catalogue.index.AttributeIndex`.

        Raises:
            UnitError: a constraint's unit measures the wrong quantity.
        """
        wanted = tuple(constraints)
        index = self._attribute_index()
        found: list[Variant] = []
        for member in (family,) if family is not None else tuple(Family):
            matched = index.matching(member, wanted)
            if matched is None:
                return self._scan(family, wanted, active_only)
            found += matched
        if active_only:
            return tuple(variant for variant in found if variant.is_active)
        return tuple(found)

    def _scan(self, family: Family | None, constraints: tuple[Constraint, ...],
              active_only: bool) -> tuple[Variant, ...]:
        return tuple(
            variant for variant in self.variants_of(family)
            if (variant.is_active or not active_only)
            and all(constraint.matches(variant) for constraint in constraints)
        )

    def having_number(self, family: Family, name: str, value: float) -> tuple[Variant, ...]:
        """The variants of ``family`` whose bare number ``name`` (``dn``) is exactly
        ``value``, sorted by SKU.

        Raises:
            UnknownAttributeError: a variant of ``family`` lacks ``name``, or it is a code.
        """
        variants = self._private()["_by_family"][family]
        positions = self._attribute_index().equal(family, name, value)
        if positions is None:  # not a bare number throughout: Variant.number says why
            return tuple(v for v in variants if v.number(name) == value)
        return tuple(variants[position] for position in positions)

    def _attribute_index(self) -> AttributeIndex:
        private = self._private()
        index = private["_index"]
        if index is None:
            index = private["_index"] = AttributeIndex(private["_by_family"])
        return index  # type: ignore[no-any-return]

    def derived(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """The value ``compute()`` derives from this catalogue for ``key``, computed once.

        The catalogue is immutable, so a value derived from its records and from the
        immutable inputs ``key`` names (frozen models) never changes; the catalogue keeps
        it for the life of the catalogue (a shared catalogue: for the process). ``key``
        must name everything ``compute`` reads besides the catalogue.

        Example:
            >>> catalogue = generate_catalogue(0)                     # doctest: +SKIP
            >>> catalogue.derived(("actives",), lambda: len(catalogue.search(active_only=True)))
            ...                                                       # doctest: +SKIP
        """
        derived = self._private()["_derived"]
        found = derived.get(key, _MISSING)
        if found is _MISSING:
            found = derived[key] = compute()
        return cast(_T, found)

    def canonical_json(self) -> str:
        """The catalogue as JSON with sorted keys, compact separators, Decimals as strings.

        The same records always give the same string, byte for byte.
        """
        if self._canonical is None:
            records = self.model_dump(mode="json", by_alias=True)
            self._canonical = json.dumps(records, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False)
        return self._canonical

    def fingerprint(self) -> str:
        """SHA-256 (hex) of :meth:`canonical_json`."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()
