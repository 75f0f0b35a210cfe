"""Errors of the LLM adapter, under :class:`~remit.errors.RemitError`.

```
RemitError
├── InfrastructureError                 (remit.errors: retried by the runner)
├── LlmAbortError                       (the whole run must stop: retrying cannot help)
│   ├── LlmAuthError                    (HTTP 401/403, or no API key)
│   ├── LlmEndpointError                (HTTP 404: wrong base URL or model name)
│   └── CassetteMissError               (replay found no recorded response)
├── LlmReplyError                       (too many replies in a row gave nothing to make
│                                        or send; ends the trial as ``agent_error``)
├── LlmRequestError                     (another HTTP 4xx: the request was refused)
└── LlmConfigError (ValueError)         (bad options, bad cost table)
```

The runner special-cases only :class:`~remit.errors.InfrastructureError`; until it also
re-raises :class:`LlmAbortError`, an abort raised by ``act()`` ends its trial as
``agent_error`` and the factory refuses every later trial, which stops the run.
"""

from __future__ import annotations

from remit.errors import RemitError, RunAbortedError

__all__ = [
    "CassetteMissError",
    "LlmAbortError",
    "LlmAuthError",
    "LlmConfigError",
    "LlmEndpointError",
    "LlmReplyError",
    "LlmRequestError",
]


class LlmAbortError(RunAbortedError):
    """An error after which no trial of the run can succeed: the run must stop."""


class LlmAuthError(LlmAbortError):
    """The model server refused the API key (HTTP 401 or 403), or no key was found.

    Attributes:
        status: the HTTP status, or ``None`` when no key was found.
        base_url: the server asked.
    """

    def __init__(self, message: str, *, status: int | None, base_url: str) -> None:
        self.status = status
        self.base_url = base_url
        super().__init__(message)


class LlmEndpointError(LlmAbortError):
    """The server has no such endpoint or model (HTTP 404).

    Attributes:
        model: the model asked for.
        base_url: the server asked.
    """

    def __init__(self, message: str, *, model: str, base_url: str) -> None:
        self.model = model
        self.base_url = base_url
        super().__init__(message)


class CassetteMissError(LlmAbortError):
    """Replay found no recorded response for a request.

    Attributes:
        trial: ``scenario/mode/trial`` of the trial being replayed.
        call: the index of the model call within the trial (0-based).
        step: the trial's step when the call was made.
        message_index: the first message that differs from the recording, if any.
    """

    def __init__(self, message: str, *, trial: str, call: int, step: int,
                 message_index: int | None) -> None:
        self.trial = trial
        self.call = call
        self.step = step
        self.message_index = message_index
        super().__init__(message)


class LlmReplyError(RemitError):
    """The model gave ``count`` replies in a row from which nothing could be made or sent.

    Truncated, empty, or with only calls that could not be read or repeated the previous
    call (see :class:`~remit.actors.llm.ReplyIssue`).

    Raised from ``act()``, it ends the trial as ``agent_error`` with this message.

    Attributes:
        count: the consecutive unusable replies.
        last_issue: what was wrong with the last one (a ``ReplyIssue`` value).
    """

    def __init__(self, message: str, *, count: int, last_issue: str) -> None:
        self.count = count
        self.last_issue = last_issue
        super().__init__(message)


class LlmRequestError(RemitError):
    """The server refused a request with an HTTP 4xx other than 401, 403, 404, 408, 409, 429.

    Attributes:
        status: the HTTP status.
    """

    def __init__(self, message: str, *, status: int) -> None:
        self.status = status
        super().__init__(message)


class LlmConfigError(RemitError, ValueError):
    """An LLM option or a cost table that cannot be used.

    Attributes:
        field: the option or file at fault.
    """

    def __init__(self, message: str, *, field: str) -> None:
        self.field = field
        super().__init__(message)
