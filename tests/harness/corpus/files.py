"""The corpus's YAML files: where they are and how their entries load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).parent


def load_entries(pattern: str) -> list[dict[str, Any]]:
    """Every entry of the corpus files matching ``pattern``, each marked with its file."""
    entries: list[dict[str, Any]] = []
    for path in sorted(CORPUS.glob(pattern)):
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for entry in loaded:
            entry["file"] = path.name
        entries += loaded
    return entries
