"""Reading and writing authority maps as YAML or JSON.

:func:`load_map` parses text through pydantic and turns every validation error into
one sentence of a :class:`remit.errors.MapError`, naming the offending key path and
listing the valid values, e.g.
``grants[2].role: 'cfo' is not a role; valid roles: agent, buyer, technical_owner,
finance, system``. :func:`dump_map` writes a map so that ``load_map(dump_map(m)) == m``
and ``dump_map(load_map(text))`` is stable.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, TypeVar, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from remit.authority.conditions import Condition
from remit.authority.policy import AuthorityMap
from remit.authority.roles import Action, Role
from remit.documents import DocumentError, parse_text
from remit.errors import MapError

__all__ = ["MapFormat", "MapSyntaxError", "dump_map", "load_map", "map_problems",
           "parse_document"]

M = TypeVar("M", bound=BaseModel)

MapFormat = Literal["yaml", "json"]
"""The text formats a map loads from and dumps to."""

_ENUM_NOUNS: Mapping[type[StrEnum], str] = MappingProxyType({Role: "role", Action: "action"})


def load_map(text: str, *, format: MapFormat, source: str = "authority map") -> AuthorityMap:
    """Parse an authority map from YAML or JSON text.

    Args:
        text: the document.
        format: ``"yaml"`` or ``"json"``.
        source: where the text came from (a file name), quoted in errors.

    Returns:
        The validated map.

    Raises:
        MapSyntaxError: the text does not parse (a :class:`MapError` whose one problem
            names the line and column).
        MapError: the text does not describe a valid map; one problem per error, each
            naming the key path and the valid values.
    """
    return parse_document(text, AuthorityMap, format=format, source=source)


def parse_document(text: str, model: type[M], *, format: MapFormat, source: str) -> M:
    """Parse YAML or JSON text as ``model`` (a map, a mode file), with :func:`map_problems`
    sentences for every way it can be wrong.

    Raises:
        MapSyntaxError: the text does not parse (one line, naming the line and column).
        MapError: the text is not a mapping, or does not validate.
    """
    if format not in ("yaml", "json"):
        raise MapError([f"format={format!r} is not a map format; use yaml or json"], source)
    try:
        data = parse_text(text, format, source=source)
    except DocumentError as exc:
        raise MapSyntaxError(exc.problem, source, line=exc.line, column=exc.column) from None
    if not isinstance(data, dict):
        fields = ", ".join(model.model_fields)
        got = "an empty document" if data is None else type(data).__name__
        raise MapError([f"the document must be a mapping with keys {fields}; got {got}"],
                       source)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise MapError(map_problems(exc, model), source) from exc


class MapSyntaxError(MapError):
    """A map or mode file that does not parse as YAML or JSON at all (as opposed to one
    that parses but does not describe a valid map); its one problem names the line and
    column, e.g. ``not valid YAML at line 2, column 9: mapping values are not allowed
    here``.

    Attributes:
        line, column: where the parser stopped (1-based), when it says.
    """

    def __init__(self, problem: str, source: str, *, line: int | None = None,
                 column: int | None = None) -> None:
        self.line = line
        self.column = column
        super().__init__([problem], source)


def dump_map(authority_map: AuthorityMap, format: MapFormat) -> str:
    """Write a map as YAML or JSON text that :func:`load_map` reads back unchanged.

    Decimals are written as strings (``"5"``) so that no value passes through a float.
    """
    data = authority_map.model_dump(mode="json")
    if format == "yaml":
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    raise MapError([f"format={format!r} is not a map format; use yaml or json"], "dump_map")


def map_problems(exc: ValidationError, root: type[BaseModel] = AuthorityMap) -> list[str]:
    """One sentence per error of a map validation, naming the key path and valid values.

    A list whose items were all invalid also fails its minimum length; that echo of the
    item errors is left out.

    Args:
        exc: the validation error.
        root: the model validated (a map by default; a mode file's model for those).
    """
    errors = exc.errors()
    locs = [tuple(e["loc"]) for e in errors]

    def echoes_items(loc: tuple[int | str, ...]) -> bool:
        return any(len(other) > len(loc) and other[: len(loc)] == loc for other in locs)

    kept = [e for e in errors if not (e["type"] == "too_short" and echoes_items(tuple(e["loc"])))]
    return [_problem(e, root) for e in kept]


def _resolve(loc: tuple[int | str, ...], root: type[BaseModel]) -> tuple[str, object]:
    """The printable key path of ``loc`` and the type found there (``None`` if unknown)."""
    path = ""
    current: object = root
    for segment in loc:
        if isinstance(segment, int):
            path += f"[{segment}]"
            args = get_args(current)
            current = args[0] if get_origin(current) is tuple and args else None
            continue
        kinds = _condition_classes()
        if current is Condition and segment in kinds:
            current = kinds[segment]  # a union tag in the location, not a key of the document
            continue
        path += f".{segment}" if path else segment
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(segment) or next(
                (f for f in current.model_fields.values() if f.alias == segment), None)
            current = _strip_optional(field.annotation) if field is not None else None
        else:
            current = None
    return path or _top(root), current


def _top(root: type[BaseModel]) -> str:
    """How an error at the top of the document names its place."""
    return "map" if root is AuthorityMap else "document"


def _condition_classes() -> dict[str, type[BaseModel]]:
    union = get_args(Condition)[0]
    classes: tuple[type[BaseModel], ...] = get_args(union)
    return {get_args(c.model_fields["kind"].annotation)[0]: c for c in classes}


def _strip_optional(annotation: object) -> object:
    if get_origin(annotation) in {types.UnionType, typing.Union}:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _problem(error: ErrorDetails, root: type[BaseModel]) -> str:  # noqa: PLR0911 - one return per error type, read as a table
    loc = tuple(error["loc"])
    kind = error["type"]
    given = error.get("input")
    if kind == "extra_forbidden":
        path, _ = _resolve(loc, root)
        _, owner = _resolve(loc[:-1], root)
        if isinstance(owner, type) and issubclass(owner, BaseModel):
            valid = ", ".join(f.alias or n for n, f in owner.model_fields.items() if n != "kind")
            return f"{path}: unknown field; valid fields: {valid}"
        return f"{path}: unknown field"
    path, annotation = _resolve(loc, root)
    annotation = _strip_optional(annotation)
    enum = next((e for e in _ENUM_NOUNS if e is annotation), None)
    if kind == "enum" and enum is not None:
        noun = _ENUM_NOUNS[enum]
        valid = ", ".join(m.value for m in enum)
        article = "an" if noun[0] in "aeiou" else "a"
        return f"{path}: {given!r} is not {article} {noun}; valid {noun}s: {valid}"
    if kind == "literal_error" and get_origin(annotation) is Literal:
        valid = ", ".join(str(a) for a in get_args(annotation))
        return f"{path}: {given!r} is not allowed; valid values: {valid}"
    if kind in {"union_tag_invalid", "union_tag_not_found"}:
        valid = ", ".join(_condition_classes())
        if kind == "union_tag_not_found":
            return f"{path}: a condition needs a kind; valid kinds: {valid}"
        tag = error.get("ctx", {}).get("tag")
        return f"{path}.kind: {tag!r} is not a condition kind; valid kinds: {valid}"
    if kind == "too_short":
        return f"{path}: list at least one item"
    if kind == "missing":
        return f"{path}: required field is missing"
    if kind == "value_error":
        message = error["msg"].removeprefix("Value error, ")
        return message if path == _top(root) else f"{path}: {message}"
    if kind == "string_type":
        return f"{path}: {given!r} is not a string; write it in quotes"
    return f"{path}: {error['msg']} (got {given!r})"
