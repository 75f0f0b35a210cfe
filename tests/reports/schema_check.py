"""A small JSON Schema checker for the report tests (``jsonschema`` is not installed and
the project adds no dependency for a test).

It covers what pydantic's generated schemas use: ``$ref`` to ``#/$defs/...``, ``type``
(one or several), ``properties``, ``required``, ``additionalProperties`` (false or a
schema), ``items``, ``anyOf``, ``enum``, ``const``, ``pattern``, ``format: date-time``.
Unknown keywords are ignored, as JSON Schema says. It returns every violation, each
with its JSON path.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import JsonValue

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "null": (type(None),), "integer": (int,), "number": (int, float),
}


def _is(value: JsonValue, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def violations(value: JsonValue, schema: JsonValue, root: dict[str, JsonValue] | None = None,
               path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty when it validates)."""
    if not isinstance(schema, dict):
        return []
    root = root if root is not None else schema
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target: JsonValue = root
        for part in ref.removeprefix("#/").split("/"):
            assert isinstance(target, dict), ref
            target = target[part]
        return violations(value, target, root, path)
    problems: list[str] = []
    any_of = schema.get("anyOf")
    if isinstance(any_of, list) and all(violations(value, s, root, path) for s in any_of):
        problems.append(f"{path}: matches none of {len(any_of)} alternatives")
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
    if kinds and not any(_is(value, str(k)) for k in kinds):
        return [*problems, f"{path}: {type(value).__name__} is not {kinds}"]
    if "enum" in schema and isinstance(schema["enum"], list) and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} not in enum")
    if "const" in schema and value != schema["const"]:
        problems.append(f"{path}: {value!r} is not the constant {schema['const']!r}")
    if isinstance(value, str):
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and not re.search(pattern, value):
            problems.append(f"{path}: {value!r} does not match {pattern!r}")
        if schema.get("format") == "date-time":
            try:
                datetime.fromisoformat(value)
            except ValueError:
                problems.append(f"{path}: {value!r} is not a date-time")
    if isinstance(value, dict):
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        required = schema.get("required")
        for name in required if isinstance(required, list) else []:
            if name not in value:
                problems.append(f"{path}: missing required {name!r}")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                problems += violations(item, properties[name], root, f"{path}.{name}")
            elif extra is False:
                problems.append(f"{path}: unexpected property {name!r}")
            elif isinstance(extra, dict):
                problems += violations(item, extra, root, f"{path}.{name}")
    if isinstance(value, list):
        items = schema.get("items")
        for index, item in enumerate(value):
            problems += violations(item, items, root, f"{path}[{index}]")
    return problems
