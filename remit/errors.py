"""The one exception tree of remit.

Every error remit raises on purpose derives from :class:`RemitError`. Errors caused
by a user's input (a bad map file, an unknown action, a wrong unit) also derive from
:class:`ValueError`, so callers that only know the standard library still catch them.

```
RemitError
├── CatalogueError
│   ├── UnknownSkuError            (ValueError: a SKU the catalogue does not hold)
│   ├── UnitError                  (ValueError: wrong or unknown unit)
│   └── catalogue.exceptions: UnknownAttributeError, UnknownEvidenceError,
│       WrongFamilyError, SubstitutionError, GenerationError   (all ValueError)
├── AuthorityError
│   ├── MapError                   (ValueError: invalid authority map)
│   └── authority.ModeError        (ValueError) └── UnknownModeError
├── QuoteError
│   ├── InvalidTransitionError     (trigger not valid from the current state)
│   ├── GuardFailedError           (a business rule blocked the transition)
│   └── QuoteEditError             (ValueError: an edit that cannot be applied)
├── InfrastructureError            (a timeout, rate limit or crashed agent process:
│                                   retried, then treated as the run's manifest says)
├── RunAbortedError                (nothing can succeed: a bad API key, a missing
│                                   cassette entry; the run stops at once)
├── scenarios.UnknownScenarioError (ValueError: no scenario with that id)
├── actors.AgentSpecError          (ValueError: --agent names nothing loadable)
├── harness.AggregationError       (ValueError: trials that cannot be aggregated)
├── harness.SettingsError          (ValueError: a bad marker or --remit-* option)
├── harness.ExpectationError       (AssertionError: a pytest expectation that broke)
├── scenarios.ScenarioFileError    (ValueError: a scenario file that does not load)
├── harness.ManifestError          (ValueError: a manifest that cannot be built)
└── harness.NotComparableError     (ValueError: runs whose suite or scorer differ)
```

Exceptions carry structured attributes; reports read those, never the message text.
"""

from __future__ import annotations

__all__ = [
    "AuthorityError",
    "CatalogueError",
    "GuardFailedError",
    "InfrastructureError",
    "InvalidTransitionError",
    "MapError",
    "QuoteEditError",
    "QuoteError",
    "RemitError",
    "RunAbortedError",
    "UnitError",
    "UnknownSkuError",
]


class RemitError(Exception):
    """Base of every error remit raises on purpose."""


class CatalogueError(RemitError):
    """A problem with the governed catalogue."""


class UnknownSkuError(CatalogueError, ValueError):
    """A SKU that the catalogue does not hold.

    Attributes:
        sku: the SKU that was asked for.
    """

    def __init__(self, sku: str, hint: str = "") -> None:
        self.sku = sku
        message = f"unknown SKU sku={sku!r}"
        if hint:
            message += f"; {hint}"
        super().__init__(message)


class UnitError(CatalogueError, ValueError):
    """A value given in a unit that does not fit its quantity, or an unknown unit.

    Attributes:
        unit: the offending unit.
        quantity: the physical quantity expected (``pressure``, ``temperature``, ...).
    """

    def __init__(self, unit: str, quantity: str, valid: tuple[str, ...]) -> None:
        self.unit = unit
        self.quantity = quantity
        self.valid = valid
        super().__init__(
            f"unit={unit!r} is not a {quantity} unit; use one of {', '.join(valid)}"
        )


class AuthorityError(RemitError):
    """A problem with the authority map or a decision."""


class MapError(AuthorityError, ValueError):
    """An authority map that cannot be loaded or is inconsistent.

    Attributes:
        problems: one sentence per problem, each naming the offending key.
    """

    def __init__(self, problems: list[str], source: str = "authority map") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__(f"{source}: " + "; ".join(self.problems))


class QuoteError(RemitError):
    """A problem with a quote or its state machine."""


class InvalidTransitionError(QuoteError):
    """A trigger that the quote's current state does not allow.

    Attributes:
        quote_id, trigger, state: what was attempted and from where.
        allowed_from: the states from which the trigger is valid.
    """

    def __init__(
        self, quote_id: str, trigger: str, state: str, allowed_from: tuple[str, ...]
    ) -> None:
        self.quote_id = quote_id
        self.trigger = trigger
        self.state = state
        self.allowed_from = allowed_from
        super().__init__(
            f"cannot {trigger} quote {quote_id} in state={state!r}; "
            f"{trigger} is valid from: {', '.join(allowed_from) or 'no state'}"
        )


class GuardFailedError(QuoteError):
    """A business rule (guard) blocked a transition.

    Attributes:
        quote_id, trigger: what was attempted.
        reasons: one sentence per failed rule, each saying what to do.
    """

    def __init__(self, quote_id: str, trigger: str, reasons: list[str]) -> None:
        self.quote_id = quote_id
        self.trigger = trigger
        self.reasons = list(reasons)
        super().__init__(f"cannot {trigger} quote {quote_id}: " + "; ".join(self.reasons))


class QuoteEditError(QuoteError, ValueError):
    """An edit of quote lines that cannot be applied (frozen state, no change, bad line)."""


class InfrastructureError(RemitError):
    """A failure of the machinery around the agent, not of the agent itself.

    Raised by agent adapters for timeouts, rate limits, refused connections or a crashed
    agent process. The runner retries the trial and, when retries run out, records the
    trial as an infrastructure error under the run's error treatment. Anything else an
    agent raises is the agent's failure.

    Attributes:
        kind: a short machine-readable kind (``timeout``, ``rate_limit``, ``connection``...).
    """

    def __init__(self, message: str, kind: str = "infrastructure") -> None:
        self.kind = kind
        super().__init__(message)


class RunAbortedError(RemitError):
    """An error after which no trial of the run can succeed, so the run stops at once.

    A refused API key or a replay cassette that lacks a request are examples. It escapes
    the turn loop and the runner (finished trials are kept); the CLI reports it in one
    line. Subclasses say what to do.
    """
