"""``remit authority ...`` and ``remit catalogue ...``: the domain core's commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from remit.cli.app import (
    CATALOGUE_SIZE_MAX,
    PROBLEMS_FOUND,
    SEED_MAX,
    CommandGroup,
    console,
    user_errors,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from remit import authority, catalogue

__all__ = ["authority_app", "catalogue_app"]

authority_app = typer.Typer(cls=CommandGroup, no_args_is_help=True,
                            help="Inspect and check authority maps and control modes.")
catalogue_app = typer.Typer(cls=CommandGroup, no_args_is_help=True,
                            help="Inspect the governed product catalogue.")


def _console() -> Console:
    return console()


# -- authority ---------------------------------------------------------------------------


def _parse_action(name: str) -> authority.Action:
    from remit import authority

    try:
        return authority.Action(name)
    except ValueError:
        valid = ", ".join(a.value for a in authority.Action)
        raise ValueError(f"unknown action={name!r}; valid actions: {valid}") from None


@authority_app.command("who-can")
@user_errors
def who_can(
    action: Annotated[str, typer.Argument(help="Action id, e.g. release_payment.")],
    mode: Annotated[str, typer.Option(
        help="Control mode: a built-in name or a mode file (.yaml/.json).")] = "dual_control",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the roles that may perform ACTION in a control mode."""
    from remit import authority
    from remit.harness.modes import load_mode

    act = _parse_action(action)
    chosen = load_mode(mode)
    roles = sorted(r.value for r in authority.who_can(chosen, act))
    if as_json:
        typer.echo(json.dumps({"action": act.value, "mode": chosen.name, "roles": roles}))
        return
    _console().print(f"{act.value} in {chosen.name}: {', '.join(roles) or 'nobody'}")


@authority_app.command("table")
@user_errors
def table(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print every action x control mode -> the roles that may perform it."""
    from rich.table import Table

    from remit import authority

    modes = authority.builtin_modes()
    rows = {
        act.value: {name: sorted(r.value for r in authority.who_can(mode, act))
                    for name, mode in modes.items()}
        for act in authority.Action
    }
    if as_json:
        typer.echo(json.dumps({"modes": list(modes), "actions": rows}, indent=2))
        return
    out = Table(title="Who can perform each action, per control mode")
    out.add_column("action", style="bold")
    for name in modes:
        out.add_column(name)
    for act, per_mode in rows.items():
        out.add_row(act, *(", ".join(roles) or "-" for roles in per_mode.values()))
    _console().print(out)
    fingerprints = ", ".join(f"{name} {mode.fingerprint[:12]}" for name, mode in modes.items())
    _console().print(f"mode fingerprints: {fingerprints}")


@authority_app.command("check")
@user_errors
def check(
    path: Annotated[Path, typer.Argument(help="Authority map file (.yaml, .yml or .json).")],
) -> None:
    """Validate an authority map file; print its problems and exit 1 on any.

    A file that cannot be read or does not parse as YAML/JSON is bad input: one line
    (naming the line and column of a syntax error) and exit status 2.
    """
    from remit import authority
    from remit.authority.loading import MapSyntaxError
    from remit.documents import read_text
    from remit.errors import MapError

    text = read_text(path)
    if not text.strip():
        raise ValueError(f"{path}: the file is empty; write an authority map in it (see "
                         "docs/authority.md)")
    fmt: Literal["json", "yaml"] = "json" if path.suffix.lower() == ".json" else "yaml"
    console = _console()
    try:
        loaded = authority.load_map(text, format=fmt, source=str(path))
    except MapSyntaxError as exc:
        raise ValueError(f"{exc}; fix the file") from None
    except MapError as exc:
        for problem in exc.problems:
            console.print(f"{path}: {problem}", markup=False)
        raise typer.Exit(PROBLEMS_FOUND) from None
    problems = authority.check_map(loaded)
    for problem in problems:
        console.print(f"{path}: {problem}", markup=False)
    if problems:
        raise typer.Exit(PROBLEMS_FOUND)
    console.print(f"{path}: ok ({len(loaded.grants)} grants, {len(loaded.forbids)} forbids, "
                  f"hash {authority.map_hash(loaded)[:12]})", markup=False)


@authority_app.command("diagram")
@user_errors
def diagram() -> None:
    """Print the quote state machine as a Mermaid state diagram."""
    from remit import quotes

    typer.echo(quotes.mermaid_diagram())


# -- catalogue ---------------------------------------------------------------------------


@catalogue_app.command("show")
@user_errors
def catalogue_show(
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Generator seed.")] = 0,
    size: Annotated[int | None, typer.Option(
        min=1, max=CATALOGUE_SIZE_MAX, help="Number of SKUs (default: 48).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print canonical JSON.")] = False,
) -> None:
    """Print the generated governed catalogue."""
    from remit import catalogue

    cat = catalogue.generate_catalogue(seed=seed, size=size)
    if as_json:
        typer.echo(cat.canonical_json())
        return
    _console().print(render_catalogue(cat))


def render_catalogue(cat: catalogue.Catalogue) -> Table:
    """Render a catalogue as a rich table, one row per SKU."""
    from rich.table import Table

    out = Table(title=f"Catalogue {cat.fingerprint()[:12]}")
    for column in ("sku", "family", "key attributes", "lifecycle", "fff", "stock", "price"):
        out.add_column(column)
    for variant in cat.variants.values():
        attrs = " ".join(
            f"{a.name}={a.value:g}{a.unit or ''}" if isinstance(a.value, float)
            else f"{a.name}={a.value}"
            for a in list(variant.attributes.values())[:5]
        )
        lifecycle = variant.lifecycle.status.value
        if variant.lifecycle.superseded_by:
            lifecycle += f" -> {variant.lifecycle.superseded_by}"
        out.add_row(variant.sku, variant.family.value, attrs, lifecycle,
                    variant.fff_class or "", str(variant.stock), str(variant.list_price))
    return out
