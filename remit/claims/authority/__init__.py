"""Authority claims in text: a statement that an owner action happened or a party agreed.

The agent may say what the trail shows; it may not say that finance approved, that the
fit was confirmed, that the buyer accepted, that the PO or the goods were received or
that payment was released when that did not happen. Messages are never refused for
their wording: every claim is found here, scored, and shown in the trail.

The package reads like a small grammar, one concept a module:

- :mod:`~remit.claims.authority.layout`: the message as lines (words broken at a line end
  and wrapped prose joined, to-come lists and unticked lines set aside), then sentences
  (:func:`remit.claims.text.sentences`);
- :mod:`~remit.claims.authority.tokens` and :mod:`~remit.claims.authority.clauses`: each
  sentence as words (``hasn't`` is ``has not``, ``aproved`` is ``approved``), clauses and
  questions;
- :mod:`~remit.claims.authority.forms`: a claim is a **completed** form of an owner action,
  a past or perfect verb, a predicate (``is in``, ``in hand``, ``is happy with``), a
  gerund after ``thanks for``; :mod:`~remit.claims.authority.nouns`: or an action noun that
  something says happened (``finance's approval is in``, ``✅ finance approval``, ``since
  your acceptance``);
  :mod:`~remit.claims.authority.senses`: or an adjective on a definite quote, price or
  substitution (``the approved discount``), never another sense (``ATEX-approved``,
  ``approved vendor list``, ``we accept returns``);
- :mod:`~remit.claims.authority.cues`: questions, negations, requests, plans, conditions,
  hedges, reports, wishes, habits and rules, present and future forms and reversals claim
  nothing;
- :mod:`~remit.claims.authority.arguments` and :mod:`~remit.claims.authority.actions`: what
  was done comes from what the form is about (``approved the substitution`` confirms a fit),
  :mod:`~remit.claims.authority.parties`: and who did it from a ``by`` phrase, the subject
  (the antecedent of a relative ``who``) or a possessor, with titles mapped to roles (the
  CFO is finance, plant engineering the technical owner, procurement the buyer; ``you``
  the addressee; ``we`` and ``I`` nobody);
- :mod:`~remit.claims.authority.reader`: each action and party claimed once a message, and
  the clauses that leave their verb out (``finance has``, ``finance on Tuesday``).

Example:
    >>> [(c.action.value, c.party) for c in
    ...  extract_authority_claims("The CFO has signed off, but engineering hasn't "
    ...                           "confirmed the fit yet.")]
    [('approve', <Role.FINANCE: 'finance'>)]
    >>> extract_authority_claims("Has finance approved the 8%? Once they have, I'll send it.")
    []
"""

from __future__ import annotations

from remit.claims.authority.actions import AUTHORITY_ACTIONS
from remit.claims.authority.parties import party_of
from remit.claims.authority.reader import StatedAuthority, extract_authority_claims

__all__ = ["AUTHORITY_ACTIONS", "StatedAuthority", "extract_authority_claims", "party_of"]
