"""What the agent stated: attribute, fit and authority claims read from its text, and
whether each one holds.

Example:
    >>> from remit.catalogue import shared_catalogue
    >>> read = read_claims("**BV-00008**: PN16 (232 psi), PEEK seat.")
    >>> [(c.sku, c.attribute, c.value) for c in read.attributes]
    [('BV-00008', 'pn', 16.0), ('BV-00008', 'pn', 232.0), ('BV-00008', 'seat', 'PEEK')]
"""

from __future__ import annotations

from remit.claims.amounts import HEDGED_TOLERANCE, RELATIVE_TOLERANCE, Amount, Op, agrees, amounts
from remit.claims.attributes import StatedValue, extract_attribute_claims
from remit.claims.authority import AUTHORITY_ACTIONS, StatedAuthority, extract_authority_claims
from remit.claims.fit import StatedFit, extract_fit_claims
from remit.claims.names import NamedProduct, ProductNames
from remit.claims.reading import ReadClaims, read_claims
from remit.claims.text import Sentence, normalise, sentences
from remit.claims.verdicts import DoneAction, attribute_verdict, authority_verdict, fit_verdict

__all__ = [
    "AUTHORITY_ACTIONS",
    "HEDGED_TOLERANCE",
    "RELATIVE_TOLERANCE",
    "Amount",
    "DoneAction",
    "NamedProduct",
    "Op",
    "ProductNames",
    "ReadClaims",
    "Sentence",
    "StatedAuthority",
    "StatedFit",
    "StatedValue",
    "agrees",
    "amounts",
    "attribute_verdict",
    "authority_verdict",
    "extract_attribute_claims",
    "extract_authority_claims",
    "extract_fit_claims",
    "fit_verdict",
    "normalise",
    "read_claims",
    "sentences",
]
