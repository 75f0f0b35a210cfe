"""Action nouns (``approval``, ``sign-off``, ``go-ahead``, ``confirmation``, ``acceptance``)
and document nouns (``PO``, ``goods receipt``, ``payment``) that something says happened.

A verb or a predicate may say it (``finance's approval is in``, ``I have the go-ahead from
finance``, ``the approval still stands``), or, outside a verb, a check mark (``✅ finance
approval``), ``thanks for`` (``thanks for the PO``; not ``thanks for a smooth order``), a
performative (``we confirm receipt of your order``) or a fronted ``with``/``following``
whose clause is not about the future (``following your acceptance, I've reserved the
stock``). The noun's action comes from its modifiers or its ``on``/``for`` phrase, its party
from a ``from``/``by`` phrase, its possessor (``finance's``, ``your``, ``their``), an aside
naming a party, or what governs it.
"""

from __future__ import annotations

from remit.authority import Role
from remit.claims.authority.actions import Found, claimed
from remit.claims.authority.arguments import aside, label
from remit.claims.authority.clauses import HARD, Clause
from remit.claims.authority.cues import blocked
from remit.claims.authority.forms import thanker
from remit.claims.authority.lexicon import ACTION_NOUNS, IDENTIFIER, INDEFINITE, MARKS, words
from remit.claims.authority.parties import mentions, parties, roles
from remit.claims.authority.phrases import NP, kind_of, noun_phrase, np_word, phrase_ending
from remit.claims.authority.sentence import Form, Reading

_PLURAL_ACTIONS = words("approvals sign-offs confirmations")
_FRONTED = words("with following after given per")
"""Prepositions that, fronted, presuppose their noun's action: ``following finance approval``."""
_FUTURE = words("will would could might may shall should 'd please")


def action_noun(r: Reading, np: NP, hi: int, fallback: list[Role],
                verb_parties: list[Role]) -> list[Found]:
    """The claims an action noun makes once something says it happened (see the module
    docstring); ``fallback`` names its party when nothing in the phrase does, and
    ``verb_parties`` who ``their`` is."""
    toks = r.toks
    family = ACTION_NOUNS[toks[np.head].word]
    kind = next((k for t in toks[np.lo:np.head]
                 if (k := kind_of(t.word)) is not None and k != "action"), None)
    named: list[Role] = []
    j = np.hi
    while j < hi and toks[j].word in ("from", "by", "on", "for", "of", "to", "with"):
        inner = noun_phrase(toks, j + 1, hi)
        if inner is None:
            break
        if toks[j].word in ("from", "by"):
            named = named or parties(toks, j + 1, inner.hi, r.who)
        elif kind is None and inner.kind not in (None, "action"):
            kind = inner.kind
        j = inner.hi
    if not named:
        named = _owners(r, np, verb_parties) or aside(r, np.hi) or fallback
    if toks[np.head].word in _PLURAL_ACTIONS and kind is None and not named:
        return []   # "both sign-offs are in": no one action
    return claimed(family, kind, named, np.lo, np.hi)


def _owners(r: Reading, np: NP, verb_parties: list[Role]) -> list[Role]:
    """The parties that own an action noun: ``finance's``, ``finance``, ``your`` (the
    addressee), ``their`` (the verb's subject, else the party last named)."""
    named = mentions(r.toks, np.lo, np.head)
    titles = [m for m in named if m.kind == "title"]
    if titles:
        return roles(titles, r.toks, r.who)
    if not named:
        return []
    last = named[-1]
    if last.kind == "you":
        return [r.who.addressee]
    if last.kind == "they":
        role = r.who.they(last.at)
        return verb_parties or ([] if role is None else [role])
    return []


def noun_claims(r: Reading, n: int, here: list[Found]) -> list[Found]:
    """The action and document nouns of clause ``n`` that something outside a verb says
    happened, other than those the claims ``here`` already stand on."""
    clause, toks = r.clauses[n], r.toks
    out: list[Found] = []
    for i in range(clause.lo, clause.hi):
        if kind_of(toks[i].word) not in ("action", "po", "receipt", "payment") or i in r.asked:
            continue
        if any(f.lo <= i < f.hi for f in here):
            continue
        if i + 1 < clause.hi and np_word(toks, i + 1, clause.hi) \
                and not IDENTIFIER.fullmatch(toks[i + 1].word):
            continue   # a modifier: "the approval request"
        np = phrase_ending(toks, i, clause.lo, clause.hi)
        governor = _governor(r, np, clause)
        if governor is None or (np.kind != "action" and toks[np.lo].word in INDEFINITE):
            continue   # "thanks for a smooth order": no particular document
        if blocked(r, clause, np.lo, Form("noun", np.head, np.hi, toks[np.head].word),
                   own_subject=False):
            continue
        thanked = [r.who.addressee] if governor == "thanks" else label(r, n)
        if np.kind == "action":
            out += action_noun(r, np, clause.hi, thanked, [])
        else:
            out += claimed("receive", np.kind, thanked, np.lo, np.hi)
    return out


def _governor(r: Reading, np: NP, clause: Clause) -> str | None:
    """What, outside a verb, says a noun's action happened: a check mark before or after it,
    ``thanks for``, a performative ``we confirm``, or a fronted ``with``/``following`` whose
    clause is not about the future."""
    toks = r.toks
    before = toks[np.lo - 1].word if np.lo > 0 else ""
    k = np.hi + 1 if np.hi < len(toks) and toks[np.hi].word == ":" else np.hi
    after = toks[k].word if k < len(toks) else ""   # "Approval: ✅"
    if before in MARKS or after in MARKS:
        return "mark"
    if before == "for" and thanker(r, clause.lo, np.lo) is not None:
        return "thanks"
    if before == "to" and np.lo > 1 and toks[np.lo - 2].word == "thanks":
        return "fronted"   # "thanks to finance's approval, ..."
    if before in ("confirm", "acknowledge") and any(
            m.kind == "we" for m in mentions(toks, clause.lo, np.lo - 1)):
        return "performative"   # "we confirm receipt of your order"
    fronted = np.lo - 1 == clause.lo and (clause.lo == 0 or toks[clause.lo - 1].word in HARD)
    # the fronted phrase belongs to the clause it leads into: "following your acceptance,
    # I've reserved the stock" (what was), "with finance's approval we'll ship" (what will be)
    n = next(k for k, c in enumerate(r.clauses) if c.lo <= np.lo < c.hi)
    main = r.clauses[n + 1].hi if np.hi >= clause.hi and n + 1 < len(r.clauses) else clause.hi
    if before in _FRONTED and fronted and not any(t.word in _FUTURE for t in toks[np.hi:main]):
        return "fronted"
    return None
