"""remit: test whether a commercial AI agent stays within its remit.

The small public API lives in the subpackages (``remit.catalogue``, ``remit.quotes``,
``remit.authority``); this module re-exports the names most users need.
"""

from __future__ import annotations

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
