"""What layout says: prose wrapped at a width, lists of what is still to come, struck-through
and unticked lines, table rows with a status column, and check marks beside a party.

- Wrapped prose is joined first (:func:`remit.claims.text.unwrapped`).
- The lines under a heading of what is still to come (``Plan for next week:``,
  ``Pending:``, ``**Next steps**``), up to a blank line or the next heading, claim nothing;
  nor does an unticked checklist line (``- [ ] PO received``) or struck-through words.
- A table row whose status cell says done (``Status: Done``, ``Done: ✅``) makes its action
  noun a claim, its party from another cell; one that says pending takes back every claim
  of the row.
- A party or a theme with a check mark and no verb claims the party's own action: ``finance
  ✅``, ``Engineering: ✅``, ``Finance 👍 on the 8%``, ``Fit ✅ (engineering)``.
"""

from __future__ import annotations

import itertools
import re

from remit.claims.authority.actions import Found, claimed
from remit.claims.authority.arguments import aside, label
from remit.claims.authority.cues import blocked
from remit.claims.authority.lexicon import MARKS, OPEN_STATUS, words
from remit.claims.authority.nouns import action_noun
from remit.claims.authority.parties import mentions, roles
from remit.claims.authority.phrases import kind_of, np_word, phrase_ending
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import is_word, verb_like

UNTICKED = frozenset({"[ ]", "☐", "□", "⬜"})
"""Boxes that mark a checklist line as still to do."""
STRUCK = re.compile(r"~~[^~\n]+~~")
"""Struck-through words (``~~pending~~ approved``) are taken back, not said."""
_HEADING_LINE = re.compile(r"^\s*(?:#.*|\*\*[^*]+\*\*\s*|.*:\s*)$")
_TO_COME = re.compile(r"(?i)\b(?:plan(?:s|ned)?|next|tomorrow|upcoming|pending|outstanding|open"
                      r"|awaiting|waiting|expected|needed|required|remaining|to[- ]?do)\b")
"""Headings of a list of what is still to happen: ``Plan for next week:``, ``Pending:``."""
_STATUS_HEADERS = words("status state progress outcome result done complete completed")
_DONE_STATUS = words("done complete completed yes received approved confirmed accepted recorded "
                     "signed in closed granted")


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
        heads = [k for k in range(lo, hi) if kind_of(toks[k].word) in (
            "action", "po", "receipt", "payment") and not (
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


def mark_claims(r: Reading, n: int) -> list[Found]:
    """The claims of a party or a theme with a check mark and no verb in clause ``n`` (see
    the module docstring)."""
    clause, toks = r.clauses[n], r.toks
    if any(verb_like(t) for t in toks[clause.lo:clause.hi]):
        return []
    marks = [k for k in range(clause.lo, clause.hi) if toks[k].word in MARKS | {"thumbs-up"}]
    if not marks or any(k in r.asked for k in marks):
        return []
    at = marks[0]
    before = [k for k in range(clause.lo, at) if is_word(toks[k])]
    titles = [m for m in mentions(toks, clause.lo, at) if m.kind == "title"]
    kinds = [kind for k in range(clause.lo, clause.hi)
             if (kind := kind_of(toks[k].word)) in ("fit", "commercial")]
    if titles and len(before) <= 3:
        named, kind = roles(titles, toks, r.who), None                # "finance ✅"
    elif kinds and before and len(before) <= 2:
        named, kind = aside(r, clause.hi) or label(r, n), kinds[0]    # "Fit ✅ (eng)"
    elif not before and at + 1 == clause.hi:
        named, kind = label(r, n), None                               # "Engineering: ✅"
    else:
        return []
    if not named or blocked(r, clause, clause.lo, Form("noun", at, at + 1, toks[at].word),
                            own_subject=False):
        return []
    return claimed("approve", kind, named, clause.lo, at + 1)
