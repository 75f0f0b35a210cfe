"""Other senses of the action words, and the attributive sense that claims.

Not owner actions: certifications (``ATEX-approved``, ``WRAS approved``, ``API 607
approved``, ``approved for potable water use``, ``approved by Lloyd's Register``), norms
(``industry-accepted``, ``accepted by most water authorities``), our own standing (``we're
approved to supply``), things no owner approves (``the weld procedure is approved``, ``I
approved the layout of the PDF``), a check of ours (``pressure: OK``), goods we received or a
PO we sent. An adjective claims on a definite quote, price or substitution (``the approved
discount``, ``the signed quote``), not on anything else (``an approved supplier``, ``the
approved drawings``).
"""

from __future__ import annotations

from remit.authority import Role
from remit.claims.authority.actions import Found, resolve
from remit.claims.authority.clauses import Clause
from remit.claims.authority.lexicon import (
    BE,
    CERTIFIERS,
    DETERMINERS,
    GENERIC_HEADS,
    GROUPS,
    IDENTIFIER,
    INDEFINITE,
    LGTM,
    MODALS,
    MONTHS,
    NP_STOP,
    OK,
    PREPOSITIONS,
    PRONOUNS,
    QUANTIFIERS,
    QUOTE_CODE,
    TIME,
    TITLE_ACRONYMS,
    TITLES,
)
from remit.claims.authority.parties import mentions
from remit.claims.authority.phrases import first_phrase, kind_of, noun_phrase, np_word
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import verb_like

_OWN_PREFIXES = frozenset({"re", "pre", "co", "counter", "ok", "rubber", "green", "signed"})
"""Prefixes of a hyphenated form that keep it an owner's action (``re-approved``)."""


def other_sense(r: Reading, form: Form, lo: int) -> bool:
    """A certification or a norm read off the words before the form: ``ATEX-approved``,
    ``WRAS approved``, ``API 607 approved``, ``industry-accepted``, ``widely accepted``."""
    tok = r.toks[form.at]
    if "-" in tok.word and form.family in ("approve", "accept") \
            and tok.word.split("-")[0] not in _OWN_PREFIXES:
        return True
    if form.at <= lo:
        return False
    if r.toks[form.at - 1].word in CERTIFIERS:
        return True
    k = form.at - 1
    while k > lo and IDENTIFIER.fullmatch(r.toks[k].word):
        k -= 1   # "API 607 approved": the standard's number
    prev = r.toks[k]
    return (form.family in ("approve", "accept") and prev.text.isupper()
            and not tok.text.isupper() and prev.word not in NP_STOP
            and prev.text.isalpha() and 2 <= len(prev.text) <= 6
            and prev.text not in TITLE_ACRONYMS and prev.word not in TITLES
            and kind_of(prev.word) is None)


def not_an_owner(r: Reading, form: Form, clause: Clause, kind: str | None,
                 subject: tuple[int, int], *, parties: list[Role], active: bool) -> bool:
    """Forms that, read with what they are about and who did them, say something other than
    an owner's action (see the module docstring)."""
    toks = r.toks
    something_else = form.family in ("approve", "accept") and kind is None and not parties \
        and (names_a_thing(r, (form.end, clause.hi), first=True) if active
             else names_a_thing(r, subject))
    ours = (form.family == "approve" and form.end + 1 < clause.hi
            and toks[form.end].word == "to" and toks[form.end + 1].word not in DETERMINERS
            and any(m.kind == "we" for m in mentions(toks, *subject)))
    certified = not parties and (
        (form.family == "approve" and kind in (None, "product") and _purpose(r, form, clause))
        or (kind not in ("commercial", "quote", "fit") and _certifier(r, form, clause)))
    sent_by_us = form.family == "send" and not parties and active
    # "pressure: OK" is a check of ours; "fit ok (engineering)" is engineering's
    our_check = (form.word in OK or form.word in LGTM) and not parties
    # goods are the buyer's to receive: "our warehouse has received your returned actuator"
    received_by_us = form.family == "receive" and kind in ("goods", "product") \
        and any(m.kind == "we" for m in mentions(toks, *subject))
    return ours or certified or something_else or sent_by_us or received_by_us or our_check


def names_a_thing(r: Reading, span: tuple[int, int], *, first: bool = False) -> bool:
    """Whether the head of a subject (or, ``first``, of the object that starts ``span``) is
    a noun that names something (not a pronoun, ``the revised one``, a party, the owners
    together, ``everything`` or a status): ``the weld procedure``, ``the layout of the
    PDF``."""
    toks = r.toks
    np = noun_phrase(toks, *span) if first else first_phrase(toks, *span)
    if np is None or (np.lo > span[0] and toks[np.lo - 1].word in PREPOSITIONS) \
            or (np.hi < len(toks) and toks[np.hi].word in ("one", "ones")):
        return False   # "the revised one": a pro-form for what was named before
    head = toks[np.head].word
    return (head.isalpha() and head not in GENERIC_HEADS and head not in PRONOUNS
            and head not in GROUPS
            and all(m.possessor and m.kind != "title" for m in mentions(toks, np.lo, np.hi)))


def _purpose(r: Reading, form: Form, clause: Clause) -> bool:
    """Whether ``for``/``to``/``under`` after the form names a use, a standard or a scheme
    rather than anything an owner approves (``approved for potable water use``, ``approved
    to API 6D``)."""
    toks = r.toks
    for j in range(form.end, clause.hi - 1):
        if verb_like(toks[j]):
            break
        if toks[j].word in ("for", "to", "under"):
            np = noun_phrase(toks, j + 1, clause.hi)
            return np is not None and np.kind is None
    return False


def _certifier(r: Reading, form: Form, clause: Clause) -> bool:
    """Whether a ``by`` phrase after the form names someone by name who is none of the
    parties (``approved by Lloyd's Register``), not a means (``by email``), or a group by
    quantity (``by most water authorities``)."""
    toks = r.toks
    k = next((j for j in range(form.end, clause.hi) if toks[j].word == "by"), None)
    if form.family not in ("approve", "accept") or k is None or k + 1 >= clause.hi:
        return False
    agent = toks[k + 1]
    if agent.word in QUANTIFIERS:
        return True
    return agent.text[:1].isupper() and agent.word[:1].isalpha() and not (
        agent.word in DETERMINERS or agent.word in TIME or agent.word in MONTHS)


def attributive(r: Reading, form: Form, clause: Clause) -> list[Found] | None:
    """The claims of a form used as an adjective (see the module docstring), or ``None``
    when the form is not one."""
    toks, i = r.toks, form.at
    nxt = toks[i + 1].word if i + 1 < clause.hi else ""
    prev = toks[i - 1].word if i > clause.lo else ""
    modifies = (form.family in ("approve", "accept", "sign", "confirm", "agree")
                and form.end == i + 1 and bool(nxt) and np_word(toks, i + 1, clause.hi)
                and nxt not in DETERMINERS
                and (not prev or prev in DETERMINERS or prev in BE or prev == "'s"))
    if not modifies or (prev not in DETERMINERS and (
            IDENTIFIER.fullmatch(nxt) or nxt.endswith("%") or QUOTE_CODE.fullmatch(nxt))):
        return None   # a verb: "finance approved 10%", "has accepted Q-1"
    np = noun_phrase(toks, i + 1, clause.hi)
    definite = prev in DETERMINERS - INDEFINITE - {"no"} or prev == "'s"
    if np is None or not definite or np.kind not in ("commercial", "quote", "fit"):
        return []
    if any(t.word in MODALS or t.word in ("once", "when") for t in toks[clause.lo:clause.hi]):
        return []   # "the signed quote should be returned": what is to be, not what was
    action = resolve(form.family, np.kind, None)
    return [] if action is None else [Found(action, None, i, np.hi)]
