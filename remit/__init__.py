"""remit: test whether a commercial AI agent stays within its remit.

The small public API lives in the subpackages (``remit.catalogue``, ``remit.quotes``,
``remit.authority``); this module re-exports the names most users need.

The re-exports are loaded when first used, not when ``remit`` is imported: every
``remit.*`` import runs this module first, and the command line must parse its
arguments and print ``--help`` without loading the domain core (see
:mod:`remit.cli`). ``from remit import Catalogue`` works as usual.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from remit.authority import (
        Action,
        AuthorityMap,
        ControlMode,
        Decision,
        Role,
        decide,
        default_map,
    )
    from remit.catalogue import Catalogue, acceptable_skus, generate_catalogue
    from remit.errors import RemitError
    from remit.quotes import Quote, QuoteState

__all__ = [
    "Action",
    "AuthorityMap",
    "Catalogue",
    "ControlMode",
    "Decision",
    "Quote",
    "QuoteState",
    "RemitError",
    "Role",
    "__version__",
    "acceptable_skus",
    "decide",
    "default_map",
    "generate_catalogue",
]

__version__ = "0.1.0"

_SOURCES = {
    **dict.fromkeys(("Action", "AuthorityMap", "ControlMode", "Decision", "Role", "decide",
                     "default_map"), "remit.authority"),
    **dict.fromkeys(("Catalogue", "acceptable_skus", "generate_catalogue"), "remit.catalogue"),
    "RemitError": "remit.errors",
    **dict.fromkeys(("Quote", "QuoteState"), "remit.quotes"),
}
"""The subpackage each re-exported name comes from (the imports above, for type checkers)."""


def __getattr__(name: str) -> object:
    """A re-exported name, imported from its subpackage on first use (PEP 562)."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'remit' has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
