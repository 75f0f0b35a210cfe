"""The one boundary where an agent's text and arguments enter remit.

Agents are untrusted: a language model, someone else's code, an MCP client. What they
send passes here before it is validated, recorded, stored or quoted back, so that
nothing an agent sends can raise out of a trial or make the trial unstorable:

- :func:`clean_text` and :func:`clean`: every lone UTF-16 surrogate (``"\\ud800"``,
  which ``json.loads`` produces from ``"\\\\ud800"``) and any other code point UTF-8
  cannot encode is replaced by U+FFFD, in every string, keys included;
- :func:`check_arguments` (and :func:`read_arguments`, which also finds the long
  strings): a call's arguments, cleaned, or the one limit they break
  (:data:`MAX_ARGUMENT_DEPTH` levels, :data:`MAX_ARGUMENTS_CHARS` characters as JSON,
  :data:`MAX_STRING_CHARS` per string, :data:`MAX_ITEMS` per list or object,
  :data:`MAX_INTEGER_DIGITS` per integer, JSON values only); the world answers a
  broken limit with ``bad_arguments`` and records :func:`unrecorded_arguments`;
- :func:`tool_name`: a tool name, cleaned and cut to :data:`MAX_TOOL_NAME_CHARS`;
- :func:`quote`: an agent's value inside an error message: its ``repr`` when short,
  else a prefix of :data:`QUOTE_CHARS` characters and the full length, so a 1 MB id
  comes back as one short line;
- :func:`cut_long_values`: the safety net under every error message the world records
  during a call: any long string of the call's arguments still in it is cut to a quote;
- :func:`shorten` and :func:`describe_exception`: agent text (an exception's message)
  cleaned and cut to a bound.
- :func:`depth`: how deep a JSON value nests, without recursion (the LLM reply parser
  and the MCP line check use it with the same limits).

Example:
    >>> check_arguments({"text": "hi \\ud800"})[0] == {"text": "hi \\ufffd"}
    True
    >>> check_arguments({"sku": "A" * 9000})[1]
    'the string at sku has 9000 characters, more than the limit of 8192'
    >>> quote("B" * 100, limit=8)
    "'BBBBBBBB'… (100 chars)"
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Mapping
from typing import NamedTuple

from pydantic import JsonValue

__all__ = [
    "MAX_ARGUMENTS_CHARS",
    "MAX_ARGUMENT_DEPTH",
    "MAX_INTEGER_DIGITS",
    "MAX_ITEMS",
    "MAX_STRING_CHARS",
    "MAX_TOOL_NAME_CHARS",
    "QUOTE_CHARS",
    "ReadArguments",
    "check_arguments",
    "clean",
    "clean_text",
    "cut_long_values",
    "depth",
    "describe_exception",
    "long_strings",
    "quote",
    "read_arguments",
    "shorten",
    "tool_name",
    "unrecorded_arguments",
    "visible",
]

MAX_ARGUMENT_DEPTH = 32
"""How deep a call's arguments may nest (the object itself is level 1); no tool's schema
comes near, and deeper values would exhaust the recursion of JSON readers, validation
and serialisation."""

MAX_ARGUMENTS_CHARS = 64 * 1024
"""The most characters a call's arguments may take as compact JSON (64 KiB); the
largest real call (``edit_lines`` with a few lines) takes a few hundred."""

MAX_STRING_CHARS = 8 * 1024
"""The most characters one string of a call's arguments may have (8 KiB), keys
included: room for a long message or ``end`` summary, not for a document."""

MAX_ITEMS = 1000
"""The most items one list, or keys one object, of a call's arguments may have."""

MAX_INTEGER_DIGITS = 100
"""The most digits an integer of a call's arguments may have (Python refuses to print
integers of more than 4,300 digits, so a longer one could be stored but not read)."""

MAX_TOOL_NAME_CHARS = 128
"""The most characters of a tool name that are kept (every real tool name is short); a
longer name is cut, with its length, before it is recorded."""

QUOTE_CHARS = 80
"""The most characters of an agent's value that an error message quotes."""

_PATH_CHARS = 80
_PATH_PARTS = 8
_KEY_CHARS = 40
_UNRECORDED_PREFIX_CHARS = 200
_REPLACEMENT = "\ufffd"


# -- cleaning ------------------------------------------------------------------------------

def clean_text(text: str) -> str:
    """``text`` with every code point UTF-8 cannot encode (lone surrogates) replaced by
    U+FFFD; the same string when there is none."""
    if text.isascii():  # the usual case, and fast: ASCII has no surrogate
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(_REPLACEMENT if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return text


def clean(value: JsonValue) -> JsonValue:
    """A copy of the JSON ``value`` with :func:`clean_text` applied to every string and
    key, at any depth (iteratively: no depth exhausts the recursion)."""
    holder: list[JsonValue] = [None]
    stack: list[tuple[JsonValue, list[JsonValue] | dict[str, JsonValue], int | str]] = [
        (value, holder, 0)]
    while stack:
        item, parent, slot = stack.pop()
        copy: JsonValue
        if isinstance(item, str):
            copy = clean_text(item)
        elif isinstance(item, dict):
            copy = {}
            for key, child in item.items():
                cleaned = clean_text(key)
                copy[cleaned] = None
                stack.append((child, copy, cleaned))
        elif isinstance(item, list):
            copy = [None] * len(item)
            stack.extend((child, copy, index) for index, child in enumerate(item))
        else:
            copy = item
        parent[slot] = copy  # type: ignore[index]  # an int slot for a list, a str for a dict
    return holder[0]


def depth(value: JsonValue) -> int:
    """How deep ``value`` nests (a scalar is 0, ``{}`` and ``[]`` are 1), iteratively."""
    deepest = 0
    stack: list[tuple[JsonValue, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, list) else None)
        if children is None:
            continue
        deepest = max(deepest, level + 1)
        stack.extend((child, level + 1) for child in children)
    return deepest


# -- arguments -----------------------------------------------------------------------------

class _Scan:
    """One pass over arguments: the cleaned copy, or the first limit they break."""

    def __init__(self) -> None:
        self.chars = 0

    def run(self, arguments: object) -> tuple[dict[str, JsonValue], str | None]:
        if not isinstance(arguments, Mapping):
            return {}, f"arguments must be a JSON object, not of type {type(arguments).__name__}"
        holder: list[JsonValue] = [None]
        stack: list[tuple[object, list[JsonValue] | dict[str, JsonValue], int | str,
                          tuple[str, ...]]] = [(arguments, holder, 0, ())]
        while stack:
            item, parent, slot, path = stack.pop()
            copy, problem = self._one(item, path, stack)
            if problem is None and self.chars > MAX_ARGUMENTS_CHARS:
                problem = (f"arguments take more than {MAX_ARGUMENTS_CHARS} characters as "
                           "JSON, the limit; send less")
            if problem is not None:
                return {}, problem
            parent[slot] = copy  # type: ignore[index]  # an int slot for a list, a str for a dict
        found = holder[0]
        assert isinstance(found, dict)
        return found, None

    def _one(self, item: object, path: tuple[str, ...],
             stack: list[tuple[object, list[JsonValue] | dict[str, JsonValue], int | str,
                               tuple[str, ...]]]) -> tuple[JsonValue, str | None]:
        """``item`` cleaned (its children pushed on ``stack``), or why it is refused."""
        if isinstance(item, str):
            return self._string(item, path)
        if item is None or isinstance(item, bool | float):
            self.chars += 5 if isinstance(item, bool | None) else 24
            return item, None
        if isinstance(item, int):
            digits = _digits(item)
            if digits > MAX_INTEGER_DIGITS:
                return None, (f"the integer at {_where(path)} has about {digits} digits, more "
                              f"than the limit of {MAX_INTEGER_DIGITS}")
            self.chars += digits
            return item, None
        if isinstance(item, Mapping | list | tuple):
            return self._container(item, path, stack)
        return None, (f"the value at {_where(path)} is of type {type(item).__name__}, which "
                      "is not JSON; send strings, numbers, booleans, null, lists and objects")

    def _string(self, item: str, path: tuple[str, ...]) -> tuple[JsonValue, str | None]:
        if len(item) > MAX_STRING_CHARS:
            return None, (f"the string at {_where(path)} has {len(item)} characters, more "
                          f"than the limit of {MAX_STRING_CHARS}")
        self.chars += len(item) + 2
        return clean_text(item), None

    def _container(self, item: Mapping[object, object] | list[object] | tuple[object, ...],
                   path: tuple[str, ...],
                   stack: list[tuple[object, list[JsonValue] | dict[str, JsonValue], int | str,
                                     tuple[str, ...]]]) -> tuple[JsonValue, str | None]:
        if len(path) >= MAX_ARGUMENT_DEPTH:
            return None, (f"arguments nest deeper than {MAX_ARGUMENT_DEPTH} levels (at "
                          f"{_where(path)})")
        kind = "object" if isinstance(item, Mapping) else "list"
        if len(item) > MAX_ITEMS:
            return None, (f"the {kind} at {_where(path)} has {len(item)} items, more than "
                          f"the limit of {MAX_ITEMS}")
        self.chars += 2 + len(item)
        if not isinstance(item, Mapping):
            items: list[JsonValue] = [None] * len(item)
            stack.extend((child, items, index, (*path, str(index)))
                         for index, child in enumerate(item))
            return items, None
        members: dict[str, JsonValue] = {}
        for key, child in item.items():
            if not isinstance(key, str):
                return None, (f"a key at {_where(path)} is of type {type(key).__name__}; "
                              "JSON object keys are strings")
            if len(key) > MAX_STRING_CHARS:
                return None, (f"a key at {_where(path)} has {len(key)} characters, more "
                              f"than the limit of {MAX_STRING_CHARS}")
            self.chars += len(key) + 3
            cleaned = clean_text(key)
            members[cleaned] = None
            stack.append((child, members, cleaned, (*path, cleaned)))
        return members, None


def _digits(number: int) -> int:
    """How many decimal digits ``number`` has, near enough, without printing it."""
    return max(1, (abs(number).bit_length() * 30103) // 100000 + 1)


def _where(path: tuple[str, ...]) -> str:
    """A path into the arguments for a message (``lines.0.sku``), cut when long."""
    if not path:
        return "the top level"
    shown = ".".join(shorten(part, _KEY_CHARS) for part in path[:_PATH_PARTS])
    return shorten(shown + (".…" if len(path) > _PATH_PARTS else ""), _PATH_CHARS)


def check_arguments(arguments: object) -> tuple[dict[str, JsonValue], str | None]:
    """A call's ``arguments``, cleaned, or the limit they break.

    Args:
        arguments: the arguments as the agent sent them (a JSON object is expected; any
            other value is refused, never raised on).

    Returns:
        ``(cleaned, None)`` within the limits: a deep copy with every string and key
        passed through :func:`clean_text`; otherwise ``({}, problem)``, ``problem`` one
        clause naming the limit and where (``arguments nest deeper than 32 levels (at
        a.a.a...)``).
    """
    found = read_arguments(arguments)
    return found.arguments, found.problem


class ReadArguments(NamedTuple):
    """A call's arguments as :func:`read_arguments` reads them.

    Attributes:
        arguments: the cleaned copy (``{}`` when a limit is broken).
        problem: the limit they break, or ``None`` (see :func:`check_arguments`).
        long: :func:`long_strings` of the copy.
        plain: the copy holds only ``dict``, ``list``, ``str``, ``int``, ``float``,
            ``bool`` and ``None``, exactly those types (no subclass), as validating it
            as JSON would leave it.
    """

    arguments: dict[str, JsonValue]
    problem: str | None
    long: tuple[str, ...]
    plain: bool


def read_arguments(arguments: object) -> ReadArguments:
    """:func:`check_arguments` and :func:`long_strings` of the copy, in one pass for the
    plain arguments nearly every call sends."""
    try:
        plain = _Plain()
        copy = plain.copy(arguments, 0)
    except _NotPlain:
        copy = None
    if isinstance(copy, dict) and plain.chars <= MAX_ARGUMENTS_CHARS:
        return ReadArguments(copy, None, long_strings(copy) if plain.long else (), True)
    scanned, problem = _Scan().run(arguments)
    return ReadArguments(scanned, problem, long_strings(scanned), False)


class _NotPlain(Exception):
    """Arguments :class:`_Plain` leaves to the full scan."""


_PLAIN_DEPTH = 8
"""How deep :class:`_Plain` follows arguments; deeper ones are left to the scan."""


class _Plain:
    """The common case, fast: plain ``dict``, ``list``, ``str``, ``int``, ``float``,
    ``bool`` and ``None`` values well within every limit, whose keys need no cleaning.

    For such arguments the copy and the character count are the ones :class:`_Scan`
    makes, and the scan would find no limit broken; anything else (a limit near or
    broken, another type, a key with a lone surrogate) raises :class:`_NotPlain` and the
    scan decides, with its exact message.
    """

    def __init__(self) -> None:
        self.chars = 0
        self.long = False  # a string or key longer than QUOTE_CHARS (see long_strings)

    def copy(self, item: object, level: int) -> JsonValue:
        kind = type(item)
        if kind is str:
            assert isinstance(item, str)
            if len(item) > MAX_STRING_CHARS:
                raise _NotPlain
            self.chars += len(item) + 2
            self.long = self.long or len(item) > QUOTE_CHARS
            return clean_text(item)
        if kind is int:
            assert isinstance(item, int)
            digits = _digits(item)
            if digits > MAX_INTEGER_DIGITS:
                raise _NotPlain
            self.chars += digits
            return item
        if kind is float:
            self.chars += 24
            return item  # type: ignore[return-value]  # a float, as kind says
        if kind is bool or item is None:
            self.chars += 5
            return item  # type: ignore[return-value]  # a bool or None, as kind says
        if level >= _PLAIN_DEPTH or (kind is not dict and kind is not list):
            raise _NotPlain
        assert isinstance(item, dict | list)
        if len(item) > MAX_ITEMS:
            raise _NotPlain
        self.chars += 2 + len(item)
        if isinstance(item, list):
            return [self.copy(child, level + 1) for child in item]
        return self._members(item, level)

    def _members(self, item: dict[object, object], level: int) -> dict[str, JsonValue]:
        members: dict[str, JsonValue] = {}
        for key, child in item.items():
            if type(key) is not str or len(key) > MAX_STRING_CHARS or clean_text(key) is not key:
                raise _NotPlain  # the scan says which key; cleaning could merge two keys
            self.chars += len(key) + 3
            self.long = self.long or len(key) > QUOTE_CHARS
            if type(child) is str and len(child) <= QUOTE_CHARS:  # most values: inline
                self.chars += len(child) + 2
                members[key] = clean_text(child)
            else:
                members[key] = self.copy(child, level + 1)
        return members


class _Short(reprlib.Repr):
    """``reprlib`` bounds, and integers too long to print described instead."""

    def __init__(self, chars: int) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxstring = chars
        self.maxother = chars
        self.maxlong = chars

    def repr_int(self, x: int, level: int) -> str:
        if _digits(x) > MAX_INTEGER_DIGITS:
            return f"<an integer of about {_digits(x)} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return repr(x[:self.maxstring]) + ("…" if len(x) > self.maxstring else "")


def unrecorded_arguments(arguments: object, problem: str) -> dict[str, JsonValue]:
    """What the trail records for arguments that break a limit: the problem and a short,
    storable prefix of what was sent, as ``{"not_recorded": ..., "prefix": ...}``."""
    return {"not_recorded": problem,
            "prefix": shorten(_safe_repr(arguments, _UNRECORDED_PREFIX_CHARS),
                              _UNRECORDED_PREFIX_CHARS)}


def _safe_repr(value: object, chars: int) -> str:
    try:
        return clean_text(_Short(chars).repr(value))
    except Exception as exc:
        return f"<a {type(value).__name__} that cannot be shown: {type(exc).__name__}>"


# -- names, quotes, messages ---------------------------------------------------------------

def tool_name(name: object) -> str:
    """A tool name as recorded: cleaned, and cut to :data:`MAX_TOOL_NAME_CHARS`
    characters (with its length) when longer; a name that is no string is shown."""
    if not isinstance(name, str):
        return shorten(_safe_repr(name, MAX_TOOL_NAME_CHARS), MAX_TOOL_NAME_CHARS)
    return shorten(name, MAX_TOOL_NAME_CHARS)


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` as an error message quotes it: its ``repr`` when short, else the
    ``repr`` of its first ``limit`` characters, an ellipsis and its length
    (``'BV-0000…'… (1048576 chars)``). Never contains a lone surrogate."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value)} chars)"
    return shorten(_safe_repr(value, limit), limit)


def long_strings(value: JsonValue) -> tuple[str, ...]:
    """The strings and keys in ``value`` longer than :data:`QUOTE_CHARS`, longest first:
    what :func:`cut_long_values` must cut from a message."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > QUOTE_CHARS:
                found.add(item)
        elif isinstance(item, dict):
            found.update(key for key in item if len(key) > QUOTE_CHARS)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return tuple(sorted(found, key=len, reverse=True))


def cut_long_values(message: str, values: tuple[str, ...]) -> str:
    """``message`` with each of ``values`` (an agent's long strings, longest first) that it
    contains, quoted or not, cut to a short :func:`quote`: the safety net under every
    error message, whichever code built it."""
    for value in values:
        if value in message:
            message = message.replace(repr(value), quote(value))
            message = message.replace(value, shorten(value, QUOTE_CHARS))
    return message


def shorten(text: str, limit: int) -> str:
    """``text`` cleaned, and cut to ``limit`` characters with ``… (N chars)`` when
    longer."""
    if len(text) <= limit:
        return clean_text(text)
    return f"{clean_text(text[:limit])}… ({len(text)} chars)"


def describe_exception(exc: BaseException, limit: int = 1000) -> str:
    """``TypeName: message`` of an agent's exception, cleaned and cut to ``limit``
    characters; an exception whose message cannot be made is described by its type."""
    try:
        message = str(exc)
    except Exception as failure:
        message = f"(its message cannot be shown: {type(failure).__name__})"
    name = shorten(type(exc).__name__, _KEY_CHARS)
    return shorten(f"{name}: {message}" if message else name, limit)


_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                     "\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
"""What :func:`visible` rewrites: controls but tab and newline, bidirectional controls,
line and paragraph separators, surrogates, the noncharacters XML cannot hold."""


def _notation(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control, bidirectional control, line separator, lone
    surrogate and XML noncharacter written as its escape (``\\x1b``, ``\\u202e``); tab
    and newline are kept. Idempotent.

    Example:
        >>> visible("nul\\x00 \\u202eevil")
        'nul\\\\x00 \\\\u202eevil'
    """
    if text.isprintable():  # the usual case, and fast: every hidden character is not
        return text
    return _HIDDEN.sub(_notation, text)
