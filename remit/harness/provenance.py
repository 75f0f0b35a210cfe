"""Building a run's manifest: where the code came from and what exactly was run.

:func:`build_manifest` gathers everything :class:`~remit.harness.manifest.RunManifest`
records, from the objects of the run and from the environment:

- remit's version, from the installed distribution's metadata (``remit.__version__``
  when remit runs from a source tree that is not installed);
- the git commit of the working directory (``git rev-parse HEAD``) and whether the tree
  was dirty (``git status --porcelain``: any modified, staged or untracked file). Both
  are ``None`` when the directory is not a git checkout or git is not installed; asking
  git never raises and never takes git's index lock;
- the suite's id and fingerprint, and each mode's fingerprint and map hash;
- the agent's code identity (:func:`agent_identity`): the import path of its factory,
  a SHA-256 over the source of the module(s) defining it, and the configuration it
  declares about itself (``remit_config``);
- the agent configuration's hash (:func:`agent_config_hash`): SHA-256 of the canonical
  JSON (sorted keys, no insignificant whitespace) of the configuration together with
  that identity's import path, code hash and declared configuration, so that the same
  model, temperature and prompt give the same hash and two different agent classes
  never do (the configuration itself is stored with its keys in that order);
- the persona configuration's hash: SHA-256 of the canonical JSON of every scenario's
  effective persona configuration (buyer, technical owner, finance; defaults filled
  in), in suite order.

Run ids (:func:`new_run_id`) start with the UTC start time, so sorting ids sorts runs by
when they started, and end with random hex, so runs started in the same second differ.

Example:
    >>> from datetime import UTC, datetime
    >>> new_run_id(datetime(2026, 11, 29, 15, 30, 12, tzinfo=UTC))  # doctest: +SKIP
    'r-20261129-153012-4f9c2a'
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import logging
import random
import secrets
import subprocess
import sys
import typing
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path

from pydantic import JsonValue, TypeAdapter, ValidationError

import remit
from remit.authority import ControlMode, Role, map_hash
from remit.errors import RemitError
from remit.harness.manifest import (
    SCORER_VERSION,
    AgentIdentity,
    ErrorTreatment,
    ModeManifest,
    RunManifest,
    ScenarioSelection,
)
from remit.scenarios import Suite

__all__ = [
    "PERSONA_ROLES",
    "ManifestError",
    "agent_config_hash",
    "agent_identity",
    "build_manifest",
    "built_class",
    "config_hash",
    "git_revision",
    "new_run_id",
    "persona_config_hash",
    "remit_version",
    "unwrap_factory",
]

_log = logging.getLogger(__name__)

PERSONA_ROLES: tuple[Role, ...] = (Role.BUYER, Role.TECHNICAL_OWNER, Role.FINANCE)
"""The roles played by personas, whose configuration the persona hash covers."""

_GIT_TIMEOUT_SECONDS = 10
_RUN_ID_SUFFIX_BYTES = 3


class ManifestError(RemitError, ValueError):
    """A manifest that cannot be built from the given run (no modes, a mode twice, ...).

    Attributes:
        problem: what is wrong, as one sentence.
    """

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


def config_hash(config: Mapping[str, JsonValue] | Sequence[JsonValue]) -> str:
    """SHA-256 hex of a JSON value's canonical form (sorted keys, compact separators).

    Example:
        >>> config_hash({"b": 1, "a": 2}) == config_hash({"a": 2, "b": 1})
        True
    """
    return hashlib.sha256(_canonical_text(config).encode()).hexdigest()


def _canonical_text(value: Mapping[str, JsonValue] | Sequence[JsonValue]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def persona_config_hash(suite: Suite) -> str:
    """SHA-256 hex of every scenario's effective persona configuration, in suite order.

    Each scenario contributes its id and, for each persona role, the configuration the
    persona runs with (:meth:`~remit.scenarios.Scenario.persona`, so a role left out and
    a role given the defaults hash alike).
    """
    personas: list[JsonValue] = [
        {
            "scenario": scenario.id,
            "personas": {role.value: scenario.persona(role).model_dump(mode="json")
                         for role in PERSONA_ROLES},
        }
        for scenario in suite
    ]
    return config_hash(personas)


_DECLARED: TypeAdapter[dict[str, JsonValue]] = TypeAdapter(dict[str, JsonValue])

DECLARED_CONFIG_ATTRIBUTE = "remit_config"
"""The attribute of an agent factory declaring its configuration: a dict of JSON values,
or a function, static method or class method returning one."""


def unwrap_factory(factory: object) -> object:
    """What ``factory`` stands for: the callable a ``functools.partial`` or a wrapper
    (``__wrapped__``, as remit's loader sets on the builder of a no-argument class)
    hides."""
    target = factory
    for _ in range(100):  # wrappers are a chain; a cycle must not hang the run
        if isinstance(target, functools.partial):
            target = target.func
        elif (inner := getattr(target, "__wrapped__", None)) is not None:
            target = inner
        else:
            break
    return target


def _owner(target: object) -> object:
    """The named thing behind ``target``: a class or function itself, else the class of a
    callable instance (an agent factory object such as the LLM agent's)."""
    if inspect.isclass(target) or inspect.isroutine(target):
        return target
    return type(target)


def _import_path(owner: object) -> str | None:
    module = getattr(owner, "__module__", None)
    qualname = getattr(owner, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None  # a lambda or a local function cannot be imported again
    return f"{module}:{qualname}"


def built_class(target: object) -> type | None:
    """The agent class ``target`` builds: the class itself, else the class its return
    annotation names (a Protocol such as ``Agent`` names none)."""
    if inspect.isclass(target):
        return target
    if not callable(target):
        return None
    call = target if inspect.isroutine(target) else type(target).__call__
    try:
        built = typing.get_type_hints(call).get("return")
    except Exception:  # an annotation that does not resolve only means "unknown"
        return None
    if not inspect.isclass(built) or getattr(built, "_is_protocol", False):
        return None
    return built


def _module_source(name: str) -> str | None:
    module = sys.modules.get(name)
    if module is None:
        return None
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        return None


def _declared_config(target: object, owner: object) -> dict[str, JsonValue]:
    declared = getattr(target, DECLARED_CONFIG_ATTRIBUTE, None)
    if declared is None:
        return {}
    try:
        value = declared() if callable(declared) else declared
        return _DECLARED.validate_python(value)
    except ValidationError as exc:
        problem = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'the value'}: {e['msg']}"
                            for e in exc.errors())
    except TypeError as exc:
        problem = f"calling it failed ({exc})"
    where = _import_path(owner) or repr(owner)
    raise ManifestError(
        f"cannot record the configuration agent factory {where} declares in "
        f"{DECLARED_CONFIG_ATTRIBUTE}: {problem}; make {DECLARED_CONFIG_ATTRIBUTE} a dict of "
        "JSON values, or a function, static method or class method returning one")


def agent_identity(factory: object) -> AgentIdentity:
    """Which code an agent factory runs: its import path, a hash of its source and the
    configuration it declares (see :class:`~remit.harness.manifest.AgentIdentity`).

    - ``import_path``: ``module:qualname`` of the factory (a class, a function, or the
      class of a callable factory object such as the LLM agent's); wrappers and
      ``functools.partial`` are looked through; ``None`` for a lambda or a local function.
    - ``code_hash``: SHA-256 over the source text of the factory's module and, when it
      differs, of the module of the agent class it builds (the class itself, or the
      class its return annotation names), in that order; ``None`` when a source cannot
      be read (a module built in memory, an installed ``.pyc`` only).
    - ``declared_config``: the factory's ``remit_config``: a dict, or a function, static
      method or class method returning one; ``{}`` without one.

    Raises:
        ManifestError: ``remit_config`` is not a dict of JSON values (or a callable
            returning one), or cannot be called without arguments.

    Example:
        >>> from remit.actors import BaselineAgent
        >>> agent_identity(BaselineAgent).import_path
        'remit.actors.baseline:BaselineAgent'
    """
    target = unwrap_factory(factory)
    owner = _owner(target)
    modules = [getattr(owner, "__module__", None)]
    built = built_class(target)
    if built is not None:
        modules.append(built.__module__)
    names = tuple(dict.fromkeys(m for m in modules if isinstance(m, str)))
    sources = [_module_source(name) for name in names]
    code_hash: str | None = None
    if names and all(source is not None for source in sources):
        digest = hashlib.sha256()
        for source in sources:
            digest.update(str(source).encode())
            digest.update(b"\0")
        code_hash = digest.hexdigest()
    return AgentIdentity(import_path=_import_path(owner), code_hash=code_hash,
                         modules=names if code_hash is not None else (),
                         declared_config=_declared_config(target, owner))


def agent_config_hash(agent_config: Mapping[str, JsonValue],
                      identity: AgentIdentity | None = None) -> str:
    """The manifest's ``agent_config_hash``: SHA-256 of the canonical JSON of the
    configuration together with the identity's import path, code hash and declared
    configuration, so that two different agents never share it.

    Without an identity (runs recorded before remit knew it), the hash of the
    configuration alone (:func:`config_hash`), as those runs recorded it.
    """
    if identity is None:
        return config_hash(agent_config)
    return config_hash({"config": dict(agent_config), "import_path": identity.import_path,
                        "code_hash": identity.code_hash,
                        "declared_config": identity.declared_config})


def remit_version() -> str:
    """The installed remit version, or ``remit.__version__`` when remit is not installed."""
    try:
        return importlib_metadata.version("remit")
    except importlib_metadata.PackageNotFoundError:
        return remit.__version__


def _git(args: Sequence[str], cwd: Path) -> str | None:
    # --no-optional-locks: reading the state must not take the index lock of a tree that
    # someone else may be committing to at the same time.
    command = ["git", "--no-optional-locks", *args]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              timeout=_GIT_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        _log.debug("git %s in %s failed: %s", " ".join(args), cwd, exc)
        return None
    if done.returncode != 0:
        _log.debug("git %s in %s exited %d: %s", " ".join(args), cwd, done.returncode,
                   done.stderr.strip())
        return None
    return done.stdout


def git_revision(cwd: str | Path | None = None) -> tuple[str | None, bool | None]:
    """The commit checked out in ``cwd`` and whether its tree is dirty.

    Args:
        cwd: the directory to ask about (the current directory when ``None``).

    Returns:
        ``(commit, dirty)``; ``(None, None)`` when ``cwd`` is not in a git checkout or
        git is missing; ``dirty`` is ``None`` when only the status could not be read.
    """
    where = Path.cwd() if cwd is None else Path(cwd)
    # one subprocess: the v2 header names the commit, every other line is a change
    status = _git(["status", "--porcelain=v2", "--branch"], where)
    if status is not None:
        lines = status.splitlines()
        heads = [line.split()[-1] for line in lines if line.startswith("# branch.oid ")]
        if not heads or heads[0] == "(initial)":
            return None, None
        return heads[0], any(not line.startswith("#") for line in lines)
    head = _git(["rev-parse", "--verify", "HEAD"], where)
    if head is None or not head.strip():
        return None, None
    return head.strip(), None


def new_run_id(started_at: datetime, *, rng: random.Random | None = None) -> str:
    """A sortable, readable, unique run id: ``r-YYYYMMDD-HHMMSS-xxxxxx`` (UTC, random hex).

    Args:
        started_at: when the run started (aware; converted to UTC).
        rng: source of the random suffix (seed one for reproducible ids in tests); the
            default draws from :mod:`secrets`.

    Raises:
        ManifestError: ``started_at`` is naive.
    """
    if started_at.tzinfo is None or started_at.utcoffset() is None:
        raise ManifestError(f"cannot make a run id from started_at={started_at!r}: the time "
                            "is naive; pass an aware time such as datetime.now(UTC)")
    stamp = started_at.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    if rng is None:
        suffix = secrets.token_hex(_RUN_ID_SUFFIX_BYTES)
    else:
        suffix = rng.getrandbits(8 * _RUN_ID_SUFFIX_BYTES).to_bytes(_RUN_ID_SUFFIX_BYTES).hex()
    return f"r-{stamp}-{suffix}"


def _mode_manifests(modes: Sequence[ControlMode]) -> tuple[ModeManifest, ...]:
    names = [m.name for m in modes]
    if not names:
        raise ManifestError("cannot build a run manifest with modes=[]: a run needs at least "
                            "one control mode; pass the modes the run used")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ManifestError(f"cannot build a run manifest: modes repeat name(s) {repeated!r}; "
                            "give every control mode of a run its own name")
    return tuple(ModeManifest(name=m.name, fingerprint=m.fingerprint, map_hash=map_hash(m.map))
                 for m in modes)


def build_manifest(
    *,
    run_id: str,
    suite: Suite,
    modes: Sequence[ControlMode],
    agent_id: str,
    agent_config: Mapping[str, JsonValue],
    agent: AgentIdentity | None = None,
    selection: ScenarioSelection | None = None,
    trials: int,
    seed: int,
    error_treatment: ErrorTreatment | None = None,
    started_at: datetime,
    metadata: Mapping[str, JsonValue] | None = None,
    cwd: str | Path | None = None,
) -> RunManifest:
    """The manifest of a run that is about to start (``ended_at`` unset).

    Args:
        run_id: the run's id (see :func:`new_run_id`).
        suite: the scenarios run (the selected ones, when ``selection`` is given).
        modes: the control modes, in run order; names must be unique.
        agent_id: the agent spec (``baseline``, ``openai:MODEL``, ``pkg.mod:factory``).
        agent_config: the agent's configuration (model, temperature, prompt hash...).
        agent: the agent's code identity (:func:`agent_identity`); hashed with
            ``agent_config`` into ``agent_config_hash`` (:func:`agent_config_hash`).
        selection: which of the suite's scenarios were selected, if not all.
        trials: trials per scenario and mode.
        seed: the run seed.
        error_treatment: how infrastructure errors are handled (default: retry twice,
            then exclude).
        started_at: aware start time.
        metadata: free-form extras.
        cwd: the directory whose git state is recorded (default: the current one).

    Raises:
        ManifestError: no modes, or two modes with the same name.
        pydantic.ValidationError: ``trials`` below 1 or a naive ``started_at``.
    """
    # read at every run's start (one subprocess): a long-lived process (a notebook, an
    # MCP server) whose checkout changes between runs records each run's own state
    commit, dirty = git_revision(cwd)
    return RunManifest(
        run_id=run_id,
        remit_version=remit_version(),
        git_commit=commit,
        git_dirty=dirty,
        suite_id=suite.id,
        suite_fingerprint=suite.fingerprint,
        scorer_version=SCORER_VERSION,
        modes=_mode_manifests(modes),
        agent_id=agent_id,
        agent_config_hash=agent_config_hash(agent_config, agent),
        # stored in canonical key order, so equal configurations serialise alike
        agent_config=json.loads(_canonical_text(agent_config)),
        agent=agent,
        selection=selection,
        persona_config_hash=persona_config_hash(suite),
        trials=trials,
        seed=seed,
        error_treatment=error_treatment if error_treatment is not None else ErrorTreatment(),
        started_at=started_at,
        metadata=dict(metadata) if metadata is not None else {},
    )
