"""Reports: run summaries and mode comparisons for people (terminal today)."""

from __future__ import annotations

from remit.reports.console import mode_table

__all__ = ["mode_table"]
