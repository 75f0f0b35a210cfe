"""A seeded generator of realistic valve-distributor catalogues.

``generate_catalogue(seed)`` returns the same catalogue, byte for byte in its canonical
JSON, for the same seed: numbers come from one ``random.Random(seed)``, names from one
``Faker("en_US")`` seeded with ``seed_instance(seed)``; no global random state is used.

The default catalogue (``size=None``, 48 SKUs: 24 ball valves, 12 actuators, 12 gasket
kits) is built so that every fit and substitution rule can both pass and fail:

- ball valves cycle through both seats, both body materials and all end connections,
  with PN 10-40, several ISO 5211 flanges and a fixed share offering only 2.1
  certificates (missing 3.1);
- valves come in groups: singles, discontinued singles, supersession chains of two and
  three (successors change PN, flange, certificate or torque, or are renumbered), and
  FFF classes with a leading product, an identical alternate and an alternate with only
  2.1 and a different breakaway torque;
- actuators are sized for a target valve at exactly 1.25 x its breakaway torque, just
  below it, or above it, and most share its flange;
- some attributes are governed by a draft datasheet revision.

``size=N`` scales the same recipe to exactly N SKUs (half valves, a quarter actuators,
the rest gasket kits); 10,000 SKUs take about a second.

Example:
    >>> generate_catalogue(7).fingerprint() == generate_catalogue(7).fingerprint()
    True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import NamedTuple, TypedDict

from remit.catalogue.builders import actuator, assemble, ball_valve, gasket_kit
from remit.catalogue.catalogue import Catalogue
from remit.catalogue.exceptions import GenerationError
from remit.catalogue.families import (
    STANDARD_PN,
    ActuatorType,
    BodyMaterial,
    EndConnection,
    Facing,
    GasketMaterial,
    Iso5211Flange,
    Seat,
    Supply,
)
from remit.catalogue.fit import TORQUE_SAFETY_FACTOR
from remit.catalogue.products import FffClass, Variant

__all__ = ["DEFAULT_SIZE", "generate_catalogue", "shared_catalogue"]

DEFAULT_SIZE = 48
"""SKUs in the default catalogue (``size=None``)."""

_DNS = (15, 20, 25, 32, 40, 50, 65, 80, 100)
_DN_WEIGHTS = (1, 1, 3, 1, 2, 4, 1, 2, 2)
_PN_CHOICES = (10, 16, 16, 25, 40)
_PN_TORQUE: Mapping[int, float] = MappingProxyType(
    {10: 0.9, 16: 1.0, 25: 1.15, 40: 1.3, 63: 1.5, 100: 1.8})


class _Size(NamedTuple):
    """Per-DN figures: PN 16 PTFE breakaway (Nm), face-to-face flanged and threaded
    (mm, EN 558 series 1 and typical threaded bodies), list price of a WCB NPT body."""

    breakaway: int
    ftf_flanged: int
    ftf_threaded: int
    price: int


_SIZES: Mapping[int, _Size] = MappingProxyType({
    15: _Size(6, 108, 60, 38),
    20: _Size(8, 117, 70, 44),
    25: _Size(12, 127, 85, 55),
    32: _Size(16, 140, 95, 72),
    40: _Size(22, 165, 105, 90),
    50: _Size(32, 178, 120, 120),
    65: _Size(50, 190, 150, 190),
    80: _Size(72, 203, 175, 260),
    100: _Size(110, 229, 210, 380),
})
_FLANGES = tuple(Iso5211Flange)
_FLANGE_LIMIT_NM = ((25.0, Iso5211Flange.F05), (50.0, Iso5211Flange.F07),
                    (100.0, Iso5211Flange.F10))
_SEATS = tuple(Seat)
_BODIES = tuple(BodyMaterial)
_ENDS = tuple(EndConnection)
_GROUPS = ("chain3", "fff3", "single", "single", "chain2", "fff2", "single", "discontinued")
_GROUP_SIZE: Mapping[str, int] = MappingProxyType(
    {"chain3": 3, "fff3": 3, "chain2": 2, "fff2": 2})
_CHANGES = ("renumber", "pn", "flange", "certificate", "torque")
_DRAFTABLE = ("breakaway_torque", "seat_max_temp", "pn")
_TORQUE_FACTORS = (1.0, 0.96, 1.2, 1.6, 2.2)
_BRAND_POOL = 120


class _ValveSpec(NamedTuple):
    dn: int
    pn: int
    body: str
    end: str
    seat: str
    flange: str
    breakaway: float
    certificate: str
    brand: str


class _Commercial(TypedDict):
    stock: int
    lead_time_days: int
    list_price: Decimal
    unit_cost: Decimal


def _even(value: float) -> float:
    return float(max(4, 2 * round(value / 2)))


def _flange_for(torque: float) -> str:
    for limit, flange in _FLANGE_LIMIT_NM:
        if torque <= limit:
            return flange.value
    return Iso5211Flange.F12.value


def _larger_flange(flange: str) -> str:
    index = _FLANGES.index(Iso5211Flange(flange))
    return _FLANGES[min(index + 1, len(_FLANGES) - 1)].value


def _cents(value: float) -> Decimal:
    return Decimal(round(value * 100)).scaleb(-2)


class _Generator:
    """One generation run: its own RNG, Faker and counters (no global state)."""

    def __init__(self, seed: int) -> None:
        # faker is imported here, not with the module: commands that read stored runs
        # (compare, report) import the catalogue's types but never generate one.
        from faker import Faker  # noqa: PLC0415

        self.rng = random.Random(seed)
        fake = Faker("en_US")
        fake.seed_instance(seed)
        # A pool drawn once: Faker's weighted draw costs ~60 us, too slow per SKU at 10k.
        self.brands = tuple(fake.last_name() for _ in range(_BRAND_POOL))
        self.variants: list[Variant] = []
        self.fff_classes: list[FffClass] = []
        self.valves: list[tuple[str, _ValveSpec]] = []
        self.serial = {"BV": 0, "AC": 0, "GK": 0}

    def brand(self) -> str:
        return self.rng.choice(self.brands)

    def sku(self, prefix: str) -> str:
        self.serial[prefix] += 1
        return f"{prefix}-{self.serial[prefix]:05d}"

    def commercial(self, price: float) -> _Commercial:
        rng = self.rng
        stock = 0 if rng.random() < 0.2 else rng.randint(1, 200)
        lead = rng.randint(2, 5) if stock else rng.randint(10, 56)
        list_price = price * rng.uniform(0.95, 1.05)
        return _Commercial(stock=stock, lead_time_days=lead, list_price=_cents(list_price),
                           unit_cost=_cents(list_price * rng.uniform(0.55, 0.72)))

    def valve_spec(self, group: int) -> _ValveSpec:
        rng = self.rng
        dn = rng.choices(_DNS, weights=_DN_WEIGHTS)[0]
        pn = rng.choice(_PN_CHOICES)
        seat = _SEATS[group % 2].value
        seat_factor = 1.35 if seat == Seat.PEEK else 1.0
        breakaway = _even(_SIZES[dn].breakaway * _PN_TORQUE[pn] * seat_factor
                          * rng.uniform(0.9, 1.1))
        flange = _flange_for(breakaway)
        if rng.random() < 0.15:
            flange = _larger_flange(flange)
        return _ValveSpec(
            dn=dn, pn=pn, body=_BODIES[(group // 2) % 2].value, end=_ENDS[group % 3].value,
            seat=seat, flange=flange, breakaway=breakaway,
            certificate="2.1" if group % 4 == 3 else "3.1", brand=self.brand(),
        )

    def evolve(self, spec: _ValveSpec) -> _ValveSpec:
        change = self.rng.choice(_CHANGES)
        higher = [pn for pn in STANDARD_PN if pn > spec.pn]
        if change == "pn" and higher:
            return spec._replace(pn=higher[0])
        if change == "flange" and spec.flange != Iso5211Flange.F12:
            return spec._replace(flange=_larger_flange(spec.flange))
        if change == "certificate" and spec.certificate == "2.1":
            return spec._replace(certificate="3.1")
        if change == "renumber":
            return spec
        return spec._replace(breakaway=_even(spec.breakaway * 0.85))

    def add_valve(
        self,
        sku: str,
        spec: _ValveSpec,
        *,
        group: int,
        superseded_by: str | None = None,
        discontinued: bool = False,
        fff_class: str | None = None,
    ) -> None:
        rng = self.rng
        draft: tuple[str, ...] = ()
        if group % 5 == 2 or rng.random() < 0.08:
            draft = (rng.choice(_DRAFTABLE),)
        flanged = spec.end == EndConnection.FLANGED
        size = _SIZES[spec.dn]
        price = (size.price * (1.7 if spec.body == BodyMaterial.SS316 else 1.0)
                 * (1.4 if flanged else 1.0) * (1.3 if spec.seat == Seat.PEEK else 1.0)
                 * (1.25 if spec.pn >= 40 else 1.1 if spec.pn >= 25 else 1.0))
        name = (f"{spec.brand} ball valve DN{spec.dn} PN{spec.pn} {spec.body} {spec.end} "
                f"{spec.seat}")
        self.variants.append(ball_valve(
            sku, dn=spec.dn, pn=spec.pn, body_material=spec.body, end_connection=spec.end,
            seat=spec.seat, iso5211_flange=spec.flange, breakaway_torque=spec.breakaway,
            certificate=spec.certificate,
            face_to_face=size.ftf_flanged if flanged else size.ftf_threaded,
            name=name, revision=rng.choice((1, 1, 2, 3)), draft=draft,
            superseded_by=superseded_by, discontinued=discontinued, fff_class=fff_class,
            **self.commercial(price),
        ))
        if superseded_by is None and not discontinued:
            self.valves.append((sku, spec))

    def add_group(self, group: int, budget: int) -> int:
        kind = _GROUPS[group % len(_GROUPS)]
        size = _GROUP_SIZE.get(kind, 1)
        if size > budget:
            kind, size = "single", 1
        spec = self.valve_spec(group)
        skus = [self.sku("BV") for _ in range(size)]
        if kind.startswith("chain"):
            for index, sku in enumerate(skus):
                successor = skus[index + 1] if index + 1 < size else None
                self.add_valve(sku, spec, group=group, superseded_by=successor)
                spec = self.evolve(spec)
        elif kind.startswith("fff"):
            fff_id = f"FFF-{len(self.fff_classes) + 1:04d}"
            self.fff_classes.append(FffClass(id=fff_id, members=tuple(skus),
                                             leading_sku=skus[0]))
            alternates = [spec, spec._replace(brand=self.brand())]
            alternates.append(spec._replace(
                brand=self.brand(), certificate="2.1",
                breakaway=_even(spec.breakaway + self.rng.choice((-4, -2, 2, 4)))))
            if size == 2 and len(self.fff_classes) % 2:
                alternates.pop(1)
            for sku, member in zip(skus, alternates, strict=False):
                self.add_valve(sku, member, group=group, fff_class=fff_id)
        else:
            self.add_valve(skus[0], spec, group=group, discontinued=kind == "discontinued")
        return size

    def add_actuator(self, index: int) -> None:
        rng = self.rng
        target = rng.choice(self.valves)[1] if self.valves else self.valve_spec(index)
        kind = tuple(ActuatorType)[index % 3]
        flange = target.flange
        if index % 6 == 5:
            flange = rng.choice([f.value for f in _FLANGES if f.value != target.flange])
        needed = TORQUE_SAFETY_FACTOR * target.breakaway
        factor = _TORQUE_FACTORS[index % len(_TORQUE_FACTORS)]
        if factor == 1.0:
            torque = needed
        elif factor < 1.0:
            torque = min(math.floor(needed * factor * 2) / 2, needed - 0.5)
        else:
            torque = math.ceil(needed * factor * 2) / 2
        supply = (rng.choice((Supply.DC_24, Supply.AC_230)) if kind is ActuatorType.ELECTRIC
                  else Supply.AIR_6_BAR)
        price = (150 + 2.2 * torque) * (1.8 if kind is ActuatorType.ELECTRIC else 1.0)
        self.variants.append(actuator(
            self.sku("AC"), actuator_type=kind, output_torque=torque, iso5211_flange=flange,
            supply=supply, name=f"{self.brand()} {kind.value} actuator "
            f"{torque:g} Nm {flange}",
            revision=rng.choice((1, 1, 2)),
            draft=("output_torque",) if rng.random() < 0.1 else (),
            discontinued=index % 9 == 8, **self.commercial(price),
        ))

    def add_gasket(self, index: int) -> None:
        rng = self.rng
        dn = rng.choice(self.valves)[1].dn if self.valves else rng.choice(_DNS)
        material = tuple(GasketMaterial)[index % 3]
        price = (12 + 0.4 * dn) * (1.5 if material is GasketMaterial.GRAPHITE_316 else 1.0)
        self.variants.append(gasket_kit(
            self.sku("GK"), dn=dn, pn=(10, 16, 25, 40)[index % 4],
            facing=Facing.FF if index % 4 == 3 else Facing.RF, material=material,
            draft=("material",) if rng.random() < 0.05 else (),
            discontinued=index % 11 == 10, **self.commercial(price),
        ))


def generate_catalogue(seed: int = 0, size: int | None = None) -> Catalogue:
    """Generate a catalogue; the same ``seed`` and ``size`` give byte-identical JSON.

    Args:
        seed: seed of the number generator and of Faker.
        size: exact number of SKUs; ``None`` for the default :data:`DEFAULT_SIZE`.

    Raises:
        GenerationError: ``size`` is negative.
    """
    total = DEFAULT_SIZE if size is None else size
    if total < 0:
        raise GenerationError("size", size, "0 or more (or None for the default)")
    valves, actuators = total // 2, total // 4
    generator = _Generator(seed)
    group = 0
    while valves > 0:
        valves -= generator.add_group(group, valves)
        group += 1
    for index in range(actuators):
        generator.add_actuator(index)
    for index in range(total - total // 2 - actuators):
        generator.add_gasket(index)
    return assemble(generator.variants, generator.fff_classes)


@functools.lru_cache(maxsize=16)
def shared_catalogue(seed: int = 0, size: int | None = None) -> Catalogue:
    """The catalogue of ``(seed, size)``, generated once per process and shared.

    Catalogues are immutable, so every trial of a run (and every reference agent that
    needs the records) can share one instead of regenerating it.
    """
    return generate_catalogue(seed=seed, size=size)
