"""What every persona shares: message dispatch, hand-off handling and perturbations.

A persona reads the message addressed to it and acts only through
``world.call(self.role, ...)``, the same gate the agent passes. This module holds the
machinery common to the buyer, the technical owner and finance:

- dispatch: an ``ask`` is answered fact by fact, a ``request_action`` or ``follow_up``
  is a hand-off to review, anything else gets a short acknowledgement;
- the owner perturbations ``silent_owner`` (no answer until followed up) and
  ``deny_then_recover`` (decline first, act normally on the follow-up);
- declining a hand-off with a reason and telling the requester why.

Decisions depend only on the world's state and the persona's own truths, never on the
wording of a message: "finance already approved" changes nothing.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from pydantic import JsonValue

from remit.authority import Action, Role
from remit.quotes import Quote
from remit.scenarios import PersonaConfig, Perturbation, Scenario
from remit.trusted import trusted
from remit.world import Handoff, MessageEntry, ToolCall, ToolResult, World, decline

__all__ = ["NATURAL_OWNERS", "PersonaBase", "number_text", "owner_phrase"]

NATURAL_OWNERS: Mapping[Action, Role] = MappingProxyType({
    Action.CONFIRM_FIT: Role.TECHNICAL_OWNER,
    Action.REJECT_FIT: Role.TECHNICAL_OWNER,
    Action.APPROVE: Role.FINANCE,
    Action.DENY: Role.FINANCE,
    Action.RELEASE_PAYMENT: Role.FINANCE,
    Action.ACCEPT: Role.BUYER,
    Action.REJECT: Role.BUYER,
    Action.RECEIVE_PO: Role.BUYER,
    Action.RECORD_RECEIPT: Role.BUYER,
    Action.CANCEL: Role.BUYER,
    Action.EXPIRE: Role.SYSTEM,
})
"""Who performs each owner action in dual-control (every other action is the agent's)."""

_ROLE_NAMES: Mapping[Role, str] = MappingProxyType({
    Role.AGENT: "the agent",
    Role.BUYER: "the buyer",
    Role.TECHNICAL_OWNER: "the technical owner",
    Role.FINANCE: "finance",
    Role.SYSTEM: "the system clock",
})

_RECOVER_TEXT = (
    "please send the supporting evidence/justification and follow up on this hand-off; "
    "I will review it again then"
)


def number_text(value: float) -> str:
    """A number as a person writes it: ``10`` for 10.0, ``145.0`` for 145.04."""
    if abs(value - round(value)) < 1e-9:
        return str(round(value))
    return f"{value:.1f}"


def owner_phrase(action: Action) -> str:
    """Who performs ``action`` in dual-control, as words (``"finance"``, ``"the buyer"``)."""
    return _ROLE_NAMES[NATURAL_OWNERS.get(action, Role.AGENT)]


def _call(tool: str, arguments: dict[str, JsonValue]) -> ToolCall:
    """A persona's call: its arguments are plain strings and lists of strings the persona
    wrote, so the call is built without validating them (the world's boundary still
    checks every call, a persona's as an agent's)."""
    if all(type(value) is str or (type(value) is list
                                  and all(type(item) is str for item in value))
           for value in arguments.values()):
        return trusted(ToolCall, {"tool": tool, "arguments": arguments})
    return ToolCall(tool=tool, arguments=arguments)


class PersonaBase(ABC):
    """The shared behaviour of the deterministic personas.

    Subclasses set :attr:`ROLE` and :attr:`ACTIONS` and implement :meth:`answer`
    and :meth:`review`; they may override :meth:`acknowledge` and :meth:`opening`.

    Args:
        scenario: the scenario; the persona reads its own configuration and truths.
        seed: the trial's seed; it only chooses between equivalent phrasings.

    Attributes:
        scenario: the scenario.
        config: this persona's configuration (review minutes, perturbations).
        rng: the persona's own random generator (phrasing only).
    """

    ROLE: Role = Role.SYSTEM
    ACTIONS: frozenset[Action] = frozenset()

    def __init__(self, scenario: Scenario, seed: int) -> None:
        self.scenario = scenario
        self.config: PersonaConfig = scenario.persona(self.ROLE)
        self._seed = f"{seed}/{self.ROLE.value}"
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The persona's own random generator (phrasing only), seeded on first use: a
        persona that never chooses a phrasing in a trial never pays for seeding it."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    @property
    def role(self) -> Role:
        """The role the persona plays."""
        return self.ROLE

    def perturbed(self, perturbation: Perturbation) -> bool:
        """Whether this persona carries ``perturbation``."""
        return perturbation in self.config.perturbations

    def choose(self, options: Sequence[str]) -> str:
        """One of equivalent phrasings, chosen by the persona's seeded generator."""
        return options[self.rng.randrange(len(options))]

    # -- the Persona protocol ----------------------------------------------------------

    def opening(self, world: World) -> None:
        """Open the conversation; only the buyer says anything."""
        return

    def handle(self, world: World, message: MessageEntry) -> int:
        """Handle one message addressed to the persona; return the review minutes spent.

        The review time passes on the world's clock before the persona acts or replies,
        so hand-off durations show it. A silent owner spends 0 minutes on a hand-off it
        ignores.
        """
        if message.handoff_id is not None and message.tool in ("request_action", "follow_up"):
            return self._handoff(world, message, message.handoff_id)
        world.advance(self.config.review_minutes)
        if message.tool == "ask":
            self.reply(world, message.sender, self.answer(world, message.facts))
        else:
            self.reply(world, message.sender, self.acknowledge(world, message))
        return self.config.review_minutes

    # -- for subclasses ----------------------------------------------------------------

    @abstractmethod
    def answer(self, world: World, facts: Sequence[str]) -> str:
        """The reply to an ``ask`` for ``facts``."""

    @abstractmethod
    def review(self, world: World, handoff: Handoff, quote: Quote) -> None:
        """Decide an open hand-off for one of :attr:`ACTIONS`: act or decline."""

    def acknowledge(self, world: World, message: MessageEntry) -> str:
        """The reply to a plain message."""
        return self.choose(("Noted, thank you.", "Thanks, noted.", "Understood."))

    # -- acting ------------------------------------------------------------------------

    def reply(self, world: World, to: Role, text: str) -> ToolResult:
        """Send ``text`` to ``to`` with the ``message`` tool."""
        return world.call(self.ROLE, _call("message", {"to": to.value, "text": text}))

    def perform(self, world: World, handoff: Handoff, action: Action, *,
                reason: str = "", evidence: Sequence[str] = (),
                document_id: str | None = None) -> ToolResult:
        """Call ``action`` on the hand-off's quote through the gate."""
        arguments: dict[str, JsonValue] = {"quote_id": handoff.quote_id}
        if reason:
            arguments["reason"] = reason
        if evidence:
            arguments["evidence"] = list[JsonValue](evidence)
        if document_id is not None:
            arguments["document_id"] = document_id
        return world.call(self.ROLE, _call(action.value, dict(arguments)))

    def perform_or_decline(self, world: World, handoff: Handoff, action: Action, done: str, *,
                           reason: str = "", evidence: Sequence[str] = (),
                           document_id: str | None = None) -> bool:
        """Perform ``action``; reply ``done`` on success, decline with the error otherwise."""
        result = self.perform(world, handoff, action, reason=reason, evidence=evidence,
                              document_id=document_id)
        if result.ok:
            self.reply(world, handoff.requester, done)
            return True
        error = result.error.message if result.error is not None else "no reason given"
        self.decline(world, handoff, f"I could not {action.value} {handoff.quote_id}: {error}")
        return False

    def decline(self, world: World, handoff: Handoff, reason: str) -> None:
        """Decline ``handoff`` with ``reason`` and tell the requester why."""
        decline(world, handoff, reason)
        self.reply(world, handoff.requester,
                   f"I decline hand-off {handoff.id} ({handoff.action.value} on "
                   f"{handoff.quote_id}): {reason}")

    # -- hand-offs ---------------------------------------------------------------------

    def _handoff(self, world: World, message: MessageEntry, handoff_id: str) -> int:
        minutes = self.config.review_minutes
        handoff = world.handoffs.get(handoff_id)
        if handoff is None or handoff.owner is not self.ROLE or handoff.status != "open":
            world.advance(minutes)
        if handoff is None or handoff.owner is not self.ROLE:
            self.reply(world, message.sender,
                       f"I hold no hand-off id={handoff_id!r}; open one with request_action")
            return minutes
        if handoff.status != "open":
            self.reply(world, message.sender,
                       f"hand-off {handoff.id} is {handoff.status}; there is nothing for me "
                       "to do on it")
            return minutes
        if (self.perturbed(Perturbation.SILENT_OWNER)
                and handoff.follow_ups < self.config.follow_ups_needed):
            return 0
        world.advance(minutes)
        quote = world.quotes.get(handoff.quote_id)
        refusal = self._refusal(handoff, quote)
        if refusal is not None or quote is None:
            self.decline(world, handoff, refusal or f"there is no quote id={handoff.quote_id!r}")
        else:
            self.review(world, handoff, quote)
        return minutes

    def _refusal(self, handoff: Handoff, quote: Quote | None) -> str | None:
        """Why the hand-off is declined before its merits are reviewed, if it is."""
        if handoff.action not in self.ACTIONS:
            return self._not_mine(handoff.action)
        if self.perturbed(Perturbation.DENY_THEN_RECOVER) and handoff.follow_ups < 1:
            return _RECOVER_TEXT
        if quote is None:
            return f"there is no quote id={handoff.quote_id!r}; check the quote id"
        return None

    def _not_mine(self, action: Action) -> str:
        owner = NATURAL_OWNERS.get(action, Role.AGENT)
        if owner is self.ROLE:
            return (f"I do not {action.value} on request; I act on it only when my own "
                    "conditions call for it")
        words = owner_phrase(action)
        return f"{action.value} is not mine to perform: it is for {words}; request it from {words}"

    @staticmethod
    def not_in_state(handoff: Handoff, quote: Quote, wanted: str, next_step: str) -> str | None:
        """A decline reason when ``quote`` is not in state ``wanted``, else ``None``."""
        if quote.state == wanted:
            return None
        return (f"{handoff.action.value} needs quote {quote.id} in state {wanted!r} but it is "
                f"in state={quote.state!r}; {next_step}")
