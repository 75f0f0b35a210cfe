"""What counts as agent text reaching a reader unescaped, format by format.

Every check returns :class:`Finding` s (empty when the output is clean); none raises on
what it checks. The definitions are exact, so that a finding is a defect and no finding
means the output is safe on that count; do not loosen them to make a test pass.

**Characters** (:func:`unsafe_characters`), in HTML, Markdown, JUnit and terminal output:

- ``control``: a C0 control (U+0000-U+001F) other than tab and line feed (so NUL, ESC,
  carriage return, bell... are all findings), DEL (U+007F), or a C1 control
  (U+0080-U+009F, which includes the 8-bit CSI U+009B);
- ``bidi``: a bidirectional formatting character: U+061C, U+200E, U+200F, U+202A-U+202E,
  U+2066-U+2069 (the "Trojan Source" characters);
- ``surrogate``: a lone UTF-16 surrogate (U+D800-U+DFFF), which no UTF-8 reader accepts.

remit's own templates contain none of them, so any occurrence came from agent text. In
HTML and XML the check also runs on the text *as a reader gets it*, with character
references decoded (``&#x202e;`` is still a right-to-left override on the page; HTML's
references to controls decode as :func:`html.unescape` and browsers do, to nothing or
to a printable character).
Zero-width characters, U+2028/U+2029, emoji, combining marks and right-to-left letters
are text, not findings.

**HTML** (:func:`check_html`), parsed with :mod:`html.parser`:

- ``html-element``: an ``img``, ``iframe``, ``object``, ``embed``, ``frame``,
  ``frameset``, ``base``, ``form``, ``input``, ``button``, ``audio``, ``video``,
  ``source``, ``applet`` or ``link`` element (the report uses none), or a ``script``
  element whose content is not the report's own script
  (:data:`remit.reports.html_style.OPEN_TARGET_SCRIPT`);
- ``html-attribute``: an event-handler attribute (any attribute named ``on...``), or a
  ``href``/``src``/``action``/``formaction``/``xlink:href`` whose value is a
  ``javascript:``, ``vbscript:`` or ``data:`` URL.

**Markdown** (:func:`check_markdown`), read the way CommonMark and GitHub read it:
fenced code blocks (a fence closes only on a line of at least as many of the same fence
characters, so agent text holding a line of backticks does close it) and code spans (a
run of N backticks up to the next run of exactly N) are code; a backslash before ASCII
punctuation escapes it. Outside code and escapes:

- ``markdown-html``: a ``<`` followed by a letter, ``/``, ``!`` or ``?`` (the start of
  raw HTML, an HTML block, or an autolink);
- ``markdown-link``: a link, image or link reference definition whose destination is a
  ``javascript:``, ``vbscript:`` or ``data:`` URL or names the fuzz host ``fuzz.invalid``
  (remit's own links point at anchors);
- ``markdown-entity``: a character reference that decodes to a control, bidi or
  surrogate character;
- ``markdown-table``: a table row with more or fewer cells than its header (a ``|`` not
  escaped by an odd number of backslashes splits a cell, inside code spans too, as in
  GitHub's tables; a line break in a cell starts a row).

Indented code blocks are not recognised (remit fences its code), which can only add
findings, never hide one.

**JUnit** (:func:`check_junit`): ``parse`` when :mod:`xml.etree.ElementTree` rejects the
file (XML 1.0 forbids most controls and U+FFFE/U+FFFF; a ``]]>`` breaking out of a CDATA
section), ``junit-element`` for an element outside the JUnit vocabulary, and the
characters in the file and in the decoded text and attributes.

**JSON** (:func:`check_json`): ``parse`` when :func:`json.loads` rejects it, and
``json-surrogate`` for a string (key or value) holding a lone surrogate, which strict
parsers refuse. Controls in JSON strings are escaped by the format and are no finding.

**Terminal** (:func:`check_terminal`): the characters, and ``rich-markup`` when a probe
of :data:`MARKUP_PROBES` was taken as rich markup: its marker is shown without the tag
written before it (the tag was consumed as a style or a link).
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from remit.reports.html_style import OPEN_TARGET_SCRIPT

__all__ = ["FUZZ_HOST", "MARKUP_PROBES", "Finding", "check_html", "check_json",
           "check_junit", "check_markdown", "check_terminal", "unsafe_characters"]

FUZZ_HOST = "fuzz.invalid"
"""The host every link the fuzz payloads write points at."""

MARKUP_PROBES: tuple[tuple[str, str], ...] = (
    ("[bold]", "fz-bold"),
    (f"[link=https://{FUZZ_HOST}/]", "fz-link"),
    ("[reverse]", "fz-rev"),
)
"""(tag, marker): agent text ``TAG MARKER[/...]`` must be shown with ``TAG`` before
``MARKER``."""

_SNIPPET = 60


@dataclass(frozen=True)
class Finding:
    """One way an output broke the property.

    Attributes:
        where: the output (a report file, a command line).
        rule: the rule broken (see the module docstring).
        detail: what was found, with a short quoted snippet of it.
    """

    where: str
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}: {self.detail}"


def _snippet(text: str, at: int) -> str:
    start = max(0, at - _SNIPPET // 2)
    return ascii(text[start:start + _SNIPPET])


# -- characters ----------------------------------------------------------------------------

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def character_rule(char: str) -> str | None:
    """``control``, ``bidi`` or ``surrogate`` for a character of that class, else None."""
    code = ord(char)
    if (code < 0x20 and char not in "\t\n") or 0x7F <= code <= 0x9F:
        return "control"
    if char in _BIDI:
        return "bidi"
    if 0xD800 <= code <= 0xDFFF:
        return "surrogate"
    return None


_SUSPECT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                      "\u2066-\u2069\ud800-\udfff]")


def unsafe_characters(where: str, text: str) -> list[Finding]:
    """One finding per character class (``control``, ``bidi``, ``surrogate``) present in
    ``text``, with how many there are and the first one in context."""
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    for match in _SUSPECT.finditer(text):
        rule = character_rule(match.group())
        assert rule is not None
        first.setdefault(rule, match.start())
        counts[rule] = counts.get(rule, 0) + 1
    return [Finding(where, rule, f"{counts[rule]} raw, first at {at}: {_snippet(text, at)}")
            for rule, at in first.items()]


# -- HTML ----------------------------------------------------------------------------------

_ACTIVE_ELEMENTS = frozenset({"img", "iframe", "object", "embed", "frame", "frameset", "base",
                              "form", "input", "button", "audio", "video", "source", "applet",
                              "link"})
_URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href"})
_ACTIVE_SCHEMES = ("javascript:", "vbscript:", "data:")


def _active_url(value: str) -> bool:
    squeezed = "".join(c for c in value if not c.isspace() and ord(c) >= 0x20).lower()
    return squeezed.startswith(_ACTIVE_SCHEMES)


class _Page(HTMLParser):
    """Collects what :func:`check_html` looks at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[tuple[str, str]] = []
        self.shown: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _ACTIVE_ELEMENTS:
            self.findings.append(("html-element", f"<{tag}> {ascii(attrs)[:_SNIPPET]}"))
        if tag == "script":
            self._script = []
        for name, value in attrs:
            self.shown.append(name)
            if value is None:
                continue
            self.shown.append(value)
            if name.startswith("on") or (name in _URL_ATTRIBUTES and _active_url(value)):
                self.findings.append(("html-attribute", f"<{tag} {name}={ascii(value)[:40]}>"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "script":
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            content = "".join(self._script)
            if content != OPEN_TARGET_SCRIPT:
                self.findings.append(("html-element", f"<script>{ascii(content)[:_SNIPPET]}"))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)
        self.shown.append(data)


def check_html(where: str, text: str) -> list[Finding]:
    """The HTML rules and the characters (raw, and as displayed) of a page."""
    page = _Page()
    page.feed(text)
    page.close()
    findings = [Finding(where, rule, detail) for rule, detail in page.findings]
    findings += unsafe_characters(where, text)
    raw = {f.rule for f in findings}
    findings += [f for f in unsafe_characters(f"{where} (as displayed)", "\n".join(page.shown))
                 if f.rule not in raw]
    return findings


# -- Markdown ------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d{1,9}[.)])(\s|$)")
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_RAW_HTML_START = re.compile(r"<[A-Za-z/!?]")
_LINK_DESTINATION = re.compile(r"\]\(\s*<?([^)\s>]*)")
_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S*)")
_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _closes(line: str, fence: str) -> bool:
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(fence[0]))
    return run >= len(fence) and not stripped[run:].strip()


def _outside_fences(text: str) -> list[str | None]:
    """The lines of ``text``, with those inside fenced code blocks (fences included)
    replaced by ``None``."""
    lines: list[str | None] = []
    fence: str | None = None
    for line in text.split("\n"):
        if fence is not None:
            lines.append(None)
            if _closes(line, fence):
                fence = None
            continue
        opened = _FENCE.match(line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            lines.append(None)
            continue
        lines.append(line)
    return lines


def _backtick_run(text: str, at: int) -> int:
    end = at
    while end < len(text) and text[end] == "`":
        end += 1
    return end - at


def _inline_text(text: str) -> str:
    """``text`` with its code spans and backslash-escaped characters removed: what a
    Markdown renderer would interpret."""
    kept: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text) and text[at + 1] in _PUNCTUATION:
            kept.append(" ")
            at += 2
            continue
        if char == "`":
            run = _backtick_run(text, at)
            close = _span_close(text, at + run, run)
            if close is None:
                kept.append(" " * run)
                at += run
            else:
                kept.append(" ")
                at = close
            continue
        kept.append(char)
        at += 1
    return "".join(kept)


def _span_close(text: str, start: int, run: int) -> int | None:
    """Where a code span opened by ``run`` backticks before ``start`` ends (just past its
    closing run), or None when no run of exactly that length follows."""
    at = start
    while at < len(text):
        if text[at] == "`":
            found = _backtick_run(text, at)
            if found == run:
                return at + found
            at += found
        else:
            at += 1
    return None


def _cells(row: str) -> list[str]:
    """A table row's cells: split at every ``|`` not escaped by an odd number of
    backslashes, the outer pipes dropped."""
    cells: list[str] = []
    current: list[str] = []
    backslashes = 0
    for char in row.strip():
        if char == "|" and backslashes % 2 == 0:
            cells.append("".join(current))
            current = []
        else:
            current.append(char)
        backslashes = backslashes + 1 if char == "\\" else 0
    cells.append("".join(current))
    if row.strip().startswith("|"):
        cells = cells[1:]
    if row.strip().endswith("|") and cells:
        cells = cells[:-1]
    return cells


def _units(lines: list[str | None]) -> list[tuple[int, str, int | None]]:
    """(first line number, text, table width or None) of each inline unit outside
    fences: a paragraph (lines joined), a heading, a list item, or a table cell."""
    units: list[tuple[int, str, int | None]] = []
    block: list[str] = []
    start = 0
    width: int | None = None

    def flush() -> None:
        if block:
            units.append((start, "\n".join(block), None))
            block.clear()

    for number, line in enumerate(lines, start=1):
        following = lines[number] if number < len(lines) else None
        if line is None or not line.strip():
            flush()
            width = None
            continue
        if width is None and "|" in line and following is not None \
                and _DELIMITER_ROW.match(following) and "-" in following:
            flush()
            width = len(_cells(line))
        if width is not None:
            units += [(number, cell, None) for cell in _cells(line)]
            units.append((number, line, width))
            continue
        if _HEADING.match(line) or _LIST_ITEM.match(line):
            flush()
        if not block:
            start = number
        block.append(line)
        if _HEADING.match(line):
            flush()
    flush()
    return units


def check_markdown(where: str, text: str) -> list[Finding]:
    """The Markdown rules and the characters of a Markdown document."""
    findings = unsafe_characters(where, text)
    for number, unit, width in _units(_outside_fences(text)):
        if width is not None:
            if not _DELIMITER_ROW.match(unit) and len(_cells(unit)) != width:
                findings.append(Finding(where, "markdown-table",
                                        f"line {number} has {len(_cells(unit))} cells, its "
                                        f"header {width}: {unit[:_SNIPPET]!a}"))
            continue
        findings += _inline_findings(where, number, unit)
    return findings


def _inline_findings(where: str, number: int, unit: str) -> list[Finding]:
    live = _inline_text(unit)
    findings: list[Finding] = []
    raw = _RAW_HTML_START.search(live)
    if raw is not None:
        findings.append(Finding(where, "markdown-html",
                                f"line {number}: {_snippet(live, raw.start())}"))
    destinations = [m.group(1) for m in _LINK_DESTINATION.finditer(live)]
    reference = _REFERENCE_DEFINITION.match(live)
    if reference is not None:
        destinations.append(reference.group(1))
    for destination in destinations:
        if _active_url(destination) or FUZZ_HOST in destination.lower():
            findings.append(Finding(where, "markdown-link",
                                    f"line {number}: ({destination[:40]!a})"))
            break
    for entity in _ENTITY.finditer(live):
        decoded = html.unescape(entity.group())
        if any(character_rule(c) for c in decoded):
            findings.append(Finding(where, "markdown-entity",
                                    f"line {number}: {entity.group()} is {decoded!a}"))
            break
    return findings


# -- JUnit ---------------------------------------------------------------------------------

JUNIT_ELEMENTS = frozenset({"testsuites", "testsuite", "testcase", "failure", "error",
                            "skipped", "properties", "property", "system-out", "system-err"})
"""The JUnit XML vocabulary."""


def check_junit(where: str, text: str) -> list[Finding]:
    """Parse a JUnit file; the element names and the characters (raw and decoded)."""
    findings = unsafe_characters(where, text)
    try:
        root = ET.fromstring(text.encode("utf-8", errors="surrogatepass"))
    except ET.ParseError as exc:
        return [*findings, Finding(where, "parse", f"not well-formed XML: {exc}")]
    shown: list[str] = []
    for element in root.iter():
        if element.tag not in JUNIT_ELEMENTS:
            findings.append(Finding(where, "junit-element", f"<{ascii(element.tag)[:40]}>"))
        shown += [element.text or "", element.tail or "", *element.attrib.values()]
    raw = {f.rule for f in findings}
    findings += [f for f in unsafe_characters(f"{where} (decoded)", "\n".join(shown))
                 if f.rule not in raw]
    return findings


# -- JSON ----------------------------------------------------------------------------------

def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *_strings(item))]
    return []


def check_json(where: str, text: str) -> list[Finding]:
    """Parse a JSON document; no string in it may hold a lone surrogate."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return [Finding(where, "parse", f"not JSON: {type(exc).__name__}: {str(exc)[:80]}")]
    lone = [s for s in _strings(value) if any(0xD800 <= ord(c) <= 0xDFFF for c in s)]
    if lone:
        return [Finding(where, "json-surrogate",
                        f"{len(lone)} strings, first: {lone[0][:_SNIPPET]!a}")]
    return []


# -- terminal ------------------------------------------------------------------------------

def check_terminal(where: str, text: str) -> list[Finding]:
    """The characters of a command's output, and the rich-markup probes."""
    findings = unsafe_characters(where, text)
    for tag, marker in MARKUP_PROBES:
        at = text.find(marker)
        while at != -1:
            if not text[:at].endswith(tag):
                findings.append(Finding(where, "rich-markup",
                                        f"{marker!r} shown without {tag!r} before it: "
                                        f"{_snippet(text, at)}"))
                break
            at = text.find(marker, at + 1)
    return findings
