"""Catalogue lookup errors that :mod:`remit.errors` does not name.

They extend the shared tree (``RemitError -> CatalogueError``) and are user mistakes,
so they also derive from :class:`ValueError`:

```
CatalogueError
├── UnknownAttributeError   (an attribute the SKU or family does not carry)
├── UnknownEvidenceError    (an evidence document id the catalogue does not hold)
├── SubstitutionError       (a substitution check that lacks what it needs)
├── GenerationError         (generator parameters out of range)
└── WrongFamilyError        (a rule or lookup applied to a SKU of another family)
```
"""

from __future__ import annotations

from remit.errors import CatalogueError

__all__ = [
    "GenerationError",
    "SubstitutionError",
    "UnknownAttributeError",
    "UnknownEvidenceError",
    "WrongFamilyError",
]


class UnknownAttributeError(CatalogueError, ValueError):
    """An attribute name that a SKU (or a family) does not carry.

    Attributes:
        subject: the SKU or family that was asked.
        attribute: the attribute name that was asked for.
        known: the attribute names the subject does carry.
    """

    def __init__(self, subject: str, attribute: str, known: tuple[str, ...]) -> None:
        self.subject = subject
        self.attribute = attribute
        self.known = known
        super().__init__(
            f"cannot read attribute={attribute!r} of {subject}: it carries no such "
            f"governed attribute; use one of {', '.join(known)}"
        )


class UnknownEvidenceError(CatalogueError, ValueError):
    """An evidence document id that the catalogue does not hold.

    Attributes:
        evidence_id: the id that was asked for.
    """

    def __init__(self, evidence_id: str, hint: str = "") -> None:
        self.evidence_id = evidence_id
        message = f"unknown evidence document evidence_id={evidence_id!r}"
        if hint:
            message += f"; {hint}"
        super().__init__(message)


class WrongFamilyError(CatalogueError, ValueError):
    """A SKU of one family used where another family is required.

    Attributes:
        sku: the offending SKU.
        family: its family.
        expected: the family (or families) the operation needs.
    """

    def __init__(self, sku: str, family: str, expected: str, operation: str) -> None:
        self.sku = sku
        self.family = family
        self.expected = expected
        self.operation = operation
        super().__init__(
            f"cannot {operation} with sku={sku!r}: its family={family!r}, but this needs "
            f"{expected}; pass a SKU of that family"
        )


class SubstitutionError(CatalogueError, ValueError):
    """A substitution check that cannot be evaluated with what it was given.

    Attributes:
        original: the SKU being replaced.
        substitute: the proposed SKU.
    """

    def __init__(self, original: str, substitute: str, problem: str) -> None:
        self.original = original
        self.substitute = substitute
        super().__init__(
            f"cannot check substitution of original={original!r} by "
            f"substitute={substitute!r}: {problem}"
        )


class GenerationError(CatalogueError, ValueError):
    """Catalogue generator parameters out of range.

    Attributes:
        parameter: the offending parameter name.
        value: its value.
    """

    def __init__(self, parameter: str, value: object, expected: str) -> None:
        self.parameter = parameter
        self.value = value
        super().__init__(f"cannot generate a catalogue with {parameter}={value!r}; "
                         f"{parameter} must be {expected}")
