"""What layout says: prose wrapped at a width, lists of what is still to come, struck-through
and unticked lines, table rows with a status column, and check marks beside a party.

- A word broken by a hyphen at a line end is made whole, and wrapped prose joined
  (:func:`remit.claims.text.unwrapped`).
- The lines under a heading of what is still to come (``Plan for next week:``,
  ``Pending:``, ``**Next steps**``), up to a blank line or the next heading, claim nothing;
  nor does an unticked checklist line (``- [ ] PO received``) or struck-through words.
- A table row whose status cell says done (``Status: Done``, ``Done: ✅``) makes its action
  noun a claim, its party from another cell; one that says pending takes back every claim
  of the row; a "who" cell names who did a row's action (``| Discount approved | Finance
  |`` under ``| Action | Who |``).
- A party or a theme with a check mark and no verb claims the party's own action: ``finance
  ✅``, ``Engineering: ✅``, ``Finance 👍 on the 8%``, ``Fit ✅ (engineering)``.
"""

from __future__ import annotations

import itertools
import re

from remit.authority import Role
from remit.claims.authority.actions import Found, claimed
from remit.claims.authority.arguments import aside, label
from remit.claims.authority.clauses import Clause
from remit.claims.authority.cues import blocked
from remit.claims.authority.lexicon import MARKS, OPEN_STATUS, words
from remit.claims.authority.nouns import action_noun
from remit.claims.authority.parties import mentions, roles
from remit.claims.authority.phrases import kind_of, np_word, phrase_ending
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import is_word, known, verb_like

UNTICKED = frozenset({"[ ]", "☐", "□", "⬜"})
"""Boxes that mark a checklist line as still to do."""
STRUCK = re.compile(r"~~[^~\n]+~~")
"""Struck-through words (``~~pending~~ approved``) are taken back, not said."""
_BROKEN = re.compile(r"(\w+)-[ \t]*\n[ \t]*([a-z]\w*)")
"""A word broken at a line end: a hyphen after letters, the rest on the next line."""
_HEADING_LINE = re.compile(r"^\s*(?:#.*|\*\*[^*]+\*\*\s*|.*:\s*)$")
_TO_COME = re.compile(r"(?i)\b(?:plan(?:s|ned)?|next|tomorrow|upcoming|pending|outstanding|open"
                      r"|awaiting|waiting|expected|needed|required|remaining|to[- ]?do)\b")
"""Headings of a list of what is still to happen: ``Plan for next week:``, ``Pending:``."""
_STATUS_HEADERS = words("status state progress outcome result done complete completed")
_TICKS = MARKS | {"thumbs-up"}
_STATUS_MARKS = _TICKS | {w for w in OPEN_STATUS if not w.isalpha()}
"""The marks that end an item of a status line (``✅ PO ⏳ goods receipt``)."""
_WHO = words("who by owner party approver signatory")
"""Table headers whose cell names who did the row's action."""
_NOUNS = frozenset({"action", "po", "receipt", "payment"})
"""Kinds of the nouns that a mark or a status says happened (read in :mod:`.nouns`)."""
_DONE_STATUS = words("done complete completed yes received approved confirmed accepted recorded "
                     "signed in closed granted")


def rejoined(text: str) -> str:
    """``text`` with each word broken by a hyphen at a line end made whole: one word when the
    grammar knows it so (``engi-`` / ``neer``), else a hyphenated compound (``signed-`` /
    ``off``)."""
    def join(m: re.Match[str]) -> str:
        whole = m[1] + m[2]
        return whole if known(whole.casefold()) else f"{m[1]}-{m[2]}"
    return _BROKEN.sub(join, text)


def runs(text: str) -> list[tuple[str, bool]]:
    """``text`` in runs of lines, each run marked when it is the list under a heading of
    what is still to come (up to the next blank line or heading)."""
    out: list[tuple[str, bool]] = []
    to_come = False
    for line in text.splitlines():
        heading = _HEADING_LINE.match(line) is not None
        if not line.strip() or heading:
            to_come = heading and _TO_COME.search(line) is not None
            governed = False
        else:
            governed = to_come
        if out and out[-1][1] == governed:
            out[-1] = (f"{out[-1][0]}\n{line}", governed)
        else:
            out.append((line, governed))
    return out


def row_claims(r: Reading) -> tuple[list[Found], bool]:
    """A table row read as ``header value; ...``: its claims when a status cell says done,
    and whether a status cell takes back every claim of the row."""
    toks = r.toks
    cuts = [-1] + [k for k, t in enumerate(toks) if t.word == ";"] + [len(toks)]
    cells = [(a + 1, b) for a, b in itertools.pairwise(cuts) if b > a + 1]
    status = next(((lo, hi) for lo, hi in cells
                   if toks[lo].word in _STATUS_HEADERS and hi - lo >= 2), None)
    if status is None or len(cells) < 2:
        return [], False
    value = [t.word for t in toks[status[0] + 1:status[1]]]
    if any(v in OPEN_STATUS for v in value):
        return [], True
    if value[0] not in _DONE_STATUS and value[0] not in MARKS:
        return [], False
    others = [c for c in cells if c != status]
    out: list[Found] = []
    for lo, hi in others:
        heads = [k for k in range(lo, hi) if kind_of(toks[k].word) in _NOUNS and not (
                k + 1 < hi and np_word(toks, k + 1, hi))]
        if not heads:
            continue
        np = phrase_ending(toks, heads[-1], lo, hi)
        named = [m for a, b in others if (a, b) != (lo, hi) for m in mentions(toks, a, b)]
        if np.kind == "action":
            out += action_noun(r, np, hi, roles(named, toks, r.who), [])
        else:
            out += claimed("receive", np.kind, [], np.lo, np.hi)
    return out, False


def who_cell(r: Reading, clause: Clause) -> list[Role]:
    """The parties a table row's "who" cell names, for a form in another of its cells
    (``Discount approved; Who Finance; When 3 May``)."""
    toks = r.toks
    cuts = [-1] + [k for k, t in enumerate(toks) if t.word == ";"] + [len(toks)]
    for a, b in itertools.pairwise(cuts):
        if b > a + 2 and toks[a + 1].word in _WHO and not a < clause.lo < b:
            return roles(mentions(toks, a + 2, b), toks, r.who)
    return []


def mark_claims(r: Reading, n: int) -> list[Found]:
    """The claims of the parties and themes with a check mark and no verb in clause ``n``
    (see the module docstring), each mark with its own item: the words after it when the
    clause opens with a mark (``✅ fit (your engineer) ✅ discount (finance)``), else before
    it (``Approval ✔ Fit ✔``)."""
    clause, toks = r.clauses[n], r.toks
    if any(verb_like(t) for t in toks[clause.lo:clause.hi]):
        return []
    marks = [k for k in range(clause.lo, clause.hi) if toks[k].word in _TICKS]
    if not marks or any(k in r.asked for k in marks):
        return []
    stops = [k for k in range(clause.lo, clause.hi) if toks[k].word in _STATUS_MARKS]
    leading = marks[0] == clause.lo
    out: list[Found] = []
    for at in marks:
        if leading:
            lo = at + 1
            hi = next((k for k in stops if k > at), clause.hi)
        else:
            lo = max((k + 1 for k in stops if k < at), default=clause.lo)
            hi = at
        out += _ticked(r, n, at, (lo, hi), last=hi == clause.hi or at + 1 == clause.hi)
    return out


def _ticked(r: Reading, n: int, at: int, item: tuple[int, int], *, last: bool) -> list[Found]:
    """The claim of one check mark at ``at`` on the words ``item``: a party's own action
    (``finance ✅``), a theme's (``Fit ✅ (eng)``, ``Fit ✔``), or the label's (``Engineering:
    ✅``, ``price: ✅ (CFO)``)."""
    clause, toks = r.clauses[n], r.toks
    said = [k for k in range(*item) if is_word(toks[k])]
    if any(kind_of(toks[k].word) in _NOUNS for k in said):
        return []   # "✅ Finance approval", "✅ PO": the noun's own claim
    titles = [m for m in mentions(toks, *item) if m.kind == "title"]
    kinds = [kind for k in said if (kind := kind_of(toks[k].word)) in ("fit", "commercial")]
    by = aside(r, item[1] if item[1] > at else clause.hi)
    if titles and len(said) <= 3:
        named, kind = roles(titles, toks, r.who), None                # "finance ✅"
    elif kinds and said and len(said) <= 2:
        named, kind = by or label(r, n), kinds[0]                     # "Fit ✅ (eng)", "Fit ✔"
    elif not said and last:
        named, kind = label(r, n) or by, _label_theme(r, n)           # "Engineering: ✅"
    else:
        return []
    if not (named or kind) or blocked(r, clause, clause.lo,
                                      Form("noun", at, at + 1, toks[at].word), own_subject=False):
        return []
    return claimed("approve", kind, named, min(at, item[0]), max(at + 1, item[1]))


def _label_theme(r: Reading, n: int) -> str | None:
    """The fit or commercial theme a label without a verb before clause ``n`` names (``fit:
    ✅``), if any."""
    if n == 0 or r.clauses[n].joined != ":":
        return None
    head = r.clauses[n - 1]
    said = r.toks[head.lo:head.hi]
    if any(verb_like(t) for t in said):
        return None
    return next((k for t in said if (k := kind_of(t.word)) in ("fit", "commercial")), None)
