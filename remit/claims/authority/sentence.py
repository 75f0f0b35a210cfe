"""A sentence being read: its words, clauses and questions, who its persons are, and what
the reading of its earlier clauses left for the later ones.

Example:
    >>> from remit.authority import Role
    >>> r = Reading("Finance hasn't approved it, has it?", Role.BUYER)
    >>> [t.word for t in r.toks][:4], len(r.clauses), sorted(r.asked)[:2]
    (['finance', 'has', 'not', 'approved'], 2, [0, 1])
"""

from __future__ import annotations

from typing import NamedTuple

from remit.authority import Role
from remit.claims.authority.clauses import Clause, clauses, questions
from remit.claims.authority.lexicon import DOCUMENTS
from remit.claims.authority.parties import Who, mentions
from remit.claims.authority.phrases import noun_phrase
from remit.claims.authority.tokens import tokens


class Form(NamedTuple):
    """A completed form of an owner action: a verb, an adjective, a predicate or a noun."""

    family: str  # the family of its verb ("approve", "receive", ...)
    at: int      # the verb, adjective or predicate
    end: int     # one past its last word (a particle included)
    word: str


class Reading:
    """One sentence being read (see the module docstring).

    Attributes:
        text: the sentence as written.
        toks: its words, as read.
        clauses: its clauses, in order.
        asked: the positions of the words that stand in a question.
        who: who ``you`` and ``they`` are, and what ``it`` is.
        subjects: the subject of each clause read so far.
        last_form: the last form read, its clause and subject (for ``but finance has``).
    """

    def __init__(self, text: str, addressee: Role, before: Who | None = None) -> None:
        self.text = text
        self.toks = tokens(text)
        self.clauses: list[Clause] = clauses(self.toks)
        self.asked = questions(self.toks, self.clauses)
        named = tuple((m.at, m.role) for m in mentions(self.toks, 0, len(self.toks))
                      if m.role is not None)
        documents = tuple((np.head, np.kind) for i in range(len(self.toks))
                          if (np := noun_phrase(self.toks, i, len(self.toks))) is not None
                          and np.lo == i and np.kind in DOCUMENTS)
        earlier = before or Who(addressee, (), None)
        self.who = Who(addressee, named, earlier.last_party(), documents, earlier.last_document())
        self.subjects: list[tuple[int, int]] = []
        self.last_form: tuple[int, Form, tuple[int, int]] | None = None

    def index(self, clause: Clause) -> int:
        """The position of ``clause`` among the sentence's clauses."""
        return self.clauses.index(clause)
