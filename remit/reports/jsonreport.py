"""The report as JSON, and the JSON Schema it follows.

:func:`render_json` serialises a :class:`~remit.reports.model.RunReport` with its keys in
the model's field order (stable across runs; never sorted alphabetically, never
reordered by dict insertion), timestamps as ISO 8601 UTC, and every number as JSON
numbers. Text is kept exact, as data: JSON escapes the C0 controls, and
:func:`remit.reports.safe.model_json` writes DEL, the C1 and bidirectional controls as
``\\uXXXX`` escapes too (the same value once parsed, and plain to print); a lone
surrogate, which UTF-8 cannot encode, becomes U+FFFD. :func:`report_schema` is the JSON
Schema (draft 2020-12) of that output, generated from the model; it carries
:data:`REPORT_SCHEMA_VERSION` and is committed as ``docs/report.schema.json`` (a test
keeps the file equal to the generated schema).

Versioning (``major.minor``, in the report's ``report_version`` and the schema's
``version``): a new optional field or a new enum value that readers may ignore bumps
the minor version; removing or renaming a field, changing a field's type or meaning, or
making a field required bumps the major version. Readers should check the major
version and ignore unknown fields.

Example:
    >>> text = render_json(report)                        # doctest: +SKIP
    >>> json.loads(text)["report_version"]                # doctest: +SKIP
    '3.0'
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from remit.reports.model import REPORT_VERSION, RunReport
from remit.reports.safe import model_json

__all__ = ["REPORT_SCHEMA_ID", "REPORT_SCHEMA_VERSION", "parse_report", "render_json",
           "report_schema", "report_schema_json"]

REPORT_SCHEMA_VERSION = REPORT_VERSION
"""The version of the report's JSON Schema: the report version it describes."""

REPORT_SCHEMA_ID = "urn:remit:report-schema:3"
"""The schema's ``$id``: it names the major version it describes."""

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def render_json(report: RunReport, *, indent: int | None = 2) -> str:
    """The report as JSON text (keys in field order), ending with a newline.

    Args:
        report: the report.
        indent: spaces per level; ``None`` writes one compact line (large runs).
    """
    text = model_json(report, indent=indent)
    text += "\n"  # in place: a large run's JSON is tens of megabytes, copied for nothing
    return text


def parse_report(text: str | bytes) -> RunReport:
    """Read a report back from its JSON (validates every field).

    Raises:
        pydantic.ValidationError: the text is not a report of this version's shape.
    """
    return RunReport.model_validate_json(text)


def report_schema() -> dict[str, JsonValue]:
    """The JSON Schema of :func:`render_json`'s output (draft 2020-12).

    The schema's ``version`` is :data:`REPORT_SCHEMA_VERSION`; ``report_version`` is
    pinned to the same major version.
    """
    generated = RunReport.model_json_schema(mode="serialization")
    major = REPORT_SCHEMA_VERSION.split(".", 1)[0]
    properties = generated.get("properties")
    if isinstance(properties, dict):
        properties["report_version"] = {
            "type": "string", "title": "Report Version",
            "pattern": rf"^{major}\.[0-9]+$",
            "description": "major.minor; readers check the major version",
        }
    schema: dict[str, JsonValue] = {
        "$schema": _DIALECT,
        "$id": REPORT_SCHEMA_ID,
        "version": REPORT_SCHEMA_VERSION,
    }
    schema.update(json.loads(json.dumps(generated)))
    return schema


def report_schema_json() -> str:
    """:func:`report_schema` as the text of ``docs/report.schema.json``."""
    return json.dumps(report_schema(), indent=2, ensure_ascii=False) + "\n"
