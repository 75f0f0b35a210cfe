"""Terminal rendering of run results (rich). Renderers take plain result objects."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.table import Table

from remit.harness.aggregate import ModeSummary
from remit.harness.stats import Interval

__all__ = ["mode_table"]


def _rate(interval: Interval) -> str:
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


_ROWS: tuple[tuple[str, Callable[[ModeSummary], str]], ...] = (
    ("trials", lambda s: f"{s.trials} ({s.scenarios} scenarios)"),
    ("wrong variant", lambda s: _rate(s.wrong_variant_rate)),
    ("unsupported claim (per claim)", lambda s: _rate(s.unsupported_claim_rate)),
    ("abandoned hand-off", lambda s: _rate(s.abandoned_handoff_rate)),
    ("clarification rounds", lambda s: f"{s.mean_clarification_rounds:.1f}"),
    ("review minutes", lambda s: f"{s.mean_review_minutes:.0f}"),
    ("denials", lambda s: f"{s.mean_denials:.1f}"),
    ("steps", lambda s: f"{s.mean_steps:.1f}"),
    ("agent errors", lambda s: str(s.errors)),
)


def mode_table(summaries: Mapping[str, ModeSummary], title: str = "Per-mode results") -> Table:
    """One column per control mode, one row per metric: pass^k for every k, the three
    rates with Wilson 95% intervals, and the conversation's costs (means per trial)."""
    table = Table(title=title)
    table.add_column("metric", style="bold")
    for name in summaries:
        table.add_column(name, justify="right")
    ks = sorted({k for s in summaries.values() for k in s.pass_hat_k})
    for k in ks:
        table.add_row(f"pass^{k}", *(
            f"{s.pass_hat_k[k]:.2f}" if k in s.pass_hat_k else "-" for s in summaries.values()))
    for label, cell in _ROWS:
        table.add_row(label, *(cell(s) for s in summaries.values()))
    return table
