"""Text on its way to a reader: what an agent wrote is shown, never executed.

The agent under test is someone else's code or a language model; every string it wrote
(messages, ``end`` summaries, tool arguments, invented SKUs and ids, the text of its
exceptions, the claims the scorer quotes, an MCP client's name) is stored as it was
sent and may hold markup, terminal escape sequences or characters that reorder or hide
text. Every writer of :mod:`remit.reports`, the command line and the pytest plugin pass
stored text through this module, one function per format:

- :func:`visible`, under every format: each C0 and C1 control character but tab and
  newline (NUL, ESC, so every terminal escape sequence, BEL, CR, DEL, CSI ``\\x9b``),
  each bidirectional control (U+061C, U+200E/F, U+202A-E, U+2066-9), the line and
  paragraph separators (U+2028/9), a lone surrogate and the noncharacters U+FFFE/F
  become their escape notation, ``\\x1b``, ``\\x00``, ``\\u202e``, ``\\ud800``.
  An agent that writes the six characters ``\\x1b`` itself reads the same.
- :func:`html_text`: :func:`visible`, then HTML-escaped (``<``, ``>``, ``&`` and
  both quotes), for text and attribute values alike.
- :func:`md_text`: :func:`visible` on one line (line breaks and runs of white space
  become one space); ``&``, ``<`` and ``>`` as HTML entities; a backslash before each
  character that makes Markdown (``\\``, a backtick, ``*``, ``[``, ``]``, ``|``, ``~``,
  and ``_`` unless it stands between two letters or digits, as in ``all_tools``). The
  same text is safe in prose and in a table cell: it can add no element, link, image,
  code span, emphasis or cell. :func:`md_code` makes a backtick-safe code span of an
  identifier and :func:`md_block` a fenced block that no line of its content can close.
- :func:`xml_text`: :func:`visible`, which also leaves out every character XML 1.0
  cannot hold (ElementTree escapes the markup).
- :func:`term_text`: :func:`visible`, then rich's markup escaped (``[bold]`` prints as
  written); :class:`SafeConsole` applies :func:`visible` to every string it prints, so a
  command's output carries no raw control character even where a call site forgot.
- :func:`json_text` and :func:`model_json`: JSON is data, kept exact: a JSON encoder
  escapes the C0 controls; these also write DEL, the C1 controls, the bidirectional
  controls, U+2028/9 and U+FFFE/F as ``\\uXXXX`` escapes, which parse back to the same
  text, so the output is plain to print. A lone surrogate cannot be encoded (nor read
  back by pydantic's parser): it becomes U+FFFD.

Example:
    >>> visible("\\x1b[31mred\\u202e")
    '\\\\x1b[31mred\\\\u202e'
    >>> md_text("<b>| x</b>")
    '&lt;b&gt;\\\\| x&lt;/b&gt;'
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, JsonValue
from pydantic_core import PydanticSerializationError
from rich.console import Console
from rich.markup import escape as _rich_escape
from rich.text import Text

from remit.world.untrusted import visible

__all__ = [
    "SafeConsole",
    "html_text",
    "json_text",
    "md_block",
    "md_code",
    "md_text",
    "model_json",
    "term_text",
    "visible",
    "xml_text",
]

def html_text(text: str) -> str:
    """``text`` for HTML, in an element or a quoted attribute: :func:`visible`, then
    ``&``, ``<``, ``>``, ``"`` and ``'`` as character references.

    Example:
        >>> html_text("<img src=x onerror=alert(1)>")
        '&lt;img src=x onerror=alert(1)&gt;'
    """
    if len(text) > _REMEMBERED_CHARS:
        return html.escape(visible(text))
    return _short_html_text(text)


_REMEMBERED_CHARS = 200
"""The longest text whose HTML form is remembered: a page escapes the same short texts
(roles, actions, ids, verdicts) tens of thousands of times."""


@functools.lru_cache(maxsize=16_384)
def _short_html_text(text: str) -> str:
    return html.escape(visible(text))


def xml_text(text: str) -> str:
    """``text`` for XML 1.0 (an element's text or an attribute, which ElementTree
    escapes): :func:`visible`, which leaves none of the characters XML cannot hold."""
    return visible(text)


_MD_PUNCTUATION = re.compile(r"[\\`*\[\]|~]|(?<![^\W_])_|_(?![^\W_])")
"""Markdown's punctuation in agent text: always, but ``_`` between letters or digits
(no emphasis opens or closes inside a word)."""


def _one_line(text: str) -> str:
    return " ".join(visible(text).split())


def md_text(text: str) -> str:
    """``text`` as Markdown that renders as written, in prose and in table cells (see
    the module docstring): one line, entities for ``&<>``, backslashes before the rest.

    Example:
        >>> md_text("*x* | `y`")
        '\\\\*x\\\\* \\\\| \\\\`y\\\\`'
    """
    line = _one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_PUNCTUATION.sub(r"\\\g<0>", line)


_TICKS = re.compile("`+")


def _longest_ticks(text: str) -> int:
    return max((len(run) for run in _TICKS.findall(text)), default=0)


def md_code(text: str, *, cell: bool = False) -> str:
    """``text`` on one line as a Markdown code span whose fence is longer than any run
    of backticks in it; ``cell``: in a table cell, where ``|`` must be escaped even in
    code. Code spans show entities literally: for identifiers, not for agent text.

    Example:
        >>> md_code("a`b")
        '``a`b``'
    """
    line = _one_line(text)
    if not line:
        return ""
    fence = "`" * (_longest_ticks(line) + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    body = line.replace("|", "\\|") if cell else line
    return f"{fence}{pad}{body}{pad}{fence}"


def md_block(lines: Sequence[str]) -> list[str]:
    """``lines`` as a fenced Markdown code block (each line :func:`visible`), fenced by
    more backticks than any line holds in a row, so no line can close it."""
    shown = [visible(line) for line in lines]
    fence = "`" * max(3, max((_longest_ticks(line) for line in shown), default=0) + 1)
    return [fence, *shown, fence]


def term_text(text: str) -> str:
    """``text`` for a rich renderable that reads markup (a table cell, a title):
    :func:`visible`, then rich's markup escaped.

    Example:
        >>> term_text("[bold]x[/bold]\\x1b[2J")
        '\\\\[bold]x\\\\[/bold]\\\\x1b[2J'
    """
    return _rich_escape(visible(text))


class SafeConsole(Console):
    """A :class:`rich.console.Console` that shows every string it renders through
    :func:`visible` (printed text, table cells, titles), and with emoji codes off, so
    ``:warning:`` in an agent's text prints as written. Markup is still read where it is
    on: pass agent text to markup through :func:`term_text`, or print with
    ``markup=False``."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("emoji", False)
        super().__init__(**options)

    def render_str(self, text: str, **options: Any) -> Text:
        """:meth:`rich.console.Console.render_str` of :func:`visible` ``text``."""
        return super().render_str(visible(text), **options)


_JSON_HIDDEN = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                          "\ufffe\uffff]")
"""What a JSON encoder leaves raw that :func:`visible` would rewrite (it escapes C0)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(text: str) -> str:
    """JSON text with each raw DEL, C1 control, bidirectional control, U+2028/9 and
    U+FFFE/F written as a ``\\uXXXX`` escape: the same JSON value, safe to print. Only
    strings can hold those characters, where the escape is valid."""
    if text.isascii():
        return text
    return _JSON_HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _without_surrogates(value: JsonValue) -> JsonValue:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_SURROGATE.sub("\ufffd", key): _without_surrogates(item)
                for key, item in value.items()}
    return value


def model_json(model: BaseModel, *, indent: int | None = 2) -> str:
    """``model`` as JSON (pydantic's, keys in field order) through :func:`json_text`;
    a lone surrogate, which UTF-8 cannot encode, is replaced by U+FFFD rather than
    failing the whole document.

    Args:
        model: the model to write.
        indent: spaces per level; ``None`` for one compact line.
    """
    try:
        text = model.model_dump_json(indent=indent)
    except PydanticSerializationError:
        data = _without_surrogates(model.model_dump(mode="json"))
        separators = (",", ":") if indent is None else None
        text = json.dumps(data, indent=indent, ensure_ascii=False, separators=separators)
    return json_text(text)
