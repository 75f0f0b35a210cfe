"""CI gates on a run's per-mode summaries: ``remit run --fail-under 'pass^1=0.8,...'``.

A gate expression is a comma-separated list of terms::

    [MODE:]METRIC>=X    at least X (a floor; for metrics where higher is better)
    [MODE:]METRIC<=X    at most X (a ceiling; for metrics where lower is better)
    [MODE:]METRIC=X     X in the metric's better direction: at least X for pass^k and
                        the pass rate, at most X for every other metric

A term with a ``MODE:`` prefix gates that mode of the run; a term without one gates
every mode of the run. Metrics are named as in :class:`~remit.harness.ModeSummary` and
the comparison's trade-off rows:

- ``pass^K`` (or ``pass_hat_K``), K from 1 to the run's trials, and ``pass_rate``:
  higher is better;
- the rates of :data:`remit.harness.RATES` by key (``wrong_variant_rate``,
  ``wrong_variant_shown_rate``, ``unsupported_claim_rate``, ``abandoned_handoff_rate``,
  ``missing_handoff_rate``, ``unsupported_per_claim``, ...), plus
  ``wrong_variant_final`` and ``wrong_variant_shown`` for the first two: lower is
  better;
- the per-trial means ``mean_clarification_rounds``, ``mean_review_minutes``,
  ``mean_denials``, ``mean_steps`` and the agent-error count ``errors``: lower is better;
- for an agent that reports its usage (an LLM agent), the reply issues ``reply_issue_rate``
  (a share of trials) and ``mean_reply_issues`` (per trial): lower is better; a mode
  whose agent reported no usage does not measure them, and fails their gates.

A gate compares the metric's value (a rate's point estimate, not its interval) over the
mode's counted trials; a per-item rate with no item reads 0. A mode with no counted
trial, or a pass^K the mode cannot give (a scenario with fewer than K counted trials),
fails its gates, as does a rate no counted trial measured. Rates and pass^k take limits
between 0 and 1. A gate in the direction opposite to its metric's (``pass^1<=0.8``) is
refused as a likely mistake.

Example:
    >>> gates = parse_gates("pass^1=0.8,dual_control:wrong_variant_final<=0.02",
    ...                     modes=["all_tools", "dual_control"], trials=1)
    >>> [g.describe() for g in gates]
    ['pass^1 >= 0.8', 'dual_control: wrong_variant_rate <= 0.02']
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from remit.errors import RemitError
from remit.harness.aggregate import ModeSummary
from remit.harness.rates import RATES

__all__ = ["Gate", "GateError", "GateResult", "Metric", "check_gates", "gate_metric",
           "metric_names", "parse_gates"]


class GateError(RemitError, ValueError):
    """A gate expression that cannot be checked: bad syntax, no or an unknown metric, a
    limit out of range, a gate against its metric's direction, or a mode not in the run.

    Attributes:
        problem: what is wrong and what to write instead, one sentence.
    """

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


@dataclass(frozen=True)
class Metric:
    """A metric a gate can name.

    Attributes:
        key: its canonical name (``pass^1``, ``wrong_variant_rate``, ``mean_steps``).
        higher_is_better: whether larger values are better (pass^k, the pass rate).
        fraction: whether it lies between 0 and 1 (rates and pass^k).
        read: its value in a mode's summary; ``None`` when the summary cannot give it.
        unmeasured: why ``read`` gives ``None``, for a failing gate's line.
    """

    key: str
    higher_is_better: bool
    fraction: bool
    read: Callable[[ModeSummary], float | None]
    unmeasured: str = ""


def _rate_reader(key: str) -> Callable[[ModeSummary], float | None]:
    """A rate's value; ``None`` for a headline rate no counted trial measured (a per-item
    rate with no item reads 0)."""
    rate = next(r for r in RATES if r.key == key)

    def read(summary: ModeSummary) -> float | None:
        interval = rate.of(summary)
        return None if not interval.total and not rate.per_item else interval.value

    return read


def _means() -> dict[str, Metric]:
    readers: dict[str, Callable[[ModeSummary], float | None]] = {
        "mean_clarification_rounds": lambda s: s.mean_clarification_rounds,
        "mean_review_minutes": lambda s: s.mean_review_minutes,
        "mean_denials": lambda s: s.mean_denials,
        "mean_steps": lambda s: s.mean_steps,
        "errors": lambda s: float(s.errors),
    }
    return {key: Metric(key, False, False, read) for key, read in readers.items()}


_NO_USAGE = "the agent reported no usage, so no model reply was counted"


def _reply_issues() -> dict[str, Metric]:
    return {
        "reply_issue_rate": Metric(
            "reply_issue_rate", False, True,
            lambda s: s.reply_issue_rate.value if s.reply_issue_rate.total else None,
            _NO_USAGE),
        "mean_reply_issues": Metric("mean_reply_issues", False, False,
                                    lambda s: s.mean_reply_issues, _NO_USAGE),
    }


_METRICS: dict[str, Metric] = {
    "pass_rate": Metric("pass_rate", True, True, lambda s: s.pass_rate.value),
    **{r.key: Metric(r.key, False, True, _rate_reader(r.key),
                     "no counted trial's score measured it") for r in RATES},
    **_means(),
    **_reply_issues(),
}
_ALIASES = {"wrong_variant_final": "wrong_variant_rate",
            "wrong_variant_shown": "wrong_variant_shown_rate"}
_PASS_HAT = re.compile(r"^pass(?:\^|_hat_)(\d+)$")


def metric_names() -> tuple[str, ...]:
    """The names a gate accepts, for messages: ``pass^K`` then every other metric."""
    return ("pass^K", *_METRICS, *_ALIASES)


def gate_metric(name: str) -> Metric:
    """The metric called ``name`` (see the module docstring for the names).

    Raises:
        GateError: no metric has that name (the message lists the names).
    """
    found = _PASS_HAT.match(name)
    if found is not None:
        k = int(found.group(1))
        if k < 1:
            raise GateError(f"metric {name!r}: pass^k needs k of 1 or more; write pass^1")
        return Metric(f"pass^{k}", True, True, lambda s: s.pass_hat_k.get(k),
                      f"a scenario has fewer than {k} counted trials")
    metric = _METRICS.get(_ALIASES.get(name, name))
    if metric is None:
        raise GateError(f"unknown metric {name!r}; gate one of {', '.join(metric_names())}")
    return metric


class Gate(BaseModel):
    """One term of a gate expression.

    Attributes:
        term: the term as written.
        mode: the mode it gates; ``None``: every mode of the run.
        metric: the metric's canonical name.
        op: ``>=`` (at least ``limit``) or ``<=`` (at most ``limit``).
        limit: the limit.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    term: str
    mode: str | None
    metric: str
    op: Literal[">=", "<="]
    limit: float

    def describe(self) -> str:
        """``[mode: ]metric op limit``, e.g. ``dual_control: pass^1 >= 0.8``."""
        where = f"{self.mode}: " if self.mode is not None else ""
        return f"{where}{self.metric} {self.op} {self.limit:g}"


class GateResult(BaseModel):
    """A gate checked on one mode.

    Attributes:
        gate: the gate.
        mode: the mode checked.
        value: the metric's value there; ``None`` when the mode cannot give it.
        passed: whether the gate holds.
        unmeasured: why ``value`` is ``None`` (no counted trial, too few for pass^k).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    gate: Gate
    mode: str
    value: float | None
    passed: bool
    unmeasured: str | None = None

    def line(self) -> str:
        """One line for people: mode, metric, value and limit."""
        gate = self.gate
        if self.value is None:
            return (f"{self.mode}: {gate.metric} is not measured ({self.unmeasured}), so "
                    f"{gate.metric} {gate.op} {gate.limit:g} fails")
        relation = {(True, ">="): "at least", (True, "<="): "at most",
                    (False, ">="): "below", (False, "<="): "above"}[(self.passed, gate.op)]
        return f"{self.mode}: {gate.metric} = {self.value:.4g}, {relation} the limit {gate.limit:g}"


_TERM = re.compile(r"^(?:(?P<mode>[^:<>=]+):)?(?P<metric>[^<>=]*?)\s*(?P<op>>=|<=|=)\s*"
                   r"(?P<limit>.*)$")
_HINT = ("write terms such as pass^1>=0.8 or dual_control:wrong_variant_final<=0.02, "
         "separated by commas")


def _term(term: str, modes: Sequence[str] | None, trials: int | None) -> Gate:
    found = _TERM.match(term)
    if found is None:
        raise GateError(f"--fail-under term {term!r} has no comparison (>=, <= or =); {_HINT}")
    name = found.group("metric").strip()
    if not name:
        raise GateError(f"--fail-under term {term!r} names no metric; {_HINT}")
    try:
        metric = gate_metric(name)
    except GateError as exc:
        raise GateError(f"--fail-under term {term!r}: {exc.problem}") from None
    mode = found.group("mode").strip() if found.group("mode") else None
    if mode is not None and modes is not None and mode not in modes:
        raise GateError(f"--fail-under term {term!r} gates mode {mode!r}, which the run does "
                        f"not have (its modes: {', '.join(modes)}); name one of those, or "
                        "leave MODE: out to gate every mode")
    text = found.group("limit").strip()
    try:
        limit = float(text)
    except ValueError:
        limit = math.nan
    if not math.isfinite(limit):
        raise GateError(f"--fail-under term {term!r}: the limit {text!r} is not a number; "
                        f"{_HINT}")
    if metric.fraction and not 0.0 <= limit <= 1.0:
        raise GateError(f"--fail-under term {term!r}: {metric.key} lies between 0 and 1, so "
                        f"the limit {limit:g} can never be met or never fail; write it as a "
                        "fraction (0.8, not 80)")
    op = found.group("op")
    floor = metric.higher_is_better
    if op == ("<=" if floor else ">="):
        better = "higher" if floor else "lower"
        right = ">=" if floor else "<="
        raise GateError(f"--fail-under term {term!r}: {metric.key} is better {better}, so its "
                        f"gate is a {'floor' if floor else 'ceiling'}; write "
                        f"{name}{right}{text} (or {name}={text})")
    k = int(metric.key[5:]) if metric.key.startswith("pass^") else None
    if k is not None and trials is not None and k > trials:
        raise GateError(f"--fail-under term {term!r}: the run has {trials} trial(s) per "
                        f"scenario and mode, so pass^{k} is not measured; gate pass^k with k "
                        f"up to {trials}, or run --trials {k}")
    return Gate(term=term, mode=mode, metric=metric.key, op=">=" if floor else "<=",
                limit=limit)


def parse_gates(text: str, *, modes: Sequence[str] | None = None,
                trials: int | None = None) -> tuple[Gate, ...]:
    """The gates of a ``--fail-under`` expression (see the module docstring).

    Args:
        text: the expression.
        modes: the run's modes; a term naming another mode is refused (``None``: not
            checked).
        trials: the run's trials per scenario and mode; pass^K with a larger K is refused.

    Raises:
        GateError: an empty expression or term, bad syntax, an unknown metric, a limit
            that is not a number or out of range, a gate against its metric's direction,
            or a mode the run does not have.
    """
    terms = [t.strip() for t in text.split(",")]
    if not any(terms):
        raise GateError(f"--fail-under {text!r} names no gate; {_HINT}")
    if not all(terms):
        raise GateError(f"--fail-under {text!r} has an empty term (two commas in a row, or "
                        f"one at an end); {_HINT}")
    return tuple(_term(term, modes, trials) for term in terms)


def check_gates(gates: Sequence[Gate], summaries: Mapping[str, ModeSummary],
                modes: Sequence[str]) -> list[GateResult]:
    """Every gate on every mode it applies to, in gate then mode order.

    Args:
        gates: the gates.
        summaries: the run's per-mode summaries (a mode with no counted trial has none).
        modes: the run's modes, in run order.
    """
    results = []
    for gate in gates:
        metric = gate_metric(gate.metric)
        for mode in ([gate.mode] if gate.mode is not None else modes):
            summary = summaries.get(mode)
            value = metric.read(summary) if summary is not None else None
            unmeasured = None
            if summary is None:
                unmeasured = "no counted trial in this mode"
            elif value is None:
                unmeasured = metric.unmeasured
            passed = value is not None and (value >= gate.limit if gate.op == ">="
                                            else value <= gate.limit)
            results.append(GateResult(gate=gate, mode=mode, value=value, passed=passed,
                                      unmeasured=unmeasured))
    return results
