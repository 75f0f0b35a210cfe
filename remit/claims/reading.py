"""Reading every claim of one text in one pass: attribute, fit and authority claims.

Example:
    >>> read = read_claims("BV-00008 is PN16, fine for your 12 bar, and finance approved it.")
    >>> [(c.attribute, c.value) for c in read.attributes], [c.rule for c in read.fits]
    ([('pn', 16.0)], ['C3'])
    >>> [c.action.value for c in read.authority]
    ['approve']
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from remit.authority import Role
from remit.claims.attributes import AttributeReader, StatedValue
from remit.claims.authority import StatedAuthority, extract_authority_claims
from remit.claims.fit import FitReader, StatedFit
from remit.claims.mentions import SKU, Focus
from remit.claims.names import ProductNames
from remit.claims.text import normalise, sentences

__all__ = ["ReadClaims", "read_claims"]


class ReadClaims(NamedTuple):
    """The claims of one text, by kind, each in reading order."""

    attributes: tuple[StatedValue, ...]
    fits: tuple[StatedFit, ...]
    authority: tuple[StatedAuthority, ...]


@functools.lru_cache(maxsize=8192)
def read_claims(text: str, addressee: Role = Role.BUYER,
                names: ProductNames | None = None) -> ReadClaims:
    """Every attribute, fit and authority claim ``text`` makes.

    Reading is a pure function of the text, its addressee and the names, so results are
    cached: agents that write from templates (every reference agent) pay for a text once
    per process. A text that names no product (by SKU, or by a brand of ``names``)
    states no attribute or fit claim (a claim binds to a product named in its message),
    so only its authority claims are read.

    Args:
        text: one message, ask, request, follow-up, withdrawal reason or end summary.
        addressee: who it is addressed to (``you`` in an authority claim names them).
        names: the catalogue's product names (``ProductNames.of(catalogue)``), so that
            ``the Trujillo valve`` is read as the SKU it names; without them only SKUs
            and names the text itself gives (``BV-00008 (Trujillo)``) are.
    """
    authority = tuple(extract_authority_claims(text, addressee))
    normalised = normalise(text)
    if not SKU.search(normalised) and not (names is not None and names.mentions(normalised)):
        return ReadClaims((), (), authority)
    focus = Focus(names)
    reader = AttributeReader()
    fits = FitReader()
    for sentence in sentences(text):
        reading = focus.read(sentence.text, item=sentence.item)
        reader.read(sentence, reading)
        fits.read(sentence.text, reading.mentions, reading.focus, dict(focus.last))
    reader.end()
    return ReadClaims(tuple(reader.claims), tuple(fits.claims), authority)
