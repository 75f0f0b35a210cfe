"""Hypothesis strategies for catalogue tests: quantities in any unit of their kind."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

from remit.catalogue import Unit

DETERMINISTIC = settings(derandomize=True, database=None, max_examples=150, deadline=None)
"""Apply to every property test: same examples on every run, no example database."""

pressure_units = st.sampled_from([Unit.BAR, Unit.PSI, Unit.MPA])
temperature_units = st.sampled_from([Unit.CELSIUS, Unit.FAHRENHEIT])

bar_values = st.floats(min_value=0.5, max_value=150.0, allow_nan=False, allow_infinity=False)
"""Design pressures in bar, within the range of the catalogue's PN ratings."""

celsius_values = st.floats(min_value=-40.0, max_value=400.0, allow_nan=False,
                           allow_infinity=False)
"""Medium temperatures in degrees Celsius."""
