"""What one LLM agent's trial cost and what its model did wrong, counted as it goes.

``agent.stats`` is an :class:`LlmStats`; the factory keeps each trial's
(:meth:`~remit.actors.llm.LlmAgentFactory.stats_for`), so the harness can record them
with the trial. :meth:`LlmStats.as_metrics` flattens them for a metrics table.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue

from remit.actors.llm.calls import ReplyForm, ReplyIssue
from remit.catalogue.money import Money

__all__ = ["LlmStats"]


class LlmStats(BaseModel):
    """Counters of one trial's model calls.

    Attributes:
        model_calls: responses received (live or replayed), retries not counted.
        replayed_calls: of which, answered from a cassette.
        prompt_tokens, completion_tokens: as the server reported them (``usage``).
        cost: what the tokens cost by the cost table; ``None`` when there is no table or
            it does not list the model.
        retries: HTTP retries (429, 5xx, timeouts, refused connections).
        issues: how often each :class:`~remit.actors.llm.ReplyIssue` happened: the
            trial's ``AgentUsage.reply_issues``.
        forms: how often each :class:`~remit.actors.llm.ReplyForm` was seen in a usable
            reply (not an issue: kept for a model's profile).
    """

    model_config = ConfigDict(validate_assignment=True)

    model_calls: int = 0
    replayed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Money | None = None
    retries: int = 0
    issues: dict[ReplyIssue, int] = {}
    forms: dict[ReplyForm, int] = {}

    @property
    def empty_replies(self) -> int:
        """Replies with neither text nor a call."""
        return self.issues.get(ReplyIssue.EMPTY_REPLY, 0)

    @property
    def malformed_calls(self) -> int:
        """Calls the model got wrong: invalid JSON, unknown tools, bad arguments."""
        return sum(self.issues.get(issue, 0) for issue in (
            ReplyIssue.INVALID_JSON, ReplyIssue.UNKNOWN_TOOL, ReplyIssue.BAD_ARGUMENTS))

    def count(self, issue: ReplyIssue, times: int = 1) -> None:
        """Count ``issue`` ``times`` more times."""
        self.issues = {**self.issues, issue: self.issues.get(issue, 0) + times}

    def note(self, form: ReplyForm) -> None:
        """Count one more usable reply written in ``form``."""
        self.forms = {**self.forms, form: self.forms.get(form, 0) + 1}

    def add_usage(self, prompt_tokens: int, completion_tokens: int, cost: Money | None) -> None:
        """Add one response's token usage and its cost (``None``: unpriced)."""
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        if cost is not None:
            self.cost = cost if self.cost is None else self.cost + cost

    def as_metrics(self) -> dict[str, JsonValue]:
        """Flat JSON metrics: counters, ``cost`` as a decimal string, one key per issue
        (``issue_<kind>``) and per form (``form_<form>``)."""
        metrics: dict[str, JsonValue] = {
            "model_calls": self.model_calls,
            "replayed_calls": self.replayed_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": None if self.cost is None else str(self.cost.amount),
            "cost_currency": None if self.cost is None else self.cost.currency,
            "retries": self.retries,
            "empty_replies": self.empty_replies,
            "malformed_calls": self.malformed_calls,
        }
        for issue in ReplyIssue:
            metrics[f"issue_{issue.value}"] = self.issues.get(issue, 0)
        for form in ReplyForm:
            metrics[f"form_{form.value}"] = self.forms.get(form, 0)
        return metrics
