"""Reading an agent's text as a person would: normalised characters and Markdown as sentences.

Language models write Markdown (bold, bullet and numbered lists, tables, headings) and
attackers write look-alike characters. Before any claim is looked for, a text is:

1. **normalised** (:func:`normalise`): Unicode NFKC (full-width letters, ``℃``,
   ligatures), format characters removed (zero-width spaces and joiners, soft hyphens,
   bidirectional controls), look-alike Cyrillic and Greek letters inside Latin words
   mapped to the Latin letters they imitate, and typographic quotes, dashes and minus
   signs folded to ASCII;
2. **read as sentences** (:func:`sentences`): emphasis and code marks dropped, each
   heading, list item and table row a sentence of its own (a table row reads as
   ``header value; header value``, with a unit given in a header applied to its
   column's bare numbers), and running text split at sentence ends (not at decimal
   points, ``e.g.``, ``approx.`` and the like).

Example:
    >>> [s.text for s in sentences("**BV-00008**\\n- PN: 16 bar\\n- Seat: PEEK")]
    ['BV-00008', 'PN: 16 bar', 'Seat: PEEK']
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

__all__ = ["Sentence", "normalise", "sentences", "unwrapped"]

# Cyrillic and Greek letters that look like Latin ones, as Unicode's confusables list
# pairs them (the subset that occurs in Latin-looking words), written as escapes so that
# the table itself is unambiguous to read.
_LOOKALIKES = str.maketrans({
    "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "e", "\u043a": "k", "\u043c": "m",
    "\u043d": "h", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0442": "t", "\u0443": "y",
    "\u0445": "x", "\u0455": "s", "\u0456": "i", "\u0457": "i", "\u0458": "j", "\u0501": "d",
    "\u051b": "q", "\u051d": "w", "\u0261": "g", "\u04bb": "h", "\u04cf": "l", "\u0410": "A",
    "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H", "\u041e": "O",
    "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0423": "Y", "\u0425": "X", "\u0405": "S",
    "\u0406": "I", "\u0408": "J", "\u0500": "D", "\u03b1": "a", "\u03bf": "o", "\u03bd": "v",
    "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03b9": "i", "\u03ba": "k", "\u03b5": "e",
    "\u03c7": "x", "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H",
    "\u0399": "I", "\u039a": "K", "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P",
    "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
})
_LOOKALIKE_LETTERS = frozenset(chr(c) for c in _LOOKALIKES)
_WORD = re.compile(r"\w+")
_TYPOGRAPHY = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": " - ",
    "\u2015": " - ", "\u2212": "-", "\u2044": "/", "\u00a0": " ", "\u202f": " ",
    "\u2009": " ", "\u2007": " ",
})


class Sentence(NamedTuple):
    """One sentence of a message, in reading order.

    Attributes:
        text: the sentence, normalised, without Markdown marks.
        item: it is a list item, a table row or a heading (a line of its own), not
            running prose; such lines often leave their subject to the line above.
    """

    text: str
    item: bool


def _latin_looking(word: str) -> str:
    """``word`` with look-alike letters mapped, when it is meant to be read as Latin."""
    letters = [c for c in word if c.isalpha()]
    if not any(c in _LOOKALIKE_LETTERS for c in letters):
        return word
    latin = any("a" <= c.casefold() <= "z" for c in letters)
    if latin or all(c in _LOOKALIKE_LETTERS for c in letters):
        return word.translate(_LOOKALIKES)
    return word


def normalise(text: str) -> str:
    """``text`` as it reads: NFKC, no format characters, look-alikes mapped, ASCII
    quotes, dashes and minus signs (see the module docstring)."""
    # "º" (an ordinal indicator) is often typed for a degree sign; NFKC would make it "o"
    text = unicodedata.normalize("NFKC", text.replace("\u00ba", "\u00b0"))
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = _WORD.sub(lambda m: _latin_looking(m.group(0)), text)
    return text.translate(_TYPOGRAPHY)


_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_QUOTE = re.compile(r"^\s*(?:>\s*)+")
_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u25aa\u25e6\u2023]|\d{1,3}[.)]|[a-z][.)])\s+")
_LABEL_LINE = re.compile(r"^\s*(?:\*\*[^*]+\*\*|__[^_]+__)\s*:?\s*$|^[^.!?]{1,80}:\s*$")
"""A line of its own that heads what follows: all bold, or a short label ending in ':'."""
_BOLD = re.compile(r"\*\*|__|`+|~~")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"
                     r"|(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])")
_HEADER_UNIT = re.compile(r"\s*[(\[]\s*([^()\[\]]{1,12}?)\s*[)\]]\s*$")
_BARE_NUMBER = re.compile(r"^\s*[-+]?\d+(?:[.,]\d+)?\s*$")
_ABBREVIATIONS = ("e.g", "i.e", "approx", "max", "min", "incl", "no", "nr", "vs", "ca",
                  "fig", "ref", "etc", "resp", "corp", "co", "dept", "mr", "ms", "dr",
                  "st", "rev", "std", "temp", "nom", "dia", "cert", "spec", "qty", "pcs")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|(?<=[.!?])[\"')\]]*$")


def _strip_marks(line: str) -> str:
    line = _QUOTE.sub("", line)
    line = _HEADING.sub("", line)
    line = _BULLET.sub("", line)
    line = _BOLD.sub("", line)
    return _ITALIC.sub(lambda m: m.group(1) or m.group(2), line)


def _split_prose(line: str) -> list[str]:
    """Running text split at sentence ends, never after an abbreviation."""
    parts: list[str] = []
    start = 0
    for end in _SENTENCE_END.finditer(line):
        piece = line[start:end.start()]
        words = re.findall(r"[\w.]+", piece)
        word = words[-1].casefold().rstrip(".") if words else ""
        if piece.endswith(".") and word in _ABBREVIATIONS:
            continue
        parts.append(line[start:end.end()].strip())
        start = end.end()
    parts.append(line[start:].strip())
    return [p for p in parts if p]


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row.removeprefix("|").removesuffix("|")
    return [_strip_marks(cell).strip() for cell in row.split("|")]


_YES = re.compile(r"^\s*(?:✅|✔|☑|yes|y|ok|pass(?:es)?)\s*$", re.IGNORECASE)
_NO = re.compile(r"^\s*(?:❌|✗|✘|✖|no|n|fail(?:s)?)\s*$", re.IGNORECASE)


def _answer(header: str, cell: str) -> str | None:
    """A check-mark cell under a question header (``OK for your 12 bar?``) read as the
    statement it answers, or ``None`` when it is not one."""
    if not header.rstrip().endswith("?"):
        return None
    question = header.rstrip().rstrip("?").strip()
    if _YES.match(cell):
        return question
    if _NO.match(cell):
        return f"not {question}"
    return None


def _with_unit(header: str, cell: str) -> tuple[str, str]:
    """A header's unit (``Pressure rating (bar)``, ``face_to_face_mm``) applied to a bare
    number in its column."""
    suffix = _KEY_UNIT.search(header)
    if suffix is not None:
        name = header[:suffix.start()].replace("_", " ")
        return (name, f"{cell.strip()} {suffix['unit']}") if _BARE_NUMBER.match(cell) else (
            name, cell)
    unit = _HEADER_UNIT.search(header)
    if unit is None:
        return header.replace("_", " ") if "_" in header and " " not in header else header, cell
    name = header[:unit.start()]
    if _BARE_NUMBER.match(cell):
        return name, f"{cell.strip()} {unit.group(1)}"
    return name, cell


_GENERIC_HEADER = re.compile(
    r"(?i)|value|values|spec|specs|specification|specifications|details?|data|notes?"
    r"|attribute|attributes|property|properties|parameter|parameters|item|feature|features"
    r"|characteristic|characteristics|field|-+")
"""Table headers that name no attribute: a row under them reads as its cells alone."""
_SKU_LIKE = re.compile(r"(?<![\w-])[A-Za-z]{2,3}-\d{3,6}(?![\w-])")


def _table(rows: list[str]) -> list[Sentence]:
    """A Markdown table as sentences (see :func:`_read_table`); without a header row,
    one sentence of its cells per row."""
    cells = [_cells(row) for row in rows if not _TABLE_SEPARATOR.match(row.strip())]
    has_header = len(rows) > 1 and _TABLE_SEPARATOR.match(rows[1].strip()) is not None
    if not has_header or len(cells) < 2:
        return [Sentence("; ".join(c for c in row if c), item=True) for row in cells]
    return _read_table(cells[0], cells[1:])


def _read_table(header: list[str], body: list[list[str]]) -> list[Sentence]:
    """A table under its header row as sentences: one per row (or per SKU column when the
    header row names SKUs), each cell read after its column header."""
    sku_row = next((row for row in body if len(row) == len(header) and len(row) > 2
                    and sum(bool(_SKU_LIKE.fullmatch(c.strip())) for c in row[1:]) >= 2), None)
    if sku_row is not None:
        # "| SKU | BV-00015 | BV-00022 |" under "Option 1 | Option 2": the SKUs head the columns
        header = [header[0], *(f"{s} ({h})" if h else s for h, s in zip(header[1:], sku_row[1:],
                                                                        strict=True))]
        body = [row for row in body if row is not sku_row]
    sku_columns = [j for j, h in enumerate(header) if j > 0 and _SKU_LIKE.search(h)]
    out: list[Sentence] = []
    if len(sku_columns) >= 2 or (sku_columns and len(header) == 2):
        for j in sku_columns:
            facts = []
            for row in body:
                if j < len(row) and row[j]:
                    name, value = _with_unit(row[0], row[j])
                    facts.append(f"{name} {value}".strip())
            out.append(Sentence(f"{header[j]}: " + "; ".join(facts), item=True))
        return out
    names = [("" if _GENERIC_HEADER.fullmatch(h.strip()) else h) for h in header]
    pairs = len(names) == 2 and not any(names)  # "| Attribute | Value |": name, then value
    for row in body:
        if pairs and len(row) == 2:
            name, value = _with_unit(row[0], row[1])
            out.append(Sentence(f"{name} {value}".strip(), item=True))
            continue
        facts = []
        for j, cell in enumerate(row):
            if not cell:
                continue
            answered = _answer(header[j] if j < len(header) else "", cell)
            if answered is not None:
                facts.append(answered)
                continue
            name, value = _with_unit(names[j] if j < len(names) else "", cell)
            facts.append(value if _SKU_LIKE.fullmatch(value.strip()) else f"{name} {value}")
        out.append(Sentence("; ".join(f.strip() for f in facts), item=True))
    return out


_BLOCK_START = re.compile(r"^\s*(?:[-*+\u2022]\s|\d{1,3}[.)]\s|#|\||>|```|[^\w\s\"'(\[])")
_WRAP_WIDTH = 60
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s")
_LABEL = re.compile(r"^\s*\w+(?: \w+){0,2}:\s+\S")
"""A line that opens with a label of up to three words and its value: ``Pending: PO``."""


def unwrapped(text: str) -> str:
    """``text`` with soft line breaks joined, as Markdown reads a paragraph: a long line
    that breaks off mid-sentence (``... It isn't: the CFO`` / ``approved the margin
    exception``) continues on the next line when that line opens no block or label of its
    own; a list item continues on indented lines only."""
    out: list[str] = []
    last = ""
    for line in text.splitlines():
        if out and _continues(last, line):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line)
        last = line
    return "\n".join(out)


def _continues(last: str, line: str) -> bool:
    return (bool(line.strip()) and len(last.strip()) >= _WRAP_WIDTH
            and not last.rstrip().endswith((":", ".", "!", "?"))
            and not last.lstrip().startswith(("|", "```", "~~~"))
            and _BLOCK_START.match(line) is None
            and _LABEL.match(line) is None
            and (_LIST_ITEM.match(last) is None or line[:1].isspace()))


_FENCE = re.compile(r"^\s*(?:```|~~~)")
_KEY_VALUE = re.compile(r"""^\s*[-{\[]*\s*["']?(?P<key>[A-Za-z][\w .-]{0,40}?)["']?\s*[:=]\s*"""
                        r"""(?P<value>.*?)\s*[,}\]]*\s*$""")
_PAIR = re.compile(r"""["'](?P<key>[A-Za-z][\w .-]{0,40}?)["']\s*:\s*"""
                   r"""(?P<value>"[^"]*"|[^,{}\[\]]+)""")
_KEY_UNIT = re.compile(r"_(?P<unit>bar|psi|mpa|kpa|c|f|degc|degf|nm|mm|in)$", re.IGNORECASE)
_COLUMNS = re.compile(r"\s{2,}|\t")


def _key_value(key: str, value: str) -> str:
    """A ``key: value`` of a JSON or YAML block as words: ``"pn_bar": 40`` reads
    ``pn 40 bar``."""
    value = value.strip().strip("\"'").strip()
    if value.casefold() in ("true", "yes", "ok", "pass"):
        return key.replace("_", " ").strip()  # "flange_match: true" says the flanges match
    if value.casefold() in ("false", "no", "fail"):
        return "not " + key.replace("_", " ").strip()
    unit = _KEY_UNIT.search(key)
    if unit is not None and _BARE_NUMBER.match(value):
        key = key[:unit.start()]
        value = f"{value} {unit['unit']}"
    return f"{key.replace('_', ' ').strip()} {value}".strip()


def _block(lines: list[str]) -> list[Sentence]:
    """A fenced code block: JSON or YAML objects read one object to a sentence (``key
    value; key value``), a fixed-width table read as a table, anything else line by line."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return []
    pairs_per_line = [_PAIR.findall(ln) for ln in body]
    if any(len(p) > 1 for p in pairs_per_line):  # one object per line: [{"sku": ...}, ...]
        return [Sentence("; ".join(_key_value(k, v) for k, v in pairs), item=True)
                for pairs in pairs_per_line if pairs]
    facts = [m for ln in body if (m := _KEY_VALUE.match(ln)) and m["value"].strip("{[ ")]
    if len(facts) >= 2 and len(facts) >= len(body) // 2:
        # a YAML object under its SKU ("BV-00021:" then indented keys) is about that SKU
        heads = [m["key"] for ln in body if (m := _KEY_VALUE.match(ln))
                 and not m["value"].strip("{[ ") and _SKU_LIKE.fullmatch(m["key"].strip())]
        lead = f"{heads[0]}: " if heads else ""
        return [Sentence(lead + "; ".join(_key_value(m["key"], m["value"]) for m in facts),
                         item=True)]
    if all(ln.count(",") == body[0].count(",") >= 1 for ln in body) and len(body) >= 2:
        # CSV: a header line, then rows
        csv = [[_strip_marks(cell).strip() for cell in ln.split(",")] for ln in body]
        return _read_table(csv[0], csv[1:])
    rows = [[_strip_marks(cell).strip() for cell in _COLUMNS.split(ln.strip())] for ln in body]
    if len(rows) >= 2 and len(rows[0]) >= 2 and all(len(r) == len(rows[0]) for r in rows):
        return _read_table(rows[0], rows[1:])  # a fixed-width table
    return [Sentence(ln.strip(), item=True) for ln in body]


def _unwrap_prose(text: str) -> str:
    """Soft line breaks joined outside fenced code blocks (whose lines are data)."""
    parts = re.split(r"(^\s*(?:```|~~~).*?^\s*(?:```|~~~)[^\n]*$)", text, flags=re.M | re.S)
    return "".join(part if index % 2 else unwrapped(part) for index, part in enumerate(parts))


def sentences(text: str) -> list[Sentence]:
    """The sentences of ``text``, normalised, in reading order (see the module docstring)."""
    lines = _unwrap_prose(normalise(text)).splitlines()
    out: list[Sentence] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _FENCE.match(line):
            end = index + 1
            while end < len(lines) and not _FENCE.match(lines[end]):
                end += 1
            out += _block(lines[index + 1:end])
            index = end + 1
            continue
        if line.strip().startswith("|"):
            end = index
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            out += _table(lines[index:end])
            index = end
            continue
        index += 1
        item = bool(_BULLET.match(line) or _HEADING.match(line) or _LABEL_LINE.match(line))
        stripped = _strip_marks(line).strip()
        if not stripped:
            continue
        pieces = _split_prose(stripped)
        out += [Sentence(piece, item=item and len(pieces) == 1) for piece in pieces]
    return out
