"""Selecting a suite's scenarios: by id, by a ``-k`` expression, by tag, and by sample.

``remit run``, ``remit suite list`` and the pytest plugin select scenarios through
:func:`select`, in this order:

1. ``scenario_ids`` (``--scenario ID``, repeatable): keep those ids; an id the suite
   does not hold is an error naming it.
2. ``keyword`` (``-k EXPR``): a boolean expression over scenario ids, as pytest's
   ``-k``: words joined by ``and``, ``or``, ``not`` and parentheses; a word matches an id
   containing it (case-insensitive). ``-k "supersession and not pressure"``. Parsed by a
   small recursive-descent parser (:func:`parse_keyword`), never evaluated as Python.
3. ``tags`` (``--tag T``, repeatable): a scenario is kept when it carries any of them.
   Scenarios carry tags by facet (``product=fff``, ``perturbation=pressure``,
   ``handoffs=2``); ``facet=value`` matches that facet, a bare ``value`` matches any
   facet with that value. A tag that no scenario of the suite carries is an error (a
   typo would otherwise pass unnoticed among the others).
4. ``sample`` (``--sample N``): at most N of the scenarios left, drawn with
   ``random.Random(sample_seed)`` and kept in suite order.

The filters combine with *and*. The selected scenarios form a suite of their own (same
id, the scenarios kept), whose fingerprint is that of its scenarios, so a run over a
selection is never compared with a run over other scenarios; the
:class:`~remit.harness.manifest.ScenarioSelection` returned goes into the run's manifest,
and applying it again to the same suite gives the same scenarios (what ``--resume``
does). A selection that keeps no scenario is an error.

Example:
    >>> from remit.harness import builtin_suite
    >>> chosen, selection = select(builtin_suite("handwritten"), keyword="discount")
    >>> [s.id for s in chosen], selection.selected
    (['discount-exception'], 1)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from remit.errors import RemitError
from remit.harness.manifest import ScenarioSelection
from remit.scenarios import Scenario, Suite

__all__ = ["CLI_OPTIONS", "PLUGIN_OPTIONS", "Keyword", "SelectionError", "apply_selection",
           "describe", "draw", "matches_tag", "parse_keyword", "scenario_filter", "select",
           "selection_of"]



def _list_hint(suite_id: str) -> str:
    return f"list its ids and tags with `remit suite list --suite {suite_id}`"


class SelectionError(RemitError, ValueError):
    """A scenario selection that cannot be made: an unknown id or tag, a bad ``-k``
    expression, a sample below 1, or a selection that keeps nothing.

    Attributes:
        problem: what is wrong and what to do, one sentence.
    """

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


CLI_OPTIONS: Mapping[str, str] = {"scenario": "--scenario", "keyword": "-k", "tag": "--tag",
                                  "sample": "--sample", "sample_seed": "--sample-seed"}
"""How ``remit run`` and ``remit suite list`` name the selection options."""

PLUGIN_OPTIONS: Mapping[str, str] = {
    "scenario": "--remit-scenario", "keyword": "--remit-k", "tag": "--remit-tag",
    "sample": "--remit-sample", "sample_seed": "--remit-sample-seed"}
"""How the pytest plugin names them (pytest owns ``-k``)."""


# -- -k expressions ----------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\()|(\))|([^\s()]+))")
_OPERATORS = ("and", "or", "not")


@dataclass(frozen=True)
class Keyword:
    """A parsed ``-k`` expression.

    Attributes:
        text: the expression as given.
        words: the words it matches ids against, lower-cased, in order.
    """

    text: str
    words: tuple[str, ...]
    _match: Callable[[str], bool]

    def __call__(self, scenario_id: str) -> bool:
        """Whether ``scenario_id`` matches the expression."""
        return self._match(scenario_id.lower())


class _Parser:
    """``expr := and_expr ("or" and_expr)*``; ``and_expr := not_expr ("and" not_expr)*``;
    ``not_expr := "not" not_expr | "(" expr ")" | WORD``."""

    def __init__(self, text: str, option: str) -> None:
        self.text = text
        self.option = option
        self.tokens: list[str] = []
        position = 0
        while position < len(text.rstrip()):
            found = _TOKEN.match(text, position)
            if found is None:  # pragma: no cover - the pattern matches any non-space run
                break
            self.tokens.append(found.group(found.lastindex or 0))
            position = found.end()
        self.at = 0
        self.words: list[str] = []

    def _fail(self, problem: str) -> SelectionError:
        return SelectionError(
            f"{self.option} {self.text!r}: {problem}; write words joined by and, or, not "
            f"and parentheses, e.g. {self.option} 'supersession and not pressure'")

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> str | None:
        token = self._peek()
        self.at += 1
        return token

    def parse(self) -> Callable[[str], bool]:
        if not self.tokens:
            raise self._fail("the expression is empty")
        matcher = self._or()
        if (extra := self._peek()) is not None:
            raise self._fail(f"unexpected {extra!r} after a complete expression")
        return matcher

    def _or(self) -> Callable[[str], bool]:
        terms = [self._and()]
        while self._peek() == "or":
            self._take()
            terms.append(self._and())
        return terms[0] if len(terms) == 1 else (lambda i: any(t(i) for t in terms))

    def _and(self) -> Callable[[str], bool]:
        terms = [self._not()]
        while self._peek() == "and":
            self._take()
            terms.append(self._not())
        return terms[0] if len(terms) == 1 else (lambda i: all(t(i) for t in terms))

    def _not(self) -> Callable[[str], bool]:
        token = self._take()
        if token is None:
            raise self._fail("it ends where a word or '(' was expected")
        if token == "not":
            inner = self._not()
            return lambda i: not inner(i)
        if token == "(":
            inner = self._or()
            if self._take() != ")":
                raise self._fail("a '(' is never closed")
            return inner
        if token == ")" or token in _OPERATORS:
            raise self._fail(f"{token!r} where a word or '(' was expected")
        word = token.lower()
        self.words.append(word)
        return lambda i: word in i


def parse_keyword(text: str, *, option: str = "-k") -> Keyword:
    """Parse a ``-k`` expression (see the module docstring); ``option`` is how errors
    name the option (``--remit-k`` in the pytest plugin).

    Raises:
        SelectionError: the expression is empty or malformed (an operator without an
            operand, an unclosed or unopened parenthesis).

    Example:
        >>> match = parse_keyword("supersession and not (pressure or slow)")
        >>> match("supersession-substitution"), match("supersession-pressure")
        (True, False)
    """
    parser = _Parser(text, option)
    matcher = parser.parse()
    return Keyword(text=text, words=tuple(parser.words), _match=matcher)


# -- tags ----------------------------------------------------------------------------------


def matches_tag(scenario: Scenario, tag: str) -> bool:
    """Whether ``scenario`` carries ``tag``: ``facet=value`` for that facet, or a bare
    ``value`` under any facet."""
    facet, equals, value = tag.partition("=")
    if equals:
        return scenario.tags.get(facet.strip()) == value.strip()
    return tag.strip() in scenario.tags.values()


def _check_tags(suite: Suite, tags: Sequence[str]) -> None:
    unknown = [t for t in tags if not any(matches_tag(s, t) for s in suite)]
    if not unknown:
        return
    facets = sorted({f for s in suite for f in s.tags})
    known = (f"its scenarios' tag facets are {', '.join(facets)}" if facets
             else "its scenarios carry no tags")
    raise SelectionError(f"--tag {', '.join(repr(t) for t in unknown)}: no scenario of suite "
                         f"{suite.id!r} carries it ({known}); {_list_hint(suite.id)}")


# -- selecting -----------------------------------------------------------------------------


def select(suite: Suite, *, scenario_ids: Sequence[str] = (), keyword: str | None = None,
           tags: Sequence[str] = (), sample: int | None = None,
           sample_seed: int | None = None) -> tuple[Suite, ScenarioSelection | None]:
    """The scenarios of ``suite`` the filters keep, as a suite, and the selection made.

    Args:
        suite: the whole suite.
        scenario_ids: keep these ids (``--scenario``); empty: no id filter.
        keyword: a ``-k`` expression over ids.
        tags: keep scenarios carrying any of these (``facet=value`` or ``value``).
        sample: at most this many of the scenarios left, drawn at random.
        sample_seed: the draw's seed (default 0).

    Returns:
        ``(suite, None)`` when no filter is given; otherwise the selected scenarios as a
        suite with ``suite``'s id, in suite order, and the
        :class:`~remit.harness.manifest.ScenarioSelection` to record.

    Raises:
        SelectionError: an id the suite does not hold, a tag no scenario carries, a bad
            ``-k`` expression, ``sample`` below 1, or nothing left to run.
    """
    ids = tuple(dict.fromkeys(i.strip() for i in scenario_ids if i.strip()))
    tag_list = tuple(dict.fromkeys(t.strip() for t in tags if t.strip()))
    if not ids and keyword is None and not tag_list and sample is None:
        return suite, None
    if sample is not None and sample < 1:
        raise SelectionError(f"--sample {sample}: a sample needs at least one scenario; give "
                             "--sample 1 or more")
    kept = list(suite.scenarios)
    if ids:
        known = {s.id for s in suite}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise SelectionError(
                f"--scenario {', '.join(unknown)}: suite {suite.id!r} has no scenario with "
                f"{'that id' if len(unknown) == 1 else 'those ids'}; {_list_hint(suite.id)}")
        kept = [s for s in kept if s.id in ids]
    if keyword is not None:
        match = parse_keyword(keyword)
        kept = [s for s in kept if match(s.id)]
    if tag_list:
        _check_tags(suite, tag_list)
        kept = [s for s in kept if any(matches_tag(s, t) for t in tag_list)]
    seed = 0 if sample_seed is None else sample_seed
    if sample is not None:
        kept = draw(kept, sample, seed)
    selection = ScenarioSelection(
        scenario_ids=ids, keyword=keyword, tags=tag_list, sample=sample,
        sample_seed=seed if sample is not None else None, selected=len(kept),
        total=len(suite))
    if not kept:
        raise SelectionError(
            f"the selection ({describe(selection)}) keeps none of the {len(suite)} scenarios "
            f"of suite {suite.id!r}; loosen it, or {_list_hint(suite.id)}")
    return Suite(id=suite.id, scenarios=tuple(kept)), selection


def draw(scenarios: Sequence[Scenario], n: int, seed: int) -> list[Scenario]:
    """At most ``n`` of ``scenarios``, drawn with ``random.Random(seed)``, in their order
    (all of them when there are ``n`` or fewer)."""
    if n >= len(scenarios):
        return list(scenarios)
    drawn = set(random.Random(seed).sample(range(len(scenarios)), n))
    return [s for index, s in enumerate(scenarios) if index in drawn]


def scenario_filter(selection: ScenarioSelection) -> Callable[[Scenario], bool]:
    """Whether a scenario passes ``selection``'s id, ``-k`` and tag filters (the sample
    is not a filter: see :func:`draw`). Unknown ids and tags simply match nothing.

    Raises:
        SelectionError: a bad ``-k`` expression.
    """
    ids = set(selection.scenario_ids)
    keyword = parse_keyword(selection.keyword) if selection.keyword is not None else None
    tags = selection.tags

    def passes(scenario: Scenario) -> bool:
        return ((not ids or scenario.id in ids)
                and (keyword is None or keyword(scenario.id))
                and (not tags or any(matches_tag(scenario, t) for t in tags)))

    return passes


def apply_selection(suite: Suite, selection: ScenarioSelection | None) -> Suite:
    """``suite`` narrowed by a recorded selection (a resumed run's), or ``suite`` itself.

    Raises:
        SelectionError: the selection no longer applies (an id or tag gone, nothing kept).
    """
    if selection is None:
        return suite
    chosen, _ = select(suite, scenario_ids=selection.scenario_ids, keyword=selection.keyword,
                       tags=selection.tags, sample=selection.sample,
                       sample_seed=selection.sample_seed)
    return chosen


def selection_of(*, scenario_ids: Sequence[str] = (), keyword: str | None = None,
                 tags: Sequence[str] = (), sample: int | None = None,
                 sample_seed: int | None = None,
                 options: Mapping[str, str] = CLI_OPTIONS) -> ScenarioSelection | None:
    """The filters alone, checked (a ``-k`` parses, a sample is 1 or more), without a
    suite to apply them to (the pytest plugin checks its options with this before any
    test is collected); ``None`` when no filter is given.

    Args:
        scenario_ids, keyword, tags, sample, sample_seed: as for :func:`select`.
        options: how messages name the options (:data:`CLI_OPTIONS`,
            :data:`PLUGIN_OPTIONS`).

    Raises:
        SelectionError: a bad ``-k`` expression or a sample below 1.
    """
    ids = tuple(dict.fromkeys(i.strip() for i in scenario_ids if i.strip()))
    tag_list = tuple(dict.fromkeys(t.strip() for t in tags if t.strip()))
    if not ids and keyword is None and not tag_list and sample is None:
        return None
    if keyword is not None:
        parse_keyword(keyword, option=options["keyword"])
    if sample is not None and sample < 1:
        raise SelectionError(f"{options['sample']} {sample}: a sample needs at least one "
                             "scenario; give 1 or more")
    return ScenarioSelection(scenario_ids=ids, keyword=keyword, tags=tag_list, sample=sample,
                             sample_seed=(0 if sample_seed is None else sample_seed)
                             if sample is not None else None)


def describe(selection: ScenarioSelection, options: Mapping[str, str] = CLI_OPTIONS) -> str:
    """The selection as the options that make it, e.g. ``-k 'discount' --tag pressure``
    (``options``: :data:`CLI_OPTIONS` or :data:`PLUGIN_OPTIONS`)."""
    parts = [f"{options['scenario']} {i}" for i in selection.scenario_ids]
    if selection.keyword is not None:
        parts.append(f"{options['keyword']} {selection.keyword!r}")
    parts += [f"{options['tag']} {t}" for t in selection.tags]
    if selection.sample is not None:
        parts.append(f"{options['sample']} {selection.sample} "
                     f"{options['sample_seed']} {selection.sample_seed}")
    return " ".join(parts) or "everything"
