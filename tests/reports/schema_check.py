"""JSON Schema validation for the report tests, with ``jsonschema`` (draft 2020-12).

``jsonschema`` is installed with the runtime dependency ``mcp`` (the official MCP SDK
requires it). Its format checker leaves ``date-time`` unchecked unless the optional
``rfc3339-validator`` is installed, so the checker here adds that format: RFC 3339
requires a time zone offset, which an aware UTC time carries (``...Z`` or ``+00:00``).
"""

from __future__ import annotations

from datetime import datetime

from jsonschema import Draft202012Validator, FormatChecker
from pydantic import JsonValue

FORMATS = FormatChecker()
"""Every format ``jsonschema`` knows, plus ``date-time``."""


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # formats constrain strings only
    return datetime.fromisoformat(value).tzinfo is not None


def validator(schema: JsonValue) -> Draft202012Validator:
    """A draft 2020-12 validator for ``schema``, which must itself be a valid schema."""
    assert isinstance(schema, dict)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FORMATS)


def violations(value: JsonValue, schema: JsonValue) -> list[str]:
    """Every way ``value`` breaks ``schema``, as ``<JSON path>: <message>``, sorted (empty
    when it validates)."""
    return sorted(f"{error.json_path}: {error.message}"
                  for error in validator(schema).iter_errors(value))
