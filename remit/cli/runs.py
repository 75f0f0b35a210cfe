"""``remit run``, ``runs``, ``show`` and ``trail``: runs that last (``report`` and
``compare`` are in :mod:`remit.cli.comparing`)."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, NamedTuple, NoReturn

import typer

from remit.cli.app import (
    CONCURRENCY_MAX,
    LLM_TIMEOUT_MAX,
    MAX_TOKENS_MAX,
    RETRIES_MAX,
    SAMPLE_MAX,
    SEED_MAX,
    TRIALS_MAX,
    WORKERS_MAX,
    DbOption,
    JsonOption,
    check_document,
    check_output_directory,
    check_output_file,
    console,
    user_errors,
)
from remit.cli.comparing import compare_runs, report
from remit.errors import RunAbortedError
from remit.outputs import check_database

if TYPE_CHECKING:
    from pydantic import JsonValue

    from remit import authority
    from remit.actors import AgentFactory
    from remit.harness import (
        AgentIdentity,
        Gate,
        GateResult,
        RunManifest,
        RunResult,
        ScenarioSelection,
        TrialScore,
    )
    from remit.store import Store

__all__ = ["register"]

INTERRUPTED = 130

_LLM = "LLM agent (--agent openai:MODEL)"
_SELECT = "Selecting scenarios"
_RAY = "Ray (--executor ray)"



def _modes(specs: str) -> list[authority.ControlMode]:
    from remit import authority
    from remit.harness.modes import load_mode

    chosen = [load_mode(spec) for spec in specs.split(",") if spec.strip()]
    if not chosen:
        raise ValueError("--modes is empty; give at least one of "
                         + ", ".join(authority.BUILTIN_MODE_NAMES) + " or a mode file")
    names = [mode.name for mode in chosen]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"--modes names a mode twice: {', '.join(twice)}; each mode is a "
                         "column of the comparison, so give each once")
    return chosen


def _importable_from_here() -> None:
    """Let ``--agent my_module:factory`` find modules in the working directory, as
    ``python -m`` and pytest do (a console script's path does not include it)."""
    here = str(Path.cwd())
    if here not in sys.path:
        sys.path.insert(0, here)


def run(
    ctx: typer.Context,
    suite: Annotated[str, typer.Option(
        help="Built-in suite (core, handwritten) or a directory of scenario files.")] = "core",
    agent: Annotated[str, typer.Option(
        help="Built-in agent (oracle, baseline, guessing, claiming, abandoning, overreaching) "
             "or package.module:factory.")] = "baseline",
    modes: Annotated[str, typer.Option(
        help="Comma-separated control modes: built-in names (all_tools, dual_control, "
             "oracle_plan) or mode files (.yaml/.json, see docs/authority.md).")]
    = "all_tools,dual_control",
    trials: Annotated[int, typer.Option(
        min=1, max=TRIALS_MAX, help="Trials per scenario and mode.")] = 1,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Run seed.")] = 0,
    db: DbOption = None,
    concurrency: Annotated[int, typer.Option(
        min=1, max=CONCURRENCY_MAX, help="Trials in flight at once.")] = 1,
    workers: Annotated[int, typer.Option(
        min=1, max=WORKERS_MAX,
        help="Processes running trials side by side, for synchronous agents (the "
             "built-in ones); asynchronous agents use --concurrency instead. With "
             "--executor ray: the Ray actors (default: one per CPU of the cluster).")] = 1,
    executor: Annotated[Literal["local", "ray"], typer.Option(
        help="Where trials run: local (this machine) or ray (a Ray cluster; needs "
             "remit[ray]).", rich_help_panel=_RAY)] = "local",
    ray_address: Annotated[str | None, typer.Option(
        help="The Ray cluster: auto, HOST:PORT or ray://HOST:PORT (default: start a local "
             "Ray).", rich_help_panel=_RAY)] = None,
    ray_resources: Annotated[str | None, typer.Option(
        metavar="JSON", help='What each Ray actor holds, e.g. \'{"CPU": 1, "GPU": 0.25}\' '
        "(default: one CPU).", rich_help_panel=_RAY)] = None,
    resume: Annotated[str | None, typer.Option(
        help="Resume RUN_ID: run only the trials it is missing.")] = None,
    retry_errors: Annotated[bool, typer.Option(
        "--retry-errors",
        help="With --resume: also run again the trials that ended in an infrastructure "
             "error (their records are replaced).")] = False,
    retries: Annotated[int, typer.Option(
        min=0, max=RETRIES_MAX, help="Retries of a trial after an infrastructure error.")] = 2,
    on_infra_error: Annotated[Literal["exclude", "failure"], typer.Option(
        help="When retries run out: exclude the trial or count it as a failure.")]
    = "exclude",
    report: Annotated[Path | None, typer.Option(
        help="Also write a report: .html, .md, .json or .xml (JUnit), by suffix.")] = None,
    as_json: JsonOption = False,
    fail_under: Annotated[str | None, typer.Option(
        "--fail-under", metavar="GATES",
        help="CI gates, e.g. 'pass^1=0.8,dual_control:wrong_variant_final<=0.02': exit 1 "
             "when a mode misses one (see docs/ci.md).")] = None,
    scenario: Annotated[list[str] | None, typer.Option(
        "--scenario", metavar="ID", help="Run only this scenario (repeatable).",
        rich_help_panel=_SELECT)] = None,
    keyword: Annotated[str | None, typer.Option(
        "-k", "--keyword", metavar="EXPR",
        help="Run the scenarios whose ids match: words with and, or, not, parentheses.",
        rich_help_panel=_SELECT)] = None,
    tag: Annotated[list[str] | None, typer.Option(
        "--tag", metavar="TAG",
        help="Run the scenarios carrying this tag: facet=value, or a value of any facet "
             "(repeatable: any of them).", rich_help_panel=_SELECT)] = None,
    sample: Annotated[int | None, typer.Option(
        "--sample", metavar="N", max=SAMPLE_MAX,
        help="Run a random sample of N of the selected scenarios.",
        rich_help_panel=_SELECT)] = None,
    sample_seed: Annotated[int | None, typer.Option(
        "--sample-seed", metavar="S", min=0, max=SEED_MAX,
        help="Seed of --sample (default: --seed).", rich_help_panel=_SELECT)] = None,
    base_url: Annotated[str | None, typer.Option(
        help="Chat-completions server (default: $OPENAI_BASE_URL, else OpenAI's).",
        rich_help_panel=_LLM)] = None,
    api_key_env: Annotated[str | None, typer.Option(
        help="Variable holding the API key (default: OPENAI_API_KEY).",
        rich_help_panel=_LLM)] = None,
    temperature: Annotated[float | None, typer.Option(
        min=0.0, max=2.0, help="Sampling temperature (default: 0).",
        rich_help_panel=_LLM)] = None,
    max_tokens: Annotated[int | None, typer.Option(
        min=1, max=MAX_TOKENS_MAX, help="Completion tokens per reply (default: 1024).",
        rich_help_panel=_LLM)] = None,
    llm_seed: Annotated[int | None, typer.Option(
        min=0, max=SEED_MAX, help="The model's sampling seed, if the server honours one.",
        rich_help_panel=_LLM)] = None,
    tool_call_format: Annotated[str | None, typer.Option(
        help="native, content-json, or auto (native, else one JSON call in the text).",
        rich_help_panel=_LLM)] = None,
    tool_results_as: Annotated[str | None, typer.Option(
        help="tool (role: tool messages) or user (results as user text).",
        rich_help_panel=_LLM)] = None,
    prompt: Annotated[str | None, typer.Option(
        help="full (the policy as written, full tool schemas) or compact (for small local "
             "models: the same rules in fewer words, abbreviated tool schemas).",
        rich_help_panel=_LLM)] = None,
    llm_cache: Annotated[str | None, typer.Option(
        help="off, record or replay (replay never touches the network).",
        rich_help_panel=_LLM)] = None,
    cassettes: Annotated[Path | None, typer.Option(
        help="Cassette directory for --llm-cache (default: ./cassettes).",
        rich_help_panel=_LLM)] = None,
    cost_table: Annotated[Path | None, typer.Option(
        help="YAML/JSON prices per million tokens by model.", rich_help_panel=_LLM)] = None,
    llm_retries: Annotated[int | None, typer.Option(
        min=0, max=RETRIES_MAX,
        help="Retries of a model call after HTTP 408/409/429/5xx or a dropped connection "
             "(default: 3); a refused connection or a timeout is not retried.",
        rich_help_panel=_LLM)] = None,
    llm_timeout: Annotated[float | None, typer.Option(
        min=0.0, max=LLM_TIMEOUT_MAX,
        help="Seconds to wait for one model response (default: 60); see docs/agents.md "
             "for the worst-case wait.", rich_help_panel=_LLM)] = None,
) -> None:
    """Run a suite with an agent in each control mode, store it, and compare the modes.

    ``--agent openai:MODEL`` tests a model behind any OpenAI-compatible server (OpenAI,
    vLLM, llama.cpp, Ollama, LiteLLM); the options under "LLM agent" configure it.
    ``--fail-under`` turns the run into a CI gate: it is stored and reported as usual,
    then exits 1 if a mode misses a gate.
    """
    from remit.cli.executors import capacity, check_runnable, connected, executor_of
    from remit.cli.progress import RunProgress
    from remit.harness import ErrorTreatment, parse_gates, select
    from remit.reports.writing import format_for, write_report
    from remit.store import Store, resolve_suite, resume_run, start_run, suite_of

    # Paths first: a report or database that cannot be written is refused before any work.
    if report is not None:
        format_for(report)
        check_output_file("--report", report)
    check_database(db)
    _check_llm_files(cost_table, cassettes, llm_cache)
    if resume is not None:
        _refuse_options_on_resume(ctx)
    elif retry_errors:
        raise ValueError("--retry-errors re-runs a stored run's failed attempts; give it "
                         "with --resume RUN_ID")
    if fail_under is not None:
        parse_gates(fail_under)  # the syntax and metrics, before anything else
    on_ray = executor_of(executor, ray_address, ray_resources, workers=workers,
                         concurrency=concurrency,
                         workers_given=_given(ctx, "workers"))
    _importable_from_here()
    # Everything a user can get wrong is refused before a database is opened or created.
    new: _NewRun | None = None
    gates: tuple[Gate, ...] = ()
    if resume is None:
        new = _new_run(agent, modes, {
            "base_url": base_url, "api_key_env": api_key_env,
            "temperature": temperature, "max_tokens": max_tokens, "seed": llm_seed,
            "tool_call_format": tool_call_format, "tool_results_as": tool_results_as,
            "prompt": prompt, "cache_mode": llm_cache,
            "cassette_dir": cassettes or (Path("cassettes") if llm_cache else None),
            "cost_table": cost_table, "retries": llm_retries,
            "timeout_seconds": llm_timeout})
        if fail_under is not None:
            gates = parse_gates(fail_under, modes=[m.name for m in new.modes], trials=trials)
        _, selection = select(resolve_suite(suite), scenario_ids=scenario or (),
                              keyword=keyword, tags=tag or (), sample=sample,
                              sample_seed=seed if sample_seed is None else sample_seed)
        new = new._replace(selection=selection)
        check_runnable(new.factory, on_ray, workers=workers, concurrency=concurrency)
    started: list[RunManifest] = []
    with connected(on_ray), Store.open(db, create=resume is None) as store, \
            RunProgress(console(stderr=True), capacity(on_ray, workers, concurrency)
                        ) as progress:
        if resume is not None and fail_under is not None:
            stored = store.manifest(resume)
            gates = parse_gates(fail_under, modes=[m.name for m in stored.modes],
                                trials=stored.trials)

        def on_start(manifest: RunManifest, todo: int) -> None:
            started.append(manifest)
            progress.started(manifest, todo)

        on_trial = progress.finished
        try:
            if new is None:
                result = resume_run(store, str(resume), concurrency=concurrency,
                                    on_trial=on_trial, on_start=on_start,
                                    retry_errors=retry_errors, workers=workers,
                                    executor=on_ray)
            else:
                result = start_run(
                    store, suite_spec=suite, modes=new.modes, agent_id=agent,
                    trials=trials, seed=seed, concurrency=concurrency,
                    error_treatment=ErrorTreatment(retries=retries, on_exhausted=on_infra_error),
                    agent_config=new.agent_config, factory=new.factory,
                    identity=new.identity, selection=new.selection, metadata=new.metadata,
                    on_trial=on_trial, on_start=on_start, workers=workers, executor=on_ray)
        except (RunAbortedError, KeyboardInterrupt) as exc:
            progress.stop()
            _stopped(store, started, db, exc)
        manifest = store.manifest(started[0].run_id)  # as stored: finished, if it did
        if report is not None:
            written = write_report(manifest, store.trials(manifest.run_id, with_trails=False),
                                   suite_of(manifest), report,
                                   load_trails=functools.partial(store.trails, manifest.run_id))
            console(stderr=True).print(f"report written to {written}", markup=False)
    _finish(manifest, result, gates, gated=fail_under is not None, as_json=as_json)


class _NewRun(NamedTuple):
    """What a new run (not a resumed one) is made of, checked before a database opens."""

    modes: list[authority.ControlMode]
    factory: AgentFactory
    identity: AgentIdentity
    agent_config: dict[str, JsonValue]
    metadata: dict[str, JsonValue]
    selection: ScenarioSelection | None = None


def _new_run(agent: str, modes: str, llm_options: dict[str, object]) -> _NewRun:
    from remit.actors import load_agent_factory
    from remit.harness import agent_identity

    chosen = _modes(modes)
    factory, agent_config, metadata = _agent(agent, llm_options)
    factory = factory or load_agent_factory(agent)
    return _NewRun(chosen, factory, agent_identity(factory), agent_config, metadata)


def _finish(manifest: RunManifest, result: RunResult, gates: Sequence[Gate], *, gated: bool,
            as_json: bool) -> None:
    """Print the run (or its JSON), then exit 1 if nothing was measured or a gate fails."""
    from remit.harness import check_gates

    checked = check_gates(gates, result.summaries, [m.name for m in manifest.modes])
    if as_json:
        shown = _run_json(manifest, result)
        if gated:
            shown["gates"] = [r.model_dump(mode="json") for r in checked]
        typer.echo(json.dumps(shown, indent=2))
    else:
        _print_run(manifest, result)
        console().print(f"stored as {manifest.run_id}; compare its modes with "
                        f"`remit compare {manifest.run_id}`", markup=False)
    _refuse_unmeasured(manifest, result)  # with --json too: a script must see it failed
    _refuse_failed_gates(checked)


def _refuse_failed_gates(checked: Sequence[GateResult]) -> None:
    """Exit 1 when a ``--fail-under`` gate fails, one line on stderr per failing gate and
    mode; say that the gates hold otherwise."""
    if not checked:
        return
    err = console(stderr=True)
    failed = [r for r in checked if not r.passed]
    for result in failed:
        err.print(f"gate failed: {result.line()}", markup=False)
    if failed:
        raise typer.Exit(1)
    gates = len({r.gate.term for r in checked})
    err.print(f"gates hold: {gates} gate(s) over {len({r.mode for r in checked})} mode(s)",
              markup=False)


def _stopped(store: Store, started: Sequence[RunManifest], db: str | None,
             stop: RunAbortedError | KeyboardInterrupt) -> NoReturn:
    """Leave a run that stopped early, saying what was kept and how to go on.

    Ctrl-C keeps every finished trial and exits 130. An aborted run (a refused key, a
    cassette miss: no trial can succeed) is a user error; if it stored nothing, its empty
    run is deleted, so a mistake leaves no trace.
    """
    if not started:
        if isinstance(stop, KeyboardInterrupt):
            raise typer.Exit(INTERRUPTED) from None
        raise stop
    run_id = started[0].run_id
    resume = f"`remit run --resume {run_id}" + (f" --db {db}`" if db else "`")
    if isinstance(stop, KeyboardInterrupt):
        kept = len(store.completed(run_id))
        console(stderr=True).print(
            f"interrupted: {kept} finished trials of {run_id} are kept in {store.database}; "
            f"resume with {resume}", markup=False)
        raise typer.Exit(INTERRUPTED) from None
    if store.discard_if_empty(run_id):
        raise RunAbortedError(f"{stop}; nothing was stored") from None
    kept = len(store.completed(run_id))
    raise RunAbortedError(f"{stop}; {kept} finished trials of {run_id} are kept; once the "
                          f"cause is fixed, resume with {resume}") from None


def _refuse_unmeasured(manifest: RunManifest, result: RunResult) -> None:
    """Exit 1 when every trial ended in an infrastructure error: nothing was measured."""
    if result.trials and all(t.infra_error for t in result.trials):
        console(stderr=True).print(
            f"error: every trial of {manifest.run_id} ended in an infrastructure error, so "
            "nothing was measured; fix the cause (see the errors above), then `remit run "
            f"--resume {manifest.run_id} --retry-errors`", markup=False)
        raise typer.Exit(1)


_RESUME_OPTIONS = frozenset({"resume", "retry_errors", "db", "concurrency", "workers",
                             "executor", "ray_address", "ray_resources", "report", "as_json",
                             "fail_under"})
"""What ``--resume`` may be combined with; everything else comes from the run's manifest."""


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was given on the command line."""
    return getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"


def _refuse_options_on_resume(ctx: typer.Context) -> None:
    given = sorted(name for name in ctx.params
                   if name not in _RESUME_OPTIONS and _given(ctx, name))
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ValueError(f"--resume runs the rest of a run exactly as it was started; "
                         f"{options} cannot change it (only --db, --concurrency, --workers, "
                         "--executor, --ray-*, --report, --json, --fail-under and "
                         "--retry-errors apply); start a new run instead")


def _check_llm_files(cost_table: Path | None, cassettes: Path | None,
                     llm_cache: str | None) -> None:
    """Refuse a cost table that cannot be read or parsed and a cassette directory that
    cannot be used, before any work."""
    if cost_table is not None:
        check_document("--cost-table", cost_table)
    directory = cassettes or (Path("cassettes") if llm_cache else None)
    if directory is None:
        return
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"--cassettes {directory}: it is a file, not a directory; pass the "
                         "directory the cassettes are (or will be) recorded in")
    if llm_cache == "replay" and not directory.is_dir():
        raise ValueError(f"--cassettes {directory}: no such directory, so there is nothing "
                         "to replay; record the cassettes first with --llm-cache record")
    if llm_cache == "record":
        check_output_directory("--cassettes", directory)


def _agent(spec: str, llm_options: dict[str, object]) -> tuple[
        AgentFactory | None, dict[str, JsonValue], dict[str, JsonValue]]:
    """The factory, configuration and manifest metadata of ``--agent``.

    LLM agents are configured from the LLM options; other agents take none, and giving
    one is an error rather than silently ignored.
    """
    from remit.actors.llm import (
        is_llm_spec,
        llm_agent_factory,
        llm_run_metadata,
        parse_llm_config,
    )

    if is_llm_spec(spec):
        config = parse_llm_config(spec, llm_options)
        agent_config, metadata = llm_run_metadata(config)
        return llm_agent_factory(config), agent_config, metadata
    given = sorted(name for name, value in llm_options.items() if value is not None)
    if given:
        raise ValueError(f"LLM options ({', '.join(given)}) only apply to --agent "
                         f"openai:MODEL, not --agent {spec}")
    return None, {}, {}


def _run_json(manifest: RunManifest, result: RunResult) -> dict[str, object]:
    from remit.harness import measured_only, unmeasured

    return {
        "run_id": manifest.run_id,
        "manifest": manifest.model_dump(mode="json"),
        "modes": {name: measured_only(s, manifest.scorer_version).model_dump(mode="json")
                  for name, s in result.summaries.items()},
        "unmeasured_rates": list(unmeasured(manifest.scorer_version, _scores(result))),
        "infra_errors": sum(1 for t in result.trials if t.infra_error),
    }


def _scores(result: RunResult) -> list[TrialScore]:
    return [t.scored.score for t in result.trials]


def _print_run(manifest: RunManifest, result: RunResult, *, limit: int | None = 10) -> None:
    """The per-mode table, the error treatment, and the failing scenario x mode pairs
    (the first ``limit`` of them; all when ``None``)."""
    from remit.harness import scorer_note, unmeasured
    from remit.reports import failure_groups, mode_table

    out = console()
    chosen = manifest.selection
    suite = manifest.suite_id if chosen is None else \
        f"{manifest.suite_id} ({chosen.selected} of {chosen.total} scenarios selected)"
    out.print(mode_table(result.summaries, title=f"{manifest.agent_id} on {suite}: "
                                                 f"{len(result.trials)} trials",
                         unmeasured=unmeasured(manifest.scorer_version, _scores(result))))
    older = scorer_note(manifest.scorer_version, _scores(result))
    if older is not None:
        out.print(f"note: {older}", markup=False)
    infra = sum(1 for t in result.trials if t.infra_error)
    treatment = manifest.error_treatment
    handled = "excluded from" if treatment.on_exhausted == "exclude" else "counted as failures in"
    out.print(f"infrastructure errors: {infra} trials after {treatment.retries} retries, "
              f"{handled} the rates", markup=False)
    if infra:
        out.print(f"once the cause is fixed, run them again with `remit run --resume "
                  f"{manifest.run_id} --retry-errors`", markup=False)
    groups = failure_groups(result.trials)
    shown = groups if limit is None else groups[:limit]
    if groups:
        failing = sum(len(group.trials) for group in groups)
        first = f"; the first {len(shown)}" if len(shown) < len(groups) else ""
        out.print(f"{failing} failing trials in {len(groups)} scenario x mode pairs{first} "
                  f"(see one with `remit trail {manifest.run_id}/SCENARIO/MODE/TRIAL`):",
                  markup=False)
    for group in shown:
        out.print(f"FAIL {group.describe()}", markup=False)
    if len(shown) < len(groups):
        out.print(f"... and {len(groups) - len(shown)} more; `remit show {manifest.run_id}` "
                  "lists them all", markup=False)


@user_errors
def runs(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the stored runs, newest first."""
    from remit.reports import runs_table
    from remit.store import Store

    with Store.open(db, read_only=True) as store:
        listings = store.runs()
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in listings], indent=2))
        return
    console().print(runs_table(listings))


@user_errors
def show(run_id: Annotated[str, typer.Argument(help="A run id (see `remit runs`).")],
         db: DbOption = None, as_json: JsonOption = False) -> None:
    """Show a stored run: its manifest and per-mode results."""
    from remit.reports import manifest_table
    from remit.store import Store, result_from_store

    with Store.open(db, read_only=True) as store:
        manifest = store.manifest(run_id)
        result = result_from_store(store, run_id)
    if as_json:
        typer.echo(json.dumps(_run_json(manifest, result), indent=2))
        return
    console().print(manifest_table(manifest))
    _print_run(manifest, result, limit=None)


@user_errors
def trail(trial_id: Annotated[str, typer.Argument(
              help="A trial id: RUN/SCENARIO/MODE/TRIAL (see `remit show --json`).")],
          db: DbOption = None, as_json: JsonOption = False) -> None:
    """Show one stored trial: its approval trail (every authority decision, the final
    confirmations, where the agent left the reference plan), then every step, what the
    scorer counted against it (wrong variants, unsupported claims and citations,
    abandoned and missing hand-offs), whether the agent made no valid write, its reply
    issues (for an agent that reports usage) and the expectations that broke."""
    from remit import authority
    from remit.harness.modes import modes_from_metadata
    from remit.reports import (
        approval_lines,
        approval_table,
        approval_trail,
        score_lines,
        trail_table,
    )
    from remit.reports.safe import model_json
    from remit.store import Store, suite_of

    with Store.open(db, read_only=True) as store:
        record = store.trial(trial_id)
        manifest = store.manifest(trial_id.split("/", 1)[0])
    if as_json:
        typer.echo(model_json(record))
        return
    scored = record.scored
    suite = suite_of(manifest)
    scenario = suite.scenario(scored.scenario_id) if suite is not None else None
    try:
        (mode,) = modes_from_metadata([scored.mode], manifest.metadata)
    except authority.ModeError:
        mode = None  # no grant roles: authority columns stay blank
    approval = approval_trail(record, scenario, mode=mode)
    out = console()
    verdict = "passed" if scored.score.passed else "FAILED"
    out.print(f"{trial_id}: {verdict} (agent {manifest.agent_id}, seed {record.seed})",
              markup=False)
    out.print(approval_table(approval))
    for line in approval_lines(approval):
        out.print(line, markup=False)
    out.print(trail_table(record))
    for line in score_lines(scored.score):
        out.print(line, markup=False)


def register(app: typer.Typer) -> None:
    """Add the run commands to ``app``."""
    app.command("run")(user_errors(run))
    app.command("report")(report)
    app.command("runs")(runs)
    app.command("show")(show)
    app.command("trail")(trail)
    app.command("compare")(compare_runs)
