"""The per-format rules of :mod:`remit.reports.safe`, each checked against what really
reads the format: a Markdown renderer (markdown-it, raw HTML on, tables and
strikethrough on), an HTML parser, ElementTree, rich, and JSON parsers. For any text,
what the reader shows is the text as written (its controls as escapes), and nothing of
it becomes markup."""

from __future__ import annotations

import html
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from remit.reports.safe import (
    SafeConsole,
    html_text,
    json_text,
    md_block,
    md_code,
    md_text,
    model_json,
    term_text,
    visible,
    xml_text,
)
from tests.hostile_agents import HOSTILE, leaks

DETERMINISTIC = settings(derandomize=True, database=None, max_examples=150, deadline=None)

_MARKDOWNISH = st.lists(st.sampled_from(
    [*"\\`*_[]()|~<>&!#=-+.:;'\" \t\nab1é\u00a0\x1b\x00\u202e\r\x85\u2028",
     "&amp;", "&#60;", "http://x.example", "<b>", "```", "~~"]),
    max_size=40).map("".join)
"""Text made mostly of what Markdown and HTML read as syntax."""

TEXTS = st.one_of(_MARKDOWNISH, st.text(max_size=40))

RENDERER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


class _Read(HTMLParser):
    """The text and the element names of rendered HTML."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _one_line(text: str) -> str:
    return " ".join(visible(text).split())


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[31mred", "\\x1b[31mred"),
    ("\x1b]52;c;ZXZpbA==\x07", "\\x1b]52;c;ZXZpbA==\\x07"),
    ("nul\x00", "nul\\x00"),
    ("cr\r del\x7f csi\x9b", "cr\\x0d del\\x7f csi\\x9b"),
    ("\u202eevil\u202c \u2066\u2069 \u200e\u200f\u061c", "\\u202eevil\\u202c \\u2066\\u2069 "
                                                       "\\u200e\\u200f\\u061c"),
    ("lone \ud800 \udfff", "lone \\ud800 \\udfff"),
    ("line\u2028para\u2029 \ufffe\uffff", "line\\u2028para\\u2029 \\ufffe\\uffff"),
    ("tab\tand\nnewline kept, ü, 👩‍🔧 too", "tab\tand\nnewline kept, ü, 👩‍🔧 too"),
])
def test_visible_writes_each_hidden_character_as_its_escape(raw: str, shown: str) -> None:
    assert visible(raw) == shown
    assert visible(shown) == shown, "idempotent"


@given(TEXTS)
@DETERMINISTIC
def test_markdown_text_renders_as_written_in_prose_and_in_a_table_cell(text: str) -> None:
    expected = _one_line(text)
    prose = _Read(RENDERER.render(f"said: {md_text(text)}\n"))
    assert prose.tags == ["p"]
    assert "".join(prose.text).strip() == f"said: {expected}".strip()
    table = _Read(RENDERER.render(f"| a | b |\n| --- | --- |\n| x | {md_text(text)} |\n"))
    assert table.tags.count("td") == 2, "no cell added"
    assert set(table.tags) <= {"table", "thead", "tbody", "tr", "th", "td"}
    assert leaks(md_text(text)) == []


@given(TEXTS)
@DETERMINISTIC
def test_markdown_code_spans_and_blocks_hold_any_text(text: str) -> None:
    line = _one_line(text)
    span = _Read(RENDERER.render(f"run {md_code(text)}\n"))
    if line:
        assert span.tags == ["p", "code"]
        assert "".join(span.text).strip() == f"run {line}"
    lines = [f"01 {line}", line, "```", "~~~"]
    page = RENDERER.render("\n".join(["x", "", *md_block(lines), "", "after"]) + "\n")
    assert _Read(page).tags == ["p", "pre", "code", "p"], "the block holds until its own fence"
    code = re.search("<code>(.*)</code>", page, re.DOTALL)
    assert code is not None
    assert html.unescape(code.group(1)) == "\n".join(lines) + "\n"


def test_hostile_text_makes_no_element_in_markdown() -> None:
    page = RENDERER.render(f"- ended: {md_text(HOSTILE)}\n")
    assert _Read(page).tags == ["ul", "li"]
    assert "&lt;script&gt;" in page
    assert "<script" not in page


@given(TEXTS)
@DETERMINISTIC
def test_html_text_is_text_in_an_element_and_in_an_attribute(text: str) -> None:
    read = _Read(f'<p title="{html_text(text)}">{html_text(text)}</p>')
    assert read.tags == ["p"]
    assert "".join(read.text) == visible(text)


@given(TEXTS)
@DETERMINISTIC
def test_xml_text_always_makes_well_formed_xml(text: str) -> None:
    root = ET.Element("r", value=xml_text(text))
    root.text = xml_text(text)
    parsed = ET.fromstring(ET.tostring(root, encoding="unicode"))
    assert parsed.text == (visible(text) or None)
    assert parsed.get("value") == visible(text)


def test_terminal_text_shows_markup_and_escapes_as_written() -> None:
    table = Table()
    table.add_column("said")
    table.add_row(term_text("[bold]x[/bold] [link=https://evil.example]y[/link] \x1b[2J"))
    buffer = io.StringIO()
    Console(file=buffer, width=200, color_system=None).print(table)
    assert "[bold]x[/bold] [link=https://evil.example]y[/link] \\x1b[2J" in buffer.getvalue()
    assert leaks(buffer.getvalue()) == []


def test_a_safe_console_shows_every_control_it_is_given() -> None:
    buffer = io.StringIO()
    console = SafeConsole(file=buffer, width=400, color_system=None)
    table = Table(title="\x1b]0;title\x07")
    table.add_column("\u202e")
    table.add_row("\x1b[31mcell :warning:")
    console.print(table)
    console.print(HOSTILE, markup=False)
    out = buffer.getvalue()
    assert leaks(out) == []
    for shown in ("\\x1b]0;title\\x07", "\\u202e", ":warning:"):
        assert shown in out


@given(st.text(max_size=40).map(lambda s: s.encode("utf-16", "surrogatepass")
                                .decode("utf-16", "replace")))
@DETERMINISTIC
def test_json_text_is_the_same_value_and_plain_to_print(text: str) -> None:
    dumped = json_text(json.dumps({"k": text}, ensure_ascii=False))
    assert json.loads(dumped) == {"k": text}
    assert leaks(dumped) == []


class _Said(BaseModel):
    text: str


@pytest.mark.parametrize("indent", [2, None])
def test_model_json_replaces_a_lone_surrogate_instead_of_failing(indent: int | None) -> None:
    text = model_json(_Said(text="a\ud800b\u202e\x1b"), indent=indent)
    assert _Said.model_validate_json(text).text == "a\ufffdb\u202e\x1b"
    assert leaks(text) == []
    assert ("\n" in text) is (indent is not None)
