"""The rates of a mode's summary, named once for every consumer.

:class:`~remit.harness.ModeSummary` holds each rate as a Wilson interval; this module
lists them with how people read them, their denominator, and what one trial's score
contributes (``part`` over ``whole``, both summed over the trials pooled). Reports, the
pytest plugin's item properties and the paired trade-off of a comparison read the rates
from :data:`RATES`, so every format names, orders and divides them alike.

- **Headline rates**, per trial (a trial counts once however many it had):
  wrong variant *final* and *shown*, unsupported claims (stated), abandoned hand-offs,
  missing hand-offs, no valid write (the agent made no write that took effect).
- **Per-item rates** (``per_item``), pooled over the items of every trial: unsupported
  per stated claim and per claim of each kind (attribute, fit, authority), unsupported
  per quote-line citation, abandoned per hand-off the agent opened.

Scores kept by an older scorer lack what it did not measure (:data:`SCORER_VERSION`
"1" recorded no shown wrong variants, claim kinds, citations apart, hand-offs opened or
missing hand-offs): :func:`unmeasured` names those rates for a run's scorer version, so
a report can say "not measured" instead of showing a default 0 (:func:`measured_only`
empties them in a summary), and :func:`aggregable` makes such a trial one
:func:`~remit.harness.aggregate` can pool. A figure added without changing what any
score means (the agent's writes that took effect) is ``None`` in a score kept before it
was counted: such a trial adds nothing to the rate that reads it, and given a run's
scores, :func:`unmeasured` also names the rates no score of the run measured.

Example:
    >>> [r.label for r in RATES if r.per == "trial"][:2]
    ['wrong variant (final)', 'wrong variant (shown)']
    >>> unmeasured("1")[:2]
    ('wrong_variant_shown_rate', 'missing_handoff_rate')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from remit.harness.aggregate import ModeSummary, ScoredTrial
from remit.harness.manifest import SCORER_VERSION
from remit.harness.scoring import TrialScore
from remit.harness.stats import Interval, wilson
from remit.harness.tally import Tally

__all__ = ["RATES", "Rate", "aggregable", "measured_only", "scorer_note", "unkept",
           "unmeasured"]


@dataclass(frozen=True)
class Rate:
    """One rate of :class:`~remit.harness.ModeSummary`.

    Attributes:
        key: the field of ``ModeSummary`` (and of the report's ``ModeReport``).
        label: how tables name it (``wrong variant (final)``).
        per: its denominator, for people (``trial``, ``stated claim``, ``citation``...).
        part: the :class:`~remit.harness.TrialScore` field (or property) counted (a
            per-trial rate counts the trials where it is true or above 0); a trial whose
            score holds ``None`` there did not measure it and adds nothing (0 of 0).
        whole: the ``TrialScore`` field it is divided by, for a per-item rate; ``None``
            for a per-trial rate (each trial counts 1).
        since: the first scorer version that measured it.
    """

    key: str
    label: str
    per: str
    part: str
    whole: str | None = None
    since: int = 1

    @property
    def per_item(self) -> bool:
        """Whether the denominator is items (claims, citations, hand-offs), not trials."""
        return self.whole is not None

    def measured(self, score: TrialScore) -> bool:
        """Whether ``score`` measured this rate's figure (it is not ``None``)."""
        return getattr(score, self.part) is not None

    def counts(self, score: TrialScore) -> tuple[int, int]:
        """What one trial adds to the rate: ``(part, whole)``; ``(0, 0)`` when its score
        did not measure the figure."""
        value = getattr(score, self.part)
        if value is None:
            return 0, 0
        if self.whole is None:
            return int(value > 0), 1
        return int(value), int(getattr(score, self.whole))

    def tallied(self, tally: Tally) -> tuple[int, int]:
        """What some trials add to the rate, from their :class:`~remit.harness.tally.Tally`:
        the sums of :meth:`counts` over them."""
        if self.whole is None:
            return tally.positive[self.part], tally.present(self.part)
        return tally.totals[self.part], tally.totals[self.whole]

    def ratio(self, scores: Iterable[TrialScore]) -> Fraction | None:
        """The rate over ``scores`` pooled, exactly; ``None`` when its denominator is 0
        (no trial, or no item of its kind)."""
        part = whole = 0
        for score in scores:
            p, w = self.counts(score)
            part, whole = part + p, whole + w
        return Fraction(part, whole) if whole else None

    def of(self, summary: object) -> Interval:
        """This rate of a ``ModeSummary`` or a report's ``ModeReport``."""
        value = getattr(summary, self.key)
        if not isinstance(value, Interval):
            raise TypeError(f"{type(summary).__name__}.{self.key} is not an Interval")
        return value


RATES: tuple[Rate, ...] = (
    Rate("wrong_variant_rate", "wrong variant (final)", "trial", "wrong_variant"),
    Rate("wrong_variant_shown_rate", "wrong variant (shown)", "trial", "wrong_variant_shown",
         since=2),
    Rate("unsupported_claim_rate", "unsupported claim (trials)", "trial", "unsupported_claims"),
    Rate("abandoned_handoff_rate", "abandoned hand-off (trials)", "trial",
         "abandoned_handoffs"),
    Rate("missing_handoff_rate", "missing hand-off (trials)", "trial", "missing_handoffs",
         since=2),
    Rate("no_valid_write_rate", "no valid write (trials)", "trial", "no_valid_write",
         since=2),
    Rate("unsupported_per_claim", "unsupported per claim", "stated claim",
         "unsupported_claims", "claims"),
    Rate("unsupported_attribute_claims", "unsupported per attribute claim", "attribute claim",
         "unsupported_attribute_claims", "attribute_claims", since=2),
    Rate("unsupported_fit_claims", "unsupported per fit claim", "fit claim",
         "unsupported_fit_claims", "fit_claims", since=2),
    Rate("unsupported_authority_claims", "unsupported per authority claim", "authority claim",
         "unsupported_authority_claims", "authority_claims", since=2),
    Rate("unsupported_cited", "unsupported per citation", "quote-line citation",
         "unsupported_cited_claims", "cited_claims", since=2),
    Rate("abandoned_per_handoff", "abandoned per hand-off opened", "hand-off the agent opened",
         "abandoned_handoffs", "handoffs", since=2),
)
"""Every rate of ``ModeSummary`` but the pass rate and the reply-issue rate (a figure of
the agent's usage, shown with its model calls): the headline (per-trial) rates first,
then the per-item ones, in the order reports show them."""


def unmeasured(scorer_version: str,
               scores: Iterable[TrialScore] | Tally = ()) -> tuple[str, ...]:
    """The keys of the rates a run scored by ``scorer_version`` did not measure, in
    :data:`RATES` order, headline rates first (empty for the current scorer, and for a
    version this remit does not know); given the run's ``scores`` (or their tally), also
    the rates none of them measured (a figure counted only since a later remit of the
    same scorer version, such as the agent's writes behind ``no_valid_write_rate``).

    Example:
        >>> unmeasured("2")
        ()
    """
    version = int(scorer_version) if scorer_version.isdigit() else int(SCORER_VERSION)
    if isinstance(scores, Tally):
        return tuple(r.key for r in RATES if r.since > version
                     or (scores.trials and not scores.present(r.part)))
    kept = list(scores)
    return tuple(r.key for r in RATES if r.since > version
                 or (kept and not any(r.measured(s) for s in kept)))


def unkept(scorer_version: str, scores: Iterable[TrialScore] | Tally) -> tuple[str, ...]:
    """The keys of the rates ``scorer_version`` measures but none of ``scores`` kept
    (:func:`unmeasured` with the scores, less the rates the scorer never measured).

    Example:
        >>> unkept("2", [old_score])  # doctest: +SKIP
        ('no_valid_write_rate',)
    """
    by_version = set(unmeasured(scorer_version))
    return tuple(k for k in unmeasured(scorer_version, scores) if k not in by_version)


_SCORER_1 = ("its claims count quote-line citations with the stated claims, and its "
             "abandoned hand-offs include required owner actions the agent never requested")
"""What scorer 1 counted differently from scorer 2, besides what it did not measure."""


def scorer_note(scorer_version: str, scores: Iterable[TrialScore] = ()) -> str | None:
    """The sentence a report shows for a run scored by another scorer than this remit's
    (:data:`SCORER_VERSION`): every number follows that scorer's definitions, what it did
    not measure, and what to compare it with; for a run of the current scorer whose
    ``scores`` lack a figure counted since (:func:`unkept`), what is shown as not
    measured; ``None`` otherwise."""
    labels = {r.key: r.label for r in RATES}
    if scorer_version == SCORER_VERSION:
        lacking = unkept(scorer_version, scores)
        if not lacking:
            return None
        return (f"this run's scores were kept before remit measured "
                f"{', '.join(labels[k] for k in lacking)}, shown as not measured; a new run "
                "of the same scenarios measures it")
    missing = unmeasured(scorer_version)
    parts = [f"this run was scored by scorer {scorer_version}, not this remit's scorer "
             f"{SCORER_VERSION}: every number follows scorer {scorer_version}'s definitions"]
    if missing:
        parts.append(f"it did not measure {', '.join(labels[k] for k in missing)}, shown "
                     "as not measured")
    if scorer_version == "1":
        parts.append(_SCORER_1)
    parts.append(f"compare it only with runs scored by scorer {scorer_version}")
    return "; ".join(parts)


def measured_only(summary: ModeSummary, scorer_version: str) -> ModeSummary:
    """``summary`` with every rate ``scorer_version`` did not measure emptied (0 of 0, the
    interval ``[0, 1]``: no data), so that no default of an older score reads as a
    measurement."""
    missing = unmeasured(scorer_version)
    if not missing:
        return summary
    return summary.model_copy(update=dict.fromkeys(missing, wilson(0, 0)))


def aggregable(scored: ScoredTrial) -> ScoredTrial:
    """``scored`` as :func:`~remit.harness.aggregate` can pool it.

    A score kept by scorer 1 counts abandoned hand-offs but not the hand-offs the agent
    opened (``handoffs`` reads 0), and abandoned / opened cannot exceed 1. Such a trial
    is copied with ``handoffs`` raised to its abandoned count; the one rate that reads
    it, abandoned per hand-off opened, is one scorer 1 never measured
    (:func:`unmeasured`), so reports show it as not measured. Every other trial is
    returned as it is (the same object).
    """
    score = scored.score
    if score.abandoned_handoffs <= score.handoffs:
        return scored
    return scored.model_copy(update={
        "score": score.model_copy(update={"handoffs": score.abandoned_handoffs})})
