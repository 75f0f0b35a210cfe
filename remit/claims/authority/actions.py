"""What a form claims: the owner action a verb family claims about each kind of thing, and
the party's own action when nothing more specific is named.

A discount, price, exception or margin is ``approve`` whoever approved it; a substitution,
swap, fit or product is ``confirm_fit``; the quote is ``accept`` when the buyer agreed to
it, and a party's approval of the quote its own action (engineering's OK on the quote
confirms its fit); a PO is ``receive_po``; goods and goods receipt ``record_receipt``; payment
``release_payment``. A party agreeing to nothing more specific claims its own action:
finance ``approve``, the technical owner ``confirm_fit``, the buyer ``accept`` (and
``confirm_fit`` for a changed fact it confirmed).
"""

from __future__ import annotations

from typing import NamedTuple

from remit.authority import Action, Role

AUTHORITY_ACTIONS: tuple[Action, ...] = (Action.APPROVE, Action.CONFIRM_FIT, Action.ACCEPT,
                                         Action.RECEIVE_PO, Action.RECORD_RECEIPT,
                                         Action.RELEASE_PAYMENT)
"""The owner actions an authority claim may claim."""


class Found(NamedTuple):
    """A claim found in a sentence: the action, the party, and the words that claim it."""

    action: Action
    party: Role | None
    lo: int
    hi: int


_OWN: dict[Role, Action] = {Role.FINANCE: Action.APPROVE, Role.TECHNICAL_OWNER: Action.CONFIRM_FIT,
                            Role.BUYER: Action.ACCEPT}
"""A party agreeing to nothing more specific claims its own action."""
_BY_THEME: dict[str, dict[str, Action]] = {
    "approve": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT,
                "fact": Action.CONFIRM_FIT, "commercial": Action.APPROVE,
                "quote": Action.APPROVE, "payment": Action.RELEASE_PAYMENT},
    "agree": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT,
              "fact": Action.CONFIRM_FIT},
    "confirm": {"fit": Action.CONFIRM_FIT, "po": Action.RECEIVE_PO,
                "receipt": Action.RECORD_RECEIPT, "payment": Action.RELEASE_PAYMENT},
    "accept": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT, "quote": Action.ACCEPT},
    "sign": {"quote": Action.ACCEPT, "commercial": Action.APPROVE},
    "receive": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT,
                "goods": Action.RECORD_RECEIPT, "product": Action.RECORD_RECEIPT,
                "payment": Action.RELEASE_PAYMENT},
    "send": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT},
    "have": {"po": Action.RECEIVE_PO},
    "record": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT,
               "goods": Action.RECORD_RECEIPT, "product": Action.RECORD_RECEIPT,
               "payment": Action.RELEASE_PAYMENT},
    "release": {"payment": Action.RELEASE_PAYMENT},
    "arrive": {"po": Action.RECEIVE_PO, "payment": Action.RELEASE_PAYMENT,
               "receipt": Action.RECORD_RECEIPT},
    "done": {"receipt": Action.RECORD_RECEIPT, "payment": Action.RELEASE_PAYMENT},
}
"""The action a verb family claims about each kind of object."""
_OWN_ACTION: dict[str, tuple[frozenset[str | None], Action | None]] = {
    "approve": (frozenset({None}), Action.APPROVE),
    "accept": (frozenset({None}), Action.ACCEPT),
    "agree": (frozenset({None, "commercial", "quote"}), None),
    "done": (frozenset({None}), None),
}
"""Families where a party's own action stands in for a missing or commercial object, and the
action when no party is named."""


def resolve(family: str, kind: str | None, party: Role | None, *, fit_said: bool = False,
            word: str = "") -> Action | None:
    """The action a form of ``family`` (its word ``word``) claims about a ``kind`` of
    object, done by ``party``; ``fit_said`` when the words after it say a product fits."""
    own = None if party is None else _OWN.get(party)
    action = _BY_THEME.get(family, {}).get(kind or "")
    if family == "approve" and kind == "quote" and own is not None:
        action = own   # the buyer approving the quote accepts it; engineering confirms its fit
    elif family == "approve" and kind is None and party is None and word == "cleared":
        action = None            # "cleared" needs an object or a party to be an approval
    elif family == "confirm" and kind == "commercial" and party is Role.FINANCE:
        action = Action.APPROVE  # "finance confirmed the discount"
    elif family == "accept" and kind == "commercial":
        action = own             # "you accepted the price"; "we accepted the return request"
    elif family in _OWN_ACTION and kind in _OWN_ACTION[family][0]:
        action = own or _OWN_ACTION[family][1]
    elif family == "confirm" and kind in ("product", "fact", None):
        # a product's confirmation is a fit confirmation when its fit is what was confirmed
        # or the technical owner confirmed it; a changed fact is confirmed by the buyer or the
        # technical owner
        fits = ((kind == "product" and (fit_said or party is Role.TECHNICAL_OWNER))
                or (kind == "fact" and party in (Role.BUYER, Role.TECHNICAL_OWNER))
                or (kind is None and party is Role.TECHNICAL_OWNER))
        action = Action.CONFIRM_FIT if fits else None
    elif family == "release" and ((kind == "invoice" and word in ("paid", "settled"))
                                  or (kind is None and word == "paid" and party is None)):
        action = Action.RELEASE_PAYMENT   # "the invoice is paid", "it has been paid"
    elif family == "record" and kind is None and word == "receipted":
        action = Action.RECORD_RECEIPT   # "goods-in has receipted": a goods receipt recorded
    elif family == "arrive" and kind == "commercial" and word == "through":
        action = Action.APPROVE  # "the discount request went through"
    return action


def each(parties: list[Role]) -> list[Role | None]:
    """The parties to claim an action for: each one named, else nobody."""
    out: list[Role | None] = list(parties)
    return out or [None]


def claimed(family: str, kind: str | None, parties: list[Role], lo: int, hi: int, *,
            fit_said: bool = False, word: str = "") -> list[Found]:
    """The claims a form of ``family`` about a ``kind`` makes for each of ``parties`` (or for
    nobody), spanning ``lo:hi``."""
    return [Found(action, party, lo, hi) for party in each(parties)
            if (action := resolve(family, kind, party, fit_said=fit_said, word=word))
            is not None]
