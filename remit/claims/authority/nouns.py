"""Action nouns (``approval``, ``sign-off``, ``go-ahead``, ``confirmation``, ``acceptance``)
and document nouns (``PO``, ``goods receipt``, ``payment``) that something says happened.

A verb or a predicate may say it (``finance's approval is in``, ``I have the go-ahead from
finance``, ``the approval still stands``), or, outside a verb, a check mark (``✅ finance
approval``), a label whose value names who did it (``Technical sign-off: Marek (plant
engineering)``), ``thanks for`` (``thanks for the PO``; not ``thanks for a smooth order``), a
performative (``we confirm receipt of your order``) or a fronted ``with``/``following``
whose clause is not about the future (``following your acceptance, I've reserved the
stock``). The noun's action comes from its modifiers or its ``on``/``for`` phrase, its party
from a ``from``/``by`` phrase, its possessor (``finance's``, ``your``, ``their``), an aside
naming a party, a modifier that says whose it is (``tech sign-off``), or what governs it.
"""

from __future__ import annotations

from remit.authority import Role
from remit.claims.authority.actions import Found, claimed
from remit.claims.authority.arguments import aside, label
from remit.claims.authority.clauses import HARD, Clause
from remit.claims.authority.cues import blocked
from remit.claims.authority.forms import thanker
from remit.claims.authority.lexicon import (
    ACTION_NOUNS,
    IDENTIFIER,
    INDEFINITE,
    MARKS,
    MODALS,
    NEGATIONS,
    OPEN_STATUS,
    words,
)
from remit.claims.authority.parties import mentions, owners, parties, roles
from remit.claims.authority.phrases import NP, kind_of, noun_phrase, np_word, phrase_ending
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import verb_like

_PLURAL_ACTIONS = words("approvals sign-offs confirmations")
_FRONTED = words("with following after since given per")
"""Prepositions that, fronted, presuppose their noun's action: ``following finance approval``."""
_OPEN = NEGATIONS | OPEN_STATUS | MODALS | words("by due expected eta tbc tbd ? to")
"""Words in a label's value that say the action is still to come."""
_OWNED = {"technical": Role.TECHNICAL_OWNER}
"""Modifiers that say whose an action noun is: a ``tech sign-off`` is the technical owner's."""
_FUTURE = words("will would could might may shall should can 'd please")


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
        named = owners(r.toks, np.lo, np.head, r.who, verb_parties) or aside(r, np.hi) \
            or [_OWNED[t.word] for t in toks[np.lo:np.head] if t.word in _OWNED][:1] \
            or fallback
    if toks[np.head].word in _PLURAL_ACTIONS and kind is None and not named:
        return []   # "both sign-offs are in": no one action
    return claimed(family, kind, named, np.lo, np.hi)


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
        thanked = label(r, n)
        if governor == "thanks":   # "thanks to your plant engineer for the fit confirmation"
            span = thanker(r, clause.lo, np.lo)
            thanked = (parties(toks, *span, r.who) if span else []) or [r.who.addressee]
        elif governor == "signed":   # "Technical sign-off: Marek (plant engineering)"
            thanked = roles(mentions(toks, np.hi + 1, _value_end(r, np.hi)), toks, r.who)
        if np.kind == "action":
            out += action_noun(r, np, clause.hi, thanked, [])
        else:
            out += claimed("receive", np.kind, thanked, np.lo, np.hi)
    return out


def _value_end(r: Reading, colon: int) -> int:
    """Where the value of a label whose colon is at ``colon`` ends (its sentence or cell)."""
    return next((j for j in range(colon + 1, len(r.toks)) if r.toks[j].word == ";"),
                len(r.toks))


def _signed(r: Reading, k: int) -> bool:
    """Whether the value of an action noun's label from ``k`` names who did it and nothing
    to come (``Technical sign-off: Marek (plant engineering), 3 June``; not ``Approval:
    finance, by Friday``)."""
    value = r.toks[k:_value_end(r, k - 1)]
    return any(m.kind == "title" for m in mentions(value, 0, len(value))) and not any(
        verb_like(t) or t.word in _OPEN for t in value)


def _governor(r: Reading, np: NP, clause: Clause) -> str | None:
    """What, outside a verb, says a noun's action happened: a check mark before or after it,
    a label's value naming who did it, ``thanks for``, a performative ``we confirm``, or a
    fronted ``with``/``following`` whose clause is not about the future."""
    toks = r.toks
    before = toks[np.lo - 1].word if np.lo > 0 else ""
    k = np.hi + 1 if np.hi < len(toks) and toks[np.hi].word == ":" else np.hi
    after = toks[k].word if k < len(toks) else ""   # "Approval: ✅"
    if before in MARKS or after in MARKS:
        return "mark"
    if k > np.hi and np.lo == clause.lo and np.kind == "action" and _signed(r, k):
        return "signed"
    if before == "for" and thanker(r, clause.lo, np.lo) is not None:
        return "thanks"
    if before in ("confirm", "acknowledge") and any(
            m.kind == "we" for m in mentions(toks, clause.lo, np.lo - 1)):
        return "performative"   # "we confirm receipt of your order"
    # "thanks to finance's approval, ..."
    thanks_to = before == "to" and np.lo > 1 and toks[np.lo - 2].word == "thanks"
    return "fronted" if thanks_to or _fronted(r, np, clause) else None


def _fronted(r: Reading, np: NP, clause: Clause) -> bool:
    """Whether a noun stands in a fronted ``with``/``following``/``since``/``after`` phrase
    whose clause is not about the future: the phrase belongs to the clause it leads into
    (``following your acceptance, I've reserved the stock`` is what was, ``with finance's
    approval we'll ship`` what will be)."""
    toks = r.toks
    before = toks[np.lo - 1].word if np.lo > 0 else ""
    fronted = np.lo - 1 == clause.lo and (clause.lo == 0 or toks[clause.lo - 1].word in HARD)
    n = next(k for k, c in enumerate(r.clauses) if c.lo <= np.lo < c.hi)
    main = r.clauses[n + 1].hi if np.hi >= clause.hi and n + 1 < len(r.clauses) else clause.hi
    # "since"/"after" with a verb of their own open a clause: "since your approval is needed"
    conjunction = before in ("since", "after") and any(
        verb_like(t) for t in toks[np.hi:clause.hi])
    return before in _FRONTED and fronted and not conjunction \
        and not any(t.word in _FUTURE for t in toks[np.hi:main])
