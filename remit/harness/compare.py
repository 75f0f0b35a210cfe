"""Comparing two sides (a mode of a run each), paired by scenario.

A side is one control mode of one run: two modes of the same run, or the same mode in
two runs. :func:`compare` pairs the sides by scenario and reports:

- **pass^1 and its delta**: per scenario, a side's pass^1 is passes / trials; a side's
  pass^1 is the mean over the paired scenarios, and ``delta = pass1_b - pass1_a`` is the
  mean over paired scenarios of (b - a).
- **a paired bootstrap 95% interval** of the delta: scenarios are resampled with
  replacement (``random.Random(seed)``, ``resamples`` times); the ends are the sorted
  resampled means at positions ``floor(0.025·(R-1))`` and ``ceil(0.975·(R-1))``
  (the positions, not the values, are rounded outward). Means are exact (integer sums
  over a common denominator), so when every scenario has the same difference the
  interval is that single point.
- **McNemar's exact test** on scenario-level outcomes. A scenario *passes* on a side
  when **all** its counted trials passed (pass^k at k = n: the strict, reliability
  reading; one failure in n trials is a failure). ``b01`` counts scenarios passing on
  b only, ``b10`` on a only; ``p = min(1, 2·Σ_{i≤min(b01,b10)} C(n,i) / 2^n)`` with
  ``n = b01 + b10`` (``p = 1`` when ``n = 0``).
- **flips**: the scenarios whose outcome differs, with direction (``from`` a, ``to`` b).
- **rates side by side**: each side's :class:`~remit.harness.aggregate.ModeSummary`
  over the paired scenarios' trials, every rate with its Wilson interval
  (:data:`remit.harness.rates.RATES`): wrong variant final and shown, unsupported
  stated claims (share of trials, per claim and per claim of each kind), unsupported
  quote-line citations (per citation), abandoned hand-offs (share of trials and per
  hand-off opened) and missing hand-offs; its ``pass_hat_k[1]`` equals the side's
  pass^1. A side scored by an older scorer names the rates it did not measure
  (``unmeasured``; they read 0 of 0 in its summary), and a warning says they are not
  compared; so does a side whose scores were kept before remit measured a rate (the
  agent's valid writes, under ``no_valid_write_rate``).
- **missing**: scenarios on one side only, or whose trials were all excluded; they are
  left out of the pairing and listed.

Infrastructure-error trials (``TrialRecord.infra_error`` set) follow each side's pinned
error treatment: ``exclude`` drops them, ``failure`` counts them as failed trials; the
report counts both.

Two sides are comparable only when their suite fingerprint and scorer version agree;
otherwise :func:`compare` raises :class:`NotComparableError` naming what differs (and,
when the runs selected different scenarios of their suite, both selections), unless
``force=True``, which compares anyway and puts the sentence in ``warnings``. Sides that
share no scenario are never compared. Each side's trial scores are read through
:func:`remit.harness.rates.aggregable`, so scores kept by an older scorer aggregate.

What is compared, and how it is named: two modes of one run (``kind="modes"``; each side
is labelled by its mode) or two runs (``kind="runs"``; each side is labelled by its run id
and agent, ``r-20261129-1530-4f9c (baseline)``, and by its mode too when the sides'
modes differ). ``Comparison.title`` says it in one line, and every report names the
sides by these labels. When both runs recorded their agent's code identity and the
agents have the same import path and declared configuration but different code hashes,
a warning says the agents differ only by code.

Example:
    >>> a = Side(manifest=manifest, mode="dual_control", trials=result.trials)  # doctest: +SKIP
    >>> b = Side(manifest=manifest, mode="all_tools", trials=result.trials)     # doctest: +SKIP
    >>> c = compare(a, b)                                                       # doctest: +SKIP
    >>> c.title, c.delta                                                        # doctest: +SKIP
    ('modes dual_control vs all_tools of run r-1 (baseline), 6 paired scenarios', -0.2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from remit.actors.llm.provenance import LLM_CACHE_KEY
from remit.errors import RemitError
from remit.harness.aggregate import AggregationError, ModeSummary, summary_of
from remit.harness.manifest import RunManifest, ScenarioSelection
from remit.harness.paired import (
    ItemCounts,
    mcnemar_exact_p,
    paired_bootstrap,
    paired_ratio_test,
    sign_flip_p,
)
from remit.harness.rates import RATES, measured_only, unkept, unmeasured
from remit.harness.runner import TrialRecord
from remit.harness.tally import ScenarioTally, Tally, tally_records

__all__ = [
    "CONFIDENCE",
    "Comparison",
    "ComparisonKind",
    "Flip",
    "ItemCounts",
    "MissingScenario",
    "NotComparableError",
    "Side",
    "SideReport",
    "compare",
    "describe_selection",
    "mcnemar_exact_p",
    "model_calls_source",
    "paired_bootstrap",
    "paired_ratio_test",
    "side_labels",
    "sign_flip_p",
]

CONFIDENCE = 0.95
"""The coverage of the bootstrap interval of the delta."""


Outcome = Literal["pass", "fail"]

ComparisonKind = Literal["modes", "runs"]
"""What a comparison compares: two modes of one run, or two runs."""


class NotComparableError(RemitError, ValueError):
    """Two sides that cannot be compared.

    Attributes:
        a, b: the sides' labels.
        problems: one sentence per problem (what differs, or why nothing pairs).
        differences: what differs between the sides, by field (``suite_fingerprint``,
            ``scorer_version``), as ``(value on a, value on b)``.
        forceable: whether ``force=True`` overrides the refusal.
    """

    def __init__(self, a: str, b: str, problems: Sequence[str], *,
                 differences: Mapping[str, tuple[str, str]] | None = None,
                 forceable: bool = False, remedy: str = "") -> None:
        self.a = a
        self.b = b
        self.problems = tuple(problems)
        self.differences = dict(differences or {})
        self.forceable = forceable
        if forceable:
            remedy = ("compare runs of the same suite scored by the same scorer, or pass "
                      "--force (force=True) to compare anyway")
        super().__init__(f"cannot compare {a!r} with {b!r}: {'; '.join(self.problems)}"
                         + (f"; {remedy}" if remedy else ""))


class Side(BaseModel):
    """One side of a comparison: a mode of a run.

    Attributes:
        label: how reports name the side; ``None`` (the default) lets :func:`compare`
            name it: by its mode (``dual_control``) when both sides are modes of one run,
            by run id and agent (``r-20261129-1530-4f9c (baseline)``) when they are two
            runs, followed by the mode when the two runs' sides are different modes.
        manifest: the run's manifest.
        mode: the control mode compared; must be one of the manifest's modes.
        trials: the run's trials; those of other modes are ignored.
        tallies: instead of ``trials``, the run's trials tallied per scenario, mode and
            infrastructure error (``remit.store.Store.tallies``, or
            :func:`~remit.harness.tally.tally_records`): all a comparison reads of them.
            ``None`` (the default): tally ``trials``.
    """

    model_config = ConfigDict(frozen=True)

    label: str | None = None
    manifest: RunManifest
    mode: str
    trials: tuple[TrialRecord, ...] = ()
    tallies: tuple[ScenarioTally, ...] | None = None

    def tallied(self) -> tuple[ScenarioTally, ...]:
        """The side's mode's tallies, in the order of their first trial.

        Raises:
            AggregationError: ``trials`` holds one trial of the mode twice.
        """
        if self.tallies is not None:
            return tuple(sorted((t for t in self.tallies if t.mode == self.mode),
                                key=lambda t: t.first))
        mine = [r for r in self.trials if r.scored.mode == self.mode]
        held = Counter((r.scored.scenario_id, r.scored.trial) for r in mine)
        if twice := next((key for key, n in held.items() if n > 1), None):
            raise AggregationError(f"trial {twice[1]} of scenario_id={twice[0]!r} in mode="
                                   f"{self.mode!r} is scored twice; keep one score per trial")
        return tally_records(mine)


class Flip(BaseModel):
    """A scenario whose outcome differs between the sides (a → b).

    Serialised as ``{"scenario_id": ..., "from": ..., "to": ...}``.
    """

    model_config = ConfigDict(frozen=True, serialize_by_alias=True, validate_by_name=True,
                              validate_by_alias=True)

    scenario_id: str
    from_: Outcome = Field(alias="from")
    to: Outcome


class MissingScenario(BaseModel):
    """A scenario left out of the pairing.

    Attributes:
        scenario_id: the scenario.
        missing_on: the side that has no counted trial of it.
        reason: ``not_run`` (the side never ran it) or ``all_excluded`` (every trial of
            it ended in an infrastructure error and the side excludes those).
    """

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    missing_on: Literal["a", "b"]
    reason: Literal["not_run", "all_excluded"]


class SideReport(BaseModel):
    """What the comparison saw of one side.

    Attributes:
        label: how every report names the side (see :class:`Side`).
        run_id, mode, mode_fingerprint, agent_id: the side's identity.
        on_exhausted: the side's treatment of infrastructure errors.
        excluded: infrastructure-error trials left out of the comparison.
        infra_failures: infrastructure-error trials counted as failures.
        pass1: mean over the paired scenarios of passes / trials.
        summary: the rates over the paired scenarios' counted trials.
        scorer_version: the scorer that scored the side's run.
        unmeasured: the keys of the summary's rates that scorer, or the side's kept
            scores, did not measure (:func:`remit.harness.rates.unmeasured`); they read
            0 of 0 (no data).
    """

    model_config = ConfigDict(frozen=True)

    label: str
    run_id: str
    mode: str
    mode_fingerprint: str
    agent_id: str
    on_exhausted: Literal["exclude", "failure"]
    excluded: int
    infra_failures: int
    pass1: float
    summary: ModeSummary
    scorer_version: str
    unmeasured: tuple[str, ...] = ()


class Comparison(BaseModel):
    """Side ``b`` compared with side ``a``, paired by scenario (``remit compare --json``).

    Attributes:
        kind: ``modes`` (two modes of one run) or ``runs`` (two runs).
        title: what is compared, in one line: ``runs r-A (baseline) vs r-B (oracle),
            mode dual_control, 10 paired scenarios`` or ``modes all_tools vs dual_control
            of run r-A (baseline), 10 paired scenarios``.
        a, b: the sides; their ``label`` names them wherever the comparison is shown.
        n_paired: scenarios with counted trials on both sides.
        pass1_a, pass1_b: each side's pass^1 over the paired scenarios.
        delta: ``pass1_b - pass1_a``.
        delta_low, delta_high: the paired bootstrap interval of ``delta``.
        confidence, resamples, seed: how the interval was computed.
        mcnemar_p: McNemar's exact two-sided p on scenario outcomes (all trials passed).
        b01, b10: scenarios passing on b only, on a only.
        flips: those scenarios, in pairing order.
        missing: scenarios left out of the pairing.
        excluded: infrastructure-error trials excluded, both sides together.
        warnings: sentences a reader must see (forced comparison, differing mode
            fingerprints or error treatments, agents that differ only by code, rates a
            side's scorer did not measure).
        forced: ``force=True`` overrode a difference in suite or scorer.
    """

    model_config = ConfigDict(frozen=True)

    kind: ComparisonKind
    title: str
    a: SideReport
    b: SideReport
    n_paired: int
    pass1_a: float
    pass1_b: float
    delta: float
    delta_low: float
    delta_high: float
    confidence: float = CONFIDENCE
    resamples: int
    seed: int
    mcnemar_p: float
    b01: int
    b10: int
    flips: tuple[Flip, ...]
    missing: tuple[MissingScenario, ...]
    excluded: int
    warnings: tuple[str, ...]
    forced: bool


class _Counted(NamedTuple):
    """A side's trials after its error treatment, tallied by scenario in run order.

    ``every`` tallies every trial of the side's mode, excluded ones included."""

    by_scenario: dict[str, Tally]
    all_excluded: tuple[str, ...]
    excluded: int
    infra_failures: int
    every: Tally


def _count(side: Side) -> _Counted:
    treatment = side.manifest.error_treatment.on_exhausted
    by_scenario: dict[str, Tally] = {}
    seen: dict[str, None] = {}
    excluded = infra_failures = 0
    every = Tally()
    for group in side.tallied():
        tally = group.tally
        every += tally
        seen.setdefault(group.scenario_id)
        if group.infra:
            if treatment == "exclude":
                excluded += tally.trials
                continue
            infra_failures += tally.trials
            tally = tally.failed()
        held = by_scenario.get(group.scenario_id)
        by_scenario[group.scenario_id] = tally if held is None else held + tally
    return _Counted(by_scenario={s: by_scenario[s] for s in seen if s in by_scenario},
                    all_excluded=tuple(s for s in seen if s not in by_scenario),
                    excluded=excluded, infra_failures=infra_failures, every=every)


def _kind(a: Side, b: Side) -> ComparisonKind:
    return "modes" if a.manifest.run_id == b.manifest.run_id else "runs"


def _label(side: Side, kind: ComparisonKind, same_mode: bool) -> str:
    if side.label is not None:
        return side.label
    if kind == "modes":
        return side.mode
    label = f"{side.manifest.run_id} ({side.manifest.agent_id})"
    return label if same_mode else f"{label} {side.mode}"


def side_labels(a: Side, b: Side) -> tuple[str, str]:
    """How reports name the two sides (see :class:`Side`): their own labels, else by
    mode within one run, by run id and agent across two runs.

    Example:
        >>> side_labels(Side(manifest=m1, mode="dual_control", trials=()),
        ...             Side(manifest=m2, mode="dual_control", trials=()))  # doctest: +SKIP
        ('r-1 (baseline)', 'r-2 (oracle)')
    """
    kind, same = _kind(a, b), a.mode == b.mode
    return _label(a, kind, same), _label(b, kind, same)


def _title(kind: ComparisonKind, a: Side, b: Side, labels: tuple[str, str], paired: int) -> str:
    count = f"{paired} paired scenario{'' if paired == 1 else 's'}"
    if kind == "modes":
        m = a.manifest
        return f"modes {labels[0]} vs {labels[1]} of run {m.run_id} ({m.agent_id}), {count}"
    mode = f", mode {a.mode}" if a.mode == b.mode else ""
    return f"runs {labels[0]} vs {labels[1]}{mode}, {count}"


def _check_modes(a: Side, b: Side, labels: tuple[str, str]) -> None:
    for name, side in (("a", a), ("b", b)):
        modes = [m.name for m in side.manifest.modes]
        if side.mode not in modes:
            raise NotComparableError(*labels, [
                f"side {name} names mode={side.mode!r}, which run "
                f"{side.manifest.run_id!r} did not run (its modes: {', '.join(modes)})"],
                remedy="pick one of the run's modes (remit compare --modes a,b)")


def describe_selection(selection: ScenarioSelection | None, suite_id: str,
                       total: int | None = None) -> str:
    """Which scenarios of its suite a run ran, for a sentence: ``12 of 120 scenarios of
    core (--tag discount)``, ``all 120 scenarios of core``.

    Args:
        selection: the manifest's selection (``None``: the whole suite).
        suite_id: the suite's id.
        total: the suite's size when ``selection`` does not say it.
    """
    if selection is None or selection.is_all:
        size = selection.total if selection is not None and selection.total else total
        return f"all {size} scenarios of {suite_id}" if size else f"all scenarios of {suite_id}"
    filters = []
    if selection.scenario_ids:
        filters.append(f"--scenario {','.join(selection.scenario_ids)}")
    if selection.keyword is not None:
        filters.append(f"-k {selection.keyword!r}")
    if selection.tags:
        filters.append(f"--tag {','.join(selection.tags)}")
    if selection.sample is not None:
        seed = f" seed {selection.sample_seed}" if selection.sample_seed is not None else ""
        filters.append(f"--sample {selection.sample}{seed}")
    return (f"{selection.selected} of {selection.total} scenarios of {suite_id} "
            f"({' '.join(filters)})")


def _filters(selection: ScenarioSelection | None) -> tuple[object, ...]:
    if selection is None or selection.is_all:
        return ()
    return (selection.scenario_ids, selection.keyword, selection.tags, selection.sample,
            selection.sample_seed)


def _selections(ma: RunManifest, mb: RunManifest) -> str:
    """``run r-1 ran 12 of 120 scenarios of core (--tag discount), run r-2 ran all 120
    scenarios of core``, or "" when the runs selected alike."""
    if _filters(ma.selection) == _filters(mb.selection):
        return ""
    sides = []
    for m, other in ((ma, mb), (mb, ma)):
        known = other.selection is not None and other.suite_id == m.suite_id
        total = other.selection.total if other.selection is not None and known else None
        sides.append(f"run {m.run_id} ran {describe_selection(m.selection, m.suite_id, total)}")
    return ", ".join(sides)


def _comparability(a: Side, b: Side, labels: tuple[str, str], *,
                   force: bool) -> tuple[list[str], bool]:
    ma, mb = a.manifest, b.manifest
    differences: dict[str, tuple[str, str]] = {}
    problems: list[str] = []
    if ma.suite_fingerprint != mb.suite_fingerprint:
        differences["suite_fingerprint"] = (ma.suite_fingerprint, mb.suite_fingerprint)
        selections = _selections(ma, mb)
        problems.append(f"suite fingerprint differs (a={ma.suite_fingerprint[:12]!r} of "
                        f"suite {ma.suite_id!r}, b={mb.suite_fingerprint[:12]!r} of suite "
                        f"{mb.suite_id!r})" + (f": {selections}" if selections else ""))
    if ma.scorer_version != mb.scorer_version:
        differences["scorer_version"] = (ma.scorer_version, mb.scorer_version)
        problems.append(f"scorer version differs (a={ma.scorer_version!r}, "
                        f"b={mb.scorer_version!r})")
    if problems and not force:
        raise NotComparableError(*labels, problems, differences=differences, forceable=True)
    warnings = []
    if problems:
        warnings.append(f"forced comparison: {'; '.join(problems)}; the sides may have run "
                        "different scenarios or been scored differently")
    fa = _mode_fingerprint(a)
    fb = _mode_fingerprint(b)
    if a.mode == b.mode and fa != fb:
        warnings.append(f"mode {a.mode!r} differs between the sides (fingerprint "
                        f"a={fa[:12]!r}, b={fb[:12]!r}): its authority map or flags changed")
    ta, tb = ma.error_treatment.on_exhausted, mb.error_treatment.on_exhausted
    if ta != tb:
        warnings.append(f"the sides treat infrastructure errors differently (a={ta!r}, "
                        f"b={tb!r})")
    ca, cb = model_calls_source(ma), model_calls_source(mb)
    if ca is not None and cb is not None and (ca == "replayed") != (cb == "replayed"):
        warnings.append(f"one side's model calls were replayed from cassettes and the "
                        f"other's were live (a: {ca}, b: {cb}): a difference may be the "
                        "model's drift since recording, not the agent's")
    code = _code_only_difference(ma, mb)
    if code:
        warnings.append(code)
    return warnings, bool(problems)


def _code_only_difference(ma: RunManifest, mb: RunManifest) -> str:
    """The warning that two runs' agents differ only by their source code, or ""."""
    ia, ib = ma.agent, mb.agent
    if ia is None or ib is None or ia.import_path is None or ma.run_id == mb.run_id:
        return ""
    if (ia.import_path != ib.import_path or ia.declared_config != ib.declared_config
            or ia.code_hash is None or ib.code_hash is None or ia.code_hash == ib.code_hash):
        return ""
    return (f"the agents differ only by code: both are {ia.import_path} with the same "
            f"declared configuration, but its source changed between the runs (code hash "
            f"a={ia.code_hash[:12]!r}, b={ib.code_hash[:12]!r})")


def _unmeasured_warnings(a: Side, b: Side, every: tuple[Tally, Tally]) -> list[str]:
    """One sentence per scorer version that left rates unmeasured on a side, and one per
    side whose scores were kept before remit measured a rate its scorer measures."""
    labels = {r.key: r.label for r in RATES}
    sides: dict[str, list[str]] = {}
    for name, side in (("a", a), ("b", b)):
        sides.setdefault(side.manifest.scorer_version, []).append(name)
    warnings = []
    for version, names in sides.items():
        missing = unmeasured(version)
        if missing:
            which = "both sides were" if len(names) == 2 else f"side {names[0]} was"
            warnings.append(f"{which} scored by scorer {version}, which did not measure "
                            f"{', '.join(labels[k] for k in missing)}: those rates are not "
                            "compared")
    for name, side, tally in (("a", a, every[0]), ("b", b, every[1])):
        lacking = unkept(side.manifest.scorer_version, tally)
        if lacking:
            warnings.append(f"side {name}'s scores were kept before remit measured "
                            f"{', '.join(labels[k] for k in lacking)}: not compared")
    return warnings


def model_calls_source(manifest: RunManifest) -> str | None:
    """How an LLM run's model calls were answered: ``live`` (cache off), ``live,
    recorded`` or ``replayed`` from cassettes; ``None`` for agents that call no model."""
    cache = manifest.metadata.get(LLM_CACHE_KEY)
    if not isinstance(cache, str):
        return None
    return {"off": "live", "record": "live, recorded", "replay": "replayed"}.get(cache, cache)


def _mode_fingerprint(side: Side) -> str:
    return next(m.fingerprint for m in side.manifest.modes if m.name == side.mode)


def _missing(a: _Counted, b: _Counted) -> tuple[MissingScenario, ...]:
    seen = dict.fromkeys([*a.by_scenario, *a.all_excluded, *b.by_scenario, *b.all_excluded])
    missing: list[MissingScenario] = []
    for on, counted in (("a", a), ("b", b)):
        for scenario_id in seen:
            if scenario_id not in counted.by_scenario:
                reason = "all_excluded" if scenario_id in counted.all_excluded else "not_run"
                missing.append(MissingScenario.model_validate(
                    {"scenario_id": scenario_id, "missing_on": on, "reason": reason}))
    return tuple(missing)


def _rate(tally: Tally) -> Fraction:
    return Fraction(tally.passed, tally.trials)


def _report(side: Side, label: str, counted: _Counted, paired: Sequence[str],
            pass1: float) -> SideReport:
    # Scores kept by scorer 1 are pooled as rates.aggregable() makes them.
    summary = summary_of(side.mode, [counted.by_scenario[s].pooled() for s in paired])
    return SideReport(label=label, run_id=side.manifest.run_id, mode=side.mode,
                      mode_fingerprint=_mode_fingerprint(side), agent_id=side.manifest.agent_id,
                      on_exhausted=side.manifest.error_treatment.on_exhausted,
                      excluded=counted.excluded, infra_failures=counted.infra_failures,
                      pass1=pass1,
                      summary=measured_only(summary, side.manifest.scorer_version),
                      scorer_version=side.manifest.scorer_version,
                      unmeasured=unmeasured(side.manifest.scorer_version, counted.every))


def compare(a: Side, b: Side, *, force: bool = False, seed: int = 0,
            resamples: int = 10_000) -> Comparison:
    """Compare side ``b`` against side ``a``, paired by scenario.

    Args:
        a: the reference side.
        b: the side compared with it (``delta`` is b - a).
        force: compare even when suite fingerprints or scorer versions differ.
        seed: seeds the bootstrap.
        resamples: bootstrap resamples.

    Raises:
        NotComparableError: suite fingerprint or scorer version differ (unless
            ``force``), a side names a mode its run did not run, or the sides share no
            scenario with counted trials.
        remit.harness.AggregationError: a side holds the same trial twice.
    """
    labels = side_labels(a, b)
    _check_modes(a, b, labels)
    warnings, forced = _comparability(a, b, labels, force=force)
    counted_a, counted_b = _count(a), _count(b)
    warnings += _unmeasured_warnings(a, b, (counted_a.every, counted_b.every))
    paired = [s for s in counted_a.by_scenario if s in counted_b.by_scenario]
    if not paired:
        raise NotComparableError(*labels, [
            f"the sides share no scenario with counted trials (a has "
            f"{len(counted_a.by_scenario)} in mode {a.mode!r}, b has "
            f"{len(counted_b.by_scenario)} in mode {b.mode!r})"],
            remedy="compare sides that ran at least one scenario in common")
    rates_a = [_rate(counted_a.by_scenario[s]) for s in paired]
    rates_b = [_rate(counted_b.by_scenario[s]) for s in paired]
    n = len(paired)
    pass1_a, pass1_b = float(sum(rates_a) / n), float(sum(rates_b) / n)
    differences = [rb - ra for ra, rb in zip(rates_a, rates_b, strict=True)]
    low, high = paired_bootstrap(differences, seed=seed, resamples=resamples)
    flips: list[Flip] = []
    for scenario_id, ra, rb in zip(paired, rates_a, rates_b, strict=True):
        pass_a, pass_b = ra == 1, rb == 1
        if pass_a != pass_b:
            flips.append(Flip.model_validate({"scenario_id": scenario_id,
                                              "from": "pass" if pass_a else "fail",
                                              "to": "pass" if pass_b else "fail"}))
    b01 = sum(f.to == "pass" for f in flips)
    b10 = len(flips) - b01
    kind = _kind(a, b)
    return Comparison(
        kind=kind, title=_title(kind, a, b, labels, n),
        a=_report(a, labels[0], counted_a, paired, pass1_a),
        b=_report(b, labels[1], counted_b, paired, pass1_b),
        n_paired=n, pass1_a=pass1_a, pass1_b=pass1_b,
        delta=float(sum(differences) / n), delta_low=low, delta_high=high,
        resamples=resamples, seed=seed,
        mcnemar_p=mcnemar_exact_p(b01, b10), b01=b01, b10=b10, flips=tuple(flips),
        missing=_missing(counted_a, counted_b),
        excluded=counted_a.excluded + counted_b.excluded,
        warnings=tuple(warnings), forced=forced,
    )
