"""A suite: a named, ordered set of scenarios with a fingerprint.

The fingerprint is the SHA-256 of the scenarios' canonical JSON (sorted keys, scenarios
in order of id): it changes when any scenario changes, and never otherwise; not when the
same scenarios come in another order (files named differently, say). Runs record it, so
that results are compared only when they come from the same scenarios.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, model_validator

from remit.errors import RemitError
from remit.scenarios.spec import Scenario

__all__ = ["Suite", "UnknownScenarioInSuiteError", "canonical_json"]


_FINGERPRINTS: dict[int, str] = {}
"""Each live suite's fingerprint, by ``id()``: a suite is frozen, so it is computed once
(the canonical JSON of every scenario, ~7 ms for ``core``). Not a cached property: a
``model_copy(update=...)`` would copy it along to a suite with other scenarios. An entry
is removed when its suite is collected, before its ``id()`` can be reused."""


def canonical_json(scenario: Scenario) -> str:
    """The canonical JSON of one scenario: sorted keys, no insignificant whitespace."""
    return json.dumps(scenario.model_dump(mode="json"), sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)


class UnknownScenarioInSuiteError(RemitError, ValueError):
    """A scenario id the suite does not hold.

    Attributes:
        suite_id: the suite.
        scenario_id: the id asked for.
    """

    def __init__(self, suite_id: str, scenario_id: str, known: tuple[str, ...]) -> None:
        self.suite_id = suite_id
        self.scenario_id = scenario_id
        shown = ", ".join(known[:8]) + (f", ... ({len(known)} in all)" if len(known) > 8 else "")
        super().__init__(f"suite {suite_id!r} has no scenario id={scenario_id!r}; its "
                         f"scenarios are: {shown}; list them with `remit suite list`")


class Suite(BaseModel):
    """An ordered set of scenarios with unique ids.

    Attributes:
        id: the suite's name (``core``, ``handwritten``, or a directory's name).
        scenarios: the scenarios, in run order.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    scenarios: tuple[Scenario, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> Suite:
        ids = [s.id for s in self.scenarios]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"suite {self.id!r} repeats scenario ids: {', '.join(duplicates)}")
        return self

    @property
    def fingerprint(self) -> str:
        """SHA-256 over the scenarios' canonical JSON, in order of id (a suite is a set of
        scenarios: their order is the run order, not part of what they are).

        Computed once per suite object (a suite is frozen)."""
        known = _FINGERPRINTS.get(id(self))
        if known is None:
            known = _FINGERPRINTS[id(self)] = self._digest()
            weakref.finalize(self, _FINGERPRINTS.pop, id(self), None)
        return known

    def _digest(self) -> str:
        digest = hashlib.sha256()
        for scenario in sorted(self.scenarios, key=lambda s: s.id):
            digest.update(canonical_json(scenario).encode())
            digest.update(b"\n")
        return digest.hexdigest()

    def __iter__(self) -> Iterator[Scenario]:  # type: ignore[override]
        return iter(self.scenarios)

    def __len__(self) -> int:
        return len(self.scenarios)

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario ``scenario_id``.

        Raises:
            UnknownScenarioInSuiteError: the suite holds no such id.
        """
        for scenario in self.scenarios:
            if scenario.id == scenario_id:
                return scenario
        raise UnknownScenarioInSuiteError(self.id, scenario_id,
                                          tuple(s.id for s in self.scenarios))
