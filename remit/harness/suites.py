"""The built-in suites: ``handwritten`` and the composed, sampled, verified ``core``.

- ``handwritten``: the ten hand-written scenarios of :mod:`remit.scenarios.handwritten`.
- ``core``: :data:`CORE_SIZE` scenarios drawn by the balanced sampler
  (:func:`remit.scenarios.sample`, seed :data:`CORE_SEED`) from the composition space
  (:func:`remit.scenarios.composition_space`). Each draw is composed and verified
  (:func:`remit.harness.verify.verify_scenario`: its reference plan, replayed in every
  built-in mode, reaches the goal, and only at its last step); a draw that fails is
  refused and counted, and the sampler draws another.

Suites are built once per process and shared (they are immutable). The same code and
catalogue always give the same ``core``, with the same ids and fingerprint, so a
verified ``core`` is also kept in the suite cache (:mod:`remit.harness.suite_cache`):
under a key naming remit's source, the Python and library versions and the build's
parameters, so that only the very code that built it reads it back.

Example:
    >>> suite_names()
    ('core', 'handwritten')
    >>> len(builtin_suite("core")) == CORE_SIZE
    True
"""

from __future__ import annotations

import functools
import json
import logging
import time

from pydantic import BaseModel, ConfigDict, ValidationError

from remit.errors import RemitError
from remit.harness.suite_cache import cache_dir, cache_key, read_entry, write_entry
from remit.harness.verify import verify_scenario
from remit.scenarios import (
    Combination,
    RejectionReason,
    Scenario,
    Suite,
    builtin_scenarios,
    combinations,
    compose,
    composition_space,
    rejection_counts,
    sample,
)

__all__ = ["CORE_SEED", "CORE_SIZE", "CoreBuild", "UnknownSuiteError", "build_core",
           "builtin_suite", "suite_names"]

_LOG = logging.getLogger(__name__)

CORE_SIZE = 120
"""Scenarios in the ``core`` suite."""

CORE_SEED = 0
"""The seed of the ``core`` suite's sampler."""

_NAMES = ("core", "handwritten")


class UnknownSuiteError(RemitError, ValueError):
    """A suite name that is not a built-in suite.

    Attributes:
        name: the name asked for.
        valid: the built-in suite names.
    """

    def __init__(self, name: str, valid: tuple[str, ...]) -> None:
        self.name = name
        self.valid = valid
        super().__init__(f"cannot load built-in suite name={name!r}: no such suite; use one "
                         f"of: {', '.join(valid)} (or load a directory of scenario files)")


class CoreBuild(BaseModel):
    """How the ``core`` suite was built.

    Attributes:
        suite: the suite.
        combinations: every combination of the groups, valid or not.
        space_size: the valid combinations.
        rejected: combinations rejected per reason: the validator's rules over the whole
            space, and ``verification_failed`` for draws whose plan did not verify.
        verification_failures: the problems of each refused draw, by scenario id.
        bins: how many scenarios share each value of each sampling coordinate.
        seconds: wall-clock time of the build (compose, sample, verify); of the build
            that wrote it, for a build read from the suite cache.
    """

    model_config = ConfigDict(frozen=True)

    suite: Suite
    combinations: int
    space_size: int
    rejected: dict[str, int]
    verification_failures: dict[str, tuple[str, ...]]
    bins: dict[str, dict[str, int]]
    seconds: float


@functools.cache
def build_core(n: int = CORE_SIZE, seed: int = CORE_SEED, *, verify: bool = True,
               cached: bool = True) -> CoreBuild:
    """Compose, sample and verify the ``core`` suite (once per process per arguments), or
    read the verified build from the suite cache.

    Args:
        n: scenarios to draw.
        seed: the sampler's seed.
        verify: replay each drawn scenario's plan (about 60% of the build's time). Only
            for rereading a suite a run already verified, and only together with a
            fingerprint check: without verification a scenario that would fail it is
            drawn rather than skipped, so the suite can differ.
        cached: read a verified build from the suite cache
            (:mod:`remit.harness.suite_cache`) when it holds one made by this very code,
            else build it and write it there. ``False`` always builds (and writes
            nothing); so does ``REMIT_NO_CACHE=1``. Unverified builds are never cached.
    """
    if not (verify and cached):
        return _build_core(n, seed, verify=verify)
    key = cache_key("core", {"n": n, "seed": seed})
    if key is None:  # remit's files changed since this process loaded them
        return _build_core(n, seed, verify=True)
    found = _cached_build(read_entry(key))
    if found is not None:
        _LOG.debug("read core (%d scenarios) from the suite cache", len(found.suite))
        return found
    build = _build_core(n, seed, verify=True)
    write_entry(key, json.dumps({"fingerprint": build.suite.fingerprint,
                                 "build": build.model_dump(mode="json")}))
    return build


def _cached_build(payload: str | None) -> CoreBuild | None:
    """The build in a cache entry's payload, if it parses and its suite's fingerprint,
    recomputed from its scenarios, is the one the entry recorded."""
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
        build = CoreBuild.model_validate(entry["build"])
        recorded = entry["fingerprint"]
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        _LOG.debug("ignoring a suite cache entry that does not parse: %s", exc)
        return None
    if build.suite.fingerprint != recorded:
        _LOG.debug("ignoring a suite cache entry whose scenarios do not give its fingerprint")
        return None
    return build


def _build_core(n: int, seed: int, *, verify: bool) -> CoreBuild:
    """Compose, sample and (with ``verify``) verify ``core`` (see :func:`build_core`)."""
    started = time.perf_counter()
    composed: dict[str, Scenario] = {}
    failures: dict[str, tuple[str, ...]] = {}

    def verified(combination: Combination) -> bool:
        scenario = compose(combination)
        problems = verify_scenario(scenario) if verify else []
        if problems:
            failures[scenario.id] = tuple(problems)
            return False
        composed[scenario.id] = scenario
        return True

    space = composition_space()
    drawn = sample(space, n=n, seed=seed, keep=verified)
    scenarios = tuple(sorted((composed[c.scenario_id] for c in drawn.combinations),
                             key=lambda s: s.id))
    rejected = {reason.value: count for reason, count in rejection_counts().items()}
    if failures:
        rejected[RejectionReason.VERIFICATION_FAILED.value] = len(failures)
    build = CoreBuild(
        suite=Suite(id="core", scenarios=scenarios), combinations=len(combinations()),
        space_size=len(space), rejected=rejected, verification_failures=failures,
        bins={axis: drawn.counts(axis)
              for axis in ("product", "commercial", "lifecycle", "perturbation", "handoffs")},
        seconds=time.perf_counter() - started)
    _LOG.debug("built core: %d scenarios from %d valid combinations in %.2f s (%d refused)",
               len(scenarios), len(space), build.seconds, len(failures))
    return build


def suite_names() -> tuple[str, ...]:
    """The names of the built-in suites."""
    return _NAMES


@functools.cache
def builtin_suite(name: str, *, fingerprint: str | None = None) -> Suite:
    """The built-in suite called ``name``.

    Args:
        name: ``core`` or ``handwritten``.
        fingerprint: the fingerprint the suite is expected to have (rereading the suite
            of a stored run): ``core`` is then the verified build if the suite cache is
            on and that build has this fingerprint (reading it is the quickest way);
            else the build without replaying its plans, if that has it; else the
            verified build.

    Raises:
        UnknownSuiteError: no built-in suite has that name (the message lists them).
    """
    if name == "handwritten":
        return Suite(id="handwritten", scenarios=builtin_scenarios())
    if name == "core":
        if fingerprint is None:
            return build_core().suite
        if cache_dir() is not None:
            verified = build_core().suite
            if verified.fingerprint == fingerprint:
                return verified
        quick = build_core(verify=False).suite
        if quick.fingerprint == fingerprint:
            return quick
        return build_core().suite
    raise UnknownSuiteError(name, _NAMES)
