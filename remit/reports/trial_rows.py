"""A run's trials as a report shows them: each trial's row, which of them keep their
approval trail, and reading those trails when the records come without them.

A report of a large run keeps the approval trails of a few of its trials (by default
the failing ones and one passing example per scenario and mode: :func:`kept_trails`).
Their trails are all it needs beyond the scores, so :func:`with_trails` reads them
through a :data:`TrailLoader` (:meth:`remit.store.Store.trails`) a batch at a time, as
the rows are built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from remit.authority import ControlMode, ModeError
from remit.harness.manifest import RunManifest
from remit.harness.modes import modes_from_metadata
from remit.harness.runner import TrialRecord
from remit.reports.approval import approval_trail
from remit.reports.model import TrailPolicy, TrialRow
from remit.scenarios import Scenario
from remit.world import TrailEntry

__all__ = ["TRAILS_PER_LOAD", "TrailLoader", "control_modes", "is_counted", "kept_trails",
           "policy_note", "trial_id", "trial_row", "with_trails"]

TrailLoader = Callable[[Sequence[tuple[str, str, int]]],
                      Mapping[tuple[str, str, int], tuple[TrailEntry, ...]]]
"""Reads the trails of chosen trials of a run, by (scenario, mode, trial): what
:meth:`remit.store.Store.trails` does for one run."""


def trial_id(manifest: RunManifest, record: TrialRecord) -> str:
    """``{run}/{scenario}/{mode}/{trial}``."""
    s = record.scored
    return f"{manifest.run_id}/{s.scenario_id}/{s.mode}/{s.trial}"


def is_counted(manifest: RunManifest, record: TrialRecord) -> bool:
    """Whether ``record`` counts in the run's numbers: an infrastructure error does
    only when the run's error treatment counts it as a failure."""
    return record.infra_error is None or manifest.error_treatment.on_exhausted == "failure"


def control_modes(manifest: RunManifest, names: Sequence[str],
                  given: Mapping[str, ControlMode] | None = None
                  ) -> dict[str, ControlMode | None]:
    """The control modes named ``names`` as the run ran them: from ``given``, else a
    built-in mode or a custom one whose definition the run kept, when its fingerprint is
    the run's; ``None`` for a mode that cannot be rebuilt (its trails then have no grant
    roles)."""
    fingerprints = {m.name: m.fingerprint for m in manifest.modes}
    found: dict[str, ControlMode | None] = {}
    for name in names:
        mode = (given or {}).get(name)
        if mode is None:
            # a built-in mode by name, a custom one from the definition the run kept; a
            # definition whose fingerprint differs from the run's is not that mode
            try:
                (candidate,) = modes_from_metadata([name], manifest.metadata)
            except ModeError:
                candidate = None
            if candidate is not None and fingerprints.get(
                    name, candidate.fingerprint) == candidate.fingerprint:
                mode = candidate
        found[name] = mode
    return found


def trial_row(manifest: RunManifest, record: TrialRecord, scenario: Scenario | None = None, *,
              mode: ControlMode | None = None, roles: Mapping[str, str] | None = None,
              with_trail: bool = True) -> TrialRow:
    """One trial of a run as a report shows it, with its approval trail unless
    ``with_trail`` is false (``record`` must then carry its trail).

    Args:
        manifest: the run's manifest (the trial's id, its error treatment).
        record: the trial.
        scenario: its scenario, for the divergence from the reference plan.
        mode: its control mode (:func:`control_modes`), for the grants' roles.
        roles: grant id -> role; default: from ``mode``'s map.
        with_trail: build the approval trail.
    """
    s = record.scored
    trail = approval_trail(record, scenario, mode=mode, roles=roles) if with_trail else None
    return TrialRow(
        id=trial_id(manifest, record), scenario_id=s.scenario_id, mode=s.mode, trial=s.trial,
        seed=record.seed, passed=s.score.passed and record.infra_error is None,
        counted=is_counted(manifest, record), infra_error=record.infra_error, score=s.score,
        trail=trail, seconds=record.seconds)


def kept_trails(policy: TrailPolicy, records: Sequence[TrialRecord]) -> list[bool]:
    """Which of ``records`` keep their approval trail under ``policy``: ``failing``
    keeps the failing trials (and those that ended in an infrastructure error) and the
    first passing trial of each scenario and mode; ``all`` and ``none`` say it."""
    if policy == "none":
        return [False] * len(records)
    if policy == "all":
        return [True] * len(records)
    examples: set[tuple[str, str]] = set()
    keep = []
    for record in records:
        s = record.scored
        if not s.score.passed or record.infra_error is not None:
            keep.append(True)
        elif (s.scenario_id, s.mode) not in examples:
            examples.add((s.scenario_id, s.mode))
            keep.append(True)
        else:
            keep.append(False)
    return keep


def _key(record: TrialRecord) -> tuple[str, str, int]:
    s = record.scored
    return s.scenario_id, s.mode, s.trial


TRAILS_PER_LOAD = 100
"""Trails read through a :data:`TrailLoader` at once: a report holds one such batch of
parsed trails at a time, not the trails of every trial it shows."""


def with_trails(records: Sequence[TrialRecord], keep: Sequence[bool],
                 load_trails: TrailLoader) -> Iterator[TrialRecord]:
    """``records`` in order, the kept ones with their trails, read through
    ``load_trails`` :data:`TRAILS_PER_LOAD` at a time as the caller consumes them."""
    kept = [i for i, k in enumerate(keep) if k]
    done = 0
    for start in range(0, len(kept), TRAILS_PER_LOAD):
        batch = kept[start:start + TRAILS_PER_LOAD]
        loaded = load_trails([_key(records[i]) for i in batch])
        for i in batch:
            yield from records[done:i]
            yield records[i].model_copy(update={"trail": loaded[_key(records[i])]})
            done = i + 1
    yield from records[done:]


def policy_note(policy: TrailPolicy, kept: int, total: int) -> str:
    """The report's note on which approval trails it keeps."""
    if policy == "all":
        return f"approval trails are kept for every trial ({kept} of {total})"
    if policy == "none":
        return "approval trails are left out (trails='none'); build with trails='failing' " \
               "or 'all' to include them"
    return (f"approval trails are kept for failing trials and one passing example per "
            f"scenario and mode ({kept} of {total} trials); build with trails='all' for "
            "every trial")
