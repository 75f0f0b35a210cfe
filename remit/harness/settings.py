"""What a scenario run under test uses: the agent, the control modes, trials and seed.

The pytest plugin builds one :class:`RunSettings` from its command-line options and
narrows it per test with the ``remit`` marker. The precedence is fixed: marker values
override command-line options, which override the defaults (agent ``baseline``, modes
``all_tools`` and ``dual_control``, one trial, seed 0). The marker is the more specific
of the two: a test that pins ``agent="oracle"`` calibrates against the oracle whichever
agent the command line names, and ``--remit-agent`` applies to every test that names none.
The plugin loads ``--remit-agent`` (:func:`check_agent_option`) before any test runs,
so a bad spec is one usage error rather than one failure per test.

Example:
    >>> settings = RunSettings.from_options(modes="dual_control", trials=3)
    >>> [m.name for m in settings.modes], settings.trials
    (['dual_control'], 3)
    >>> narrowed = settings.with_marker((), {"trials": 5, "agent": "oracle"}, where="test_x")
    >>> narrowed.trials, narrowed.agent_label
    (5, 'oracle')
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from remit.actors import (
    Agent,
    AgentFactory,
    AgentSpecError,
    AsyncAgent,
    TrialInfo,
    load_agent_factory,
)
from remit.authority import BUILTIN_MODE_NAMES, ControlMode
from remit.errors import RemitError
from remit.harness.modes import load_mode

__all__ = ["DEFAULT_AGENT", "DEFAULT_MODES", "MARKER_KEYS", "RunSettings", "SettingsError",
           "agent_factory", "agent_label", "check_agent_option", "resolve_mode"]

DEFAULT_AGENT = "baseline"
"""The agent a scenario test runs when neither the marker nor ``--remit-agent`` names one."""

DEFAULT_MODES: tuple[str, ...] = ("all_tools", "dual_control")
"""The modes a scenario test runs in when neither the marker nor ``--remit-modes`` names any."""

MARKER_KEYS: tuple[str, ...] = ("modes", "trials", "agent", "seed")
"""The keyword arguments ``@pytest.mark.remit(...)`` takes."""


class SettingsError(RemitError, ValueError):
    """Settings that cannot run: a bad option, or a ``remit`` marker with bad arguments.

    Attributes:
        where: what carried the settings (``--remit-modes``, ``@pytest.mark.remit on
            test_x``).
        problems: one sentence per problem, naming the field.
        hint: what to do instead (which keys and values are valid).
    """

    def __init__(self, where: str, problems: Sequence[str], hint: str) -> None:
        self.where = where
        self.problems = tuple(problems)
        self.hint = hint
        super().__init__(f"cannot use the remit settings from {where}: "
                         f"{'; '.join(self.problems)}; {hint}")


_OPTIONS_HINT = ("see the 'remit' group of pytest --help (modes: "
                 f"{', '.join(BUILTIN_MODE_NAMES)} or mode files; trials: 1 or more)")
_AGENT_HINT = f"or leave --remit-agent out to run the default agent ({DEFAULT_AGENT})"
_MARKER_HINT = (f"the marker takes the keywords {', '.join(MARKER_KEYS)} (modes: built-in names, "
                "mode files or ControlMode objects; trials: 1 or more; agent: a built-in name, "
                "'package.module:factory', a factory or an agent class; seed: an integer)")


def resolve_mode(mode: str | ControlMode) -> ControlMode:
    """A control mode from its built-in name or a mode file's path, or the mode itself.

    Raises:
        remit.authority.UnknownModeError: ``mode`` is neither a built-in name nor a path
            ending in ``.yaml``, ``.yml`` or ``.json``.
        remit.harness.modes.ModeFileError: the mode file is unreadable or invalid.
    """
    return mode if isinstance(mode, ControlMode) else load_mode(mode)


def _split(modes: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in modes.split(",") if name.strip())


def _takes_info(target: type) -> bool:
    probe = TrialInfo(scenario_id="probe", mode="dual_control", trial=0, seed=0, plan=())
    try:
        inspect.signature(target).bind(probe)
    except (TypeError, ValueError):
        return False
    return True


def agent_factory(agent: str | AgentFactory) -> AgentFactory:
    """The agent factory ``agent`` names.

    Args:
        agent: a built-in agent name, ``"package.module:factory"``, a factory taking a
            :class:`~remit.actors.TrialInfo`, or an agent class (built with the
            ``TrialInfo`` when its constructor takes one argument, without arguments
            otherwise).

    Raises:
        remit.actors.AgentSpecError: a string that names no loadable agent.
    """
    if isinstance(agent, str):
        return load_agent_factory(agent)
    if inspect.isclass(agent) and not _takes_info(agent):
        cls: type = agent

        def build(info: TrialInfo) -> Agent | AsyncAgent:
            built: Agent | AsyncAgent = cls()
            return built

        build.__wrapped__ = cls  # type: ignore[attr-defined]  # the agent's identity
        return build
    return agent


def check_agent_option(agent: str, *, import_later: bool = False) -> bool:
    """Load the ``--remit-agent`` spec ``agent`` once, so that a bad one stops the session.

    Args:
        agent: the option's value.
        import_later: tolerate a ``package.module:factory`` whose module cannot be imported
            yet: a module beside the tests is importable only once pytest has collected
            them (it puts their directory on ``sys.path``), so the caller checks again then.

    Returns:
        ``True`` when the spec loads; ``False`` when its module is not importable yet and
        ``import_later`` is set.

    Raises:
        SettingsError: the spec names no loadable agent (an unknown name, a missing module
            or attribute, an ``openai:MODEL`` without its API key), one line naming the
            option and its value.

    Example:
        >>> check_agent_option("oracle")
        True
        >>> check_agent_option("remit_no_such_module:factory", import_later=True)
        False
    """
    try:
        load_agent_factory(agent)
    except RemitError as exc:
        if import_later and isinstance(exc, AgentSpecError) \
                and isinstance(exc.__cause__, ImportError):
            return False
        raise SettingsError(f"--remit-agent={agent!r}", (str(exc),), _AGENT_HINT) from None
    return True


def agent_label(agent: str | AgentFactory) -> str:
    """How reports name ``agent``: the spec as given, or a factory's qualified name."""
    if isinstance(agent, str):
        return agent.strip()
    module = getattr(agent, "__module__", "")
    name = getattr(agent, "__qualname__", type(agent).__qualname__)
    return f"{module}:{name}" if module else str(name)


class _MarkerArgs(BaseModel):
    """The keyword arguments of ``@pytest.mark.remit``, validated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    modes: tuple[str | ControlMode, ...] | None = None
    trials: int | None = Field(default=None, ge=1)
    agent: str | AgentFactory | None = None
    seed: int | None = None

    @field_validator("modes", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        return _split(value) if isinstance(value, str) else value


class RunSettings(BaseModel):
    """The agent, modes, trials and seed a scenario test runs with.

    Attributes:
        agent: a built-in agent name, ``"package.module:factory"`` or a factory.
        modes: the control modes; each gives one test id.
        trials: trials per scenario and mode (the ``n`` of pass^k).
        seed: the run seed (each trial's seed derives from it).
        db: ``--remit-db``: the database the session's runs are stored in, if any.
        report: ``--remit-report``: the report file the session writes, if any.
    """

    model_config = ConfigDict(frozen=True)

    agent: str | AgentFactory = DEFAULT_AGENT
    modes: tuple[ControlMode, ...] = Field(
        default_factory=lambda: tuple(resolve_mode(name) for name in DEFAULT_MODES),
        min_length=1)
    trials: int = Field(default=1, ge=1)
    seed: int = 0
    db: str | None = None
    report: str | None = None

    @field_validator("modes")
    @classmethod
    def _distinct(cls, modes: tuple[ControlMode, ...]) -> tuple[ControlMode, ...]:
        names = [m.name for m in modes]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"mode names must be distinct (one test id each); repeated: "
                             f"{', '.join(twice)}")
        return modes

    @classmethod
    def from_options(cls, *, agent: str | None = None, modes: str | None = None,
                     trials: int | None = None, seed: int | None = None,
                     db: str | None = None, report: str | None = None) -> RunSettings:
        """Settings from command-line values; ``None`` keeps the default.

        Raises:
            SettingsError: an unknown mode name, an empty mode list or ``trials < 1``.
        """
        values: dict[str, object] = {"db": db, "report": report}
        try:
            if agent is not None:
                values["agent"] = agent.strip()
            if modes is not None:
                values["modes"] = tuple(resolve_mode(name) for name in _split(modes))
            if trials is not None:
                values["trials"] = trials
            if seed is not None:
                values["seed"] = seed
            return cls.model_validate(values)
        except ValidationError as exc:
            raise SettingsError("the --remit-* options", _problems(exc, "--remit-"),
                                _OPTIONS_HINT) from None
        except ValueError as exc:
            raise SettingsError("the --remit-* options", (str(exc),), _OPTIONS_HINT) from None

    def with_marker(self, args: Sequence[object], kwargs: Mapping[str, object], *,
                    where: str) -> RunSettings:
        """These settings narrowed by a ``remit`` marker's arguments.

        Args:
            args: the marker's positional arguments (there must be none).
            kwargs: its keyword arguments, a subset of :data:`MARKER_KEYS`.
            where: the test carrying the marker, for error messages.

        Raises:
            SettingsError: positional arguments, an unknown key, a bad value or an
                unknown mode name.
        """
        origin = f"@pytest.mark.remit on {where}"
        if args:
            raise SettingsError(origin, (f"the marker takes keyword arguments only, got "
                                         f"args={tuple(args)!r}",), _MARKER_HINT)
        try:
            marker = _MarkerArgs.model_validate(dict(kwargs))
            update: dict[str, object] = {k: v for k, v in marker if v is not None}
            if marker.modes is not None:
                update["modes"] = tuple(resolve_mode(m) for m in marker.modes)
            return type(self).model_validate({**dict(self), **update})
        except ValidationError as exc:
            raise SettingsError(origin, _problems(exc, ""), _MARKER_HINT) from None
        except ValueError as exc:
            raise SettingsError(origin, (str(exc),), _MARKER_HINT) from None

    def factory(self, agent: str | AgentFactory | None = None) -> AgentFactory:
        """The agent factory of ``agent``, or of these settings' agent."""
        return agent_factory(self.agent if agent is None else agent)

    @property
    def agent_label(self) -> str:
        """The agent as reports name it."""
        return agent_label(self.agent)


def _problems(exc: ValidationError, prefix: str) -> tuple[str, ...]:
    problems = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"][:1])
        name = f"{prefix}{field}" if field else "settings"
        problems.append(f"{name}: {error['msg']} (got {error['input']!r})"
                        if field else f"{name}: {error['msg']}")
    return tuple(dict.fromkeys(problems))
