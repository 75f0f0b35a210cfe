"""The authority map: grants and forbids over roles and actions, and its content hash.

An :class:`AuthorityMap` says which role may perform which action, under which
conditions (:class:`Grant`), and which requests are forbidden regardless of any grant
(:class:`Forbid`). Decisions follow Cedar: deny by default, a forbid always wins, and the
order of grants and forbids never matters.

The map is immutable. Its lookup index (grants and forbids by role and action, holders
by action, the hash) is computed once per map object, on first use, so that
:func:`remit.authority.decide` costs a few dictionary lookups.

**Hash.** :func:`map_hash` is the SHA-256 of a canonical JSON form in which grants and
forbids are sorted by id, the actions and roles inside each are sorted and de-duplicated,
and decimals are normalised (``5.0`` and ``5`` hash alike). So neither the order of
grants nor the order of actions changes the hash; the order of conditions inside one
grant does (it orders that grant's unmet sentences).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from decimal import Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from remit.authority.conditions import Condition
from remit.authority.roles import Action, Role

__all__ = ["AuthorityMap", "Forbid", "Grant", "MapIndex", "map_hash"]

_ID_PATTERN = r"^\S+$"


class Grant(BaseModel):
    """A role may perform some actions when all the conditions are met.

    Attributes:
        id: unique id within the map, e.g. ``g-finance-approve``.
        role: the role granted.
        actions: the actions granted.
        conditions: all must be met for the grant to allow a request (none: always).
        description: why the grant exists, for people reading the map.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, pattern=_ID_PATTERN)
    role: Role
    actions: tuple[Action, ...] = Field(min_length=1)
    conditions: tuple[Condition, ...] = ()
    description: str = ""


class Forbid(BaseModel):
    """Some roles may never perform some actions while all the conditions hold.

    A forbid with no conditions always applies. A forbid that applies denies the
    request whatever the grants say.

    Attributes:
        id: unique id within the map, e.g. ``f-sod-approve-own-submission``.
        roles: the roles the forbid covers.
        actions: the actions it forbids.
        conditions: all must hold for the forbid to apply.
        reason: the rule in one sentence, quoted in denials.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, pattern=_ID_PATTERN)
    roles: tuple[Role, ...] = Field(min_length=1)
    actions: tuple[Action, ...] = Field(min_length=1)
    conditions: tuple[Condition, ...] = ()
    reason: str = Field(min_length=1)


class MapIndex:
    """The lookup structures of one map, computed once (see :attr:`AuthorityMap.index`).

    Attributes:
        grants_for: grants by (role, action), sorted by id.
        forbids_for: forbids by (role, action), sorted by id.
        holders: per action, (role, grant ids) for each role with a grant, in role order.
        holder_roles: per action, the roles of ``holders``.
        hash: the map's :func:`map_hash`.
    """

    __slots__ = ("_source", "forbids_for", "grants_for", "hash", "holder_roles", "holders")

    def __init__(self, authority_map: AuthorityMap) -> None:
        self._source = _identity(authority_map)
        grants: dict[tuple[Role, Action], list[Grant]] = {}
        forbids: dict[tuple[Role, Action], list[Forbid]] = {}
        for grant in sorted(authority_map.grants, key=lambda g: g.id):
            for action in dict.fromkeys(grant.actions):
                grants.setdefault((grant.role, action), []).append(grant)
        for forbid in sorted(authority_map.forbids, key=lambda f: f.id):
            for role in dict.fromkeys(forbid.roles):
                for action in dict.fromkeys(forbid.actions):
                    forbids.setdefault((role, action), []).append(forbid)
        self.grants_for = {k: tuple(v) for k, v in grants.items()}
        self.forbids_for = {k: tuple(v) for k, v in forbids.items()}
        holders: dict[Action, list[tuple[Role, tuple[str, ...]]]] = {}
        for action in Action:
            for role in Role:
                held = self.grants_for.get((role, action), ())
                if held:
                    holders.setdefault(action, []).append((role, tuple(g.id for g in held)))
        self.holders = {k: tuple(v) for k, v in holders.items()}
        self.holder_roles = {k: tuple(role for role, _ in v) for k, v in holders.items()}
        self.hash = _hash(authority_map)

    def built_from(self, authority_map: AuthorityMap) -> bool:
        """True when this index was built from the same field objects as ``authority_map``."""
        name, version, grants, forbids = self._source
        return (
            grants is authority_map.grants
            and forbids is authority_map.forbids
            and name is authority_map.name
            and version is authority_map.version
        )


def _identity(
    authority_map: AuthorityMap,
) -> tuple[str, str, tuple[Grant, ...], tuple[Forbid, ...]]:
    return (authority_map.name, authority_map.version, authority_map.grants, authority_map.forbids)


class AuthorityMap(BaseModel):
    """Who may do what: grants and forbids, named and versioned.

    Attributes:
        name: the map's name, e.g. ``valve-distributor``.
        version: the map's version label, e.g. ``1``.
        grants: what each role may do, under conditions.
        forbids: what is never allowed while conditions hold; a forbid always wins.

    Ids of grants and forbids are unique across both lists.

    Example:
        >>> m = AuthorityMap(name="m", version="1", grants=[
        ...     Grant(id="g-finance-approve", role=Role.FINANCE, actions=[Action.APPROVE])])
        >>> len(map_hash(m))
        64
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    grants: tuple[Grant, ...] = ()
    forbids: tuple[Forbid, ...] = ()

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        counts = Counter([g.id for g in self.grants] + [f.id for f in self.forbids])
        duplicates = sorted(i for i, n in counts.items() if n > 1)
        if duplicates:
            places = [
                f"{i!r} at "
                + ", ".join(
                    [f"grants[{n}]" for n, g in enumerate(self.grants) if g.id == i]
                    + [f"forbids[{n}]" for n, f in enumerate(self.forbids) if f.id == i]
                )
                for i in duplicates
            ]
            joined = "; duplicate id ".join(places)
            raise ValueError(f"duplicate id {joined}; ids must be unique, rename one")
        return self

    @property
    def index(self) -> MapIndex:
        """The lookup index, built on first use and rebuilt if the fields were swapped.

        The index is stored in the instance ``__dict__`` (as ``functools.cached_property``
        does; pydantic ignores non-field keys in equality and dumps). Because
        ``model_copy(update=...)`` copies ``__dict__``, the index checks that it was built
        from the very same field objects before it is reused.
        """
        cached = self.__dict__.get("_remit_index")
        if isinstance(cached, MapIndex) and cached.built_from(self):
            return cached
        fresh = MapIndex(self)
        self.__dict__["_remit_index"] = fresh
        return fresh

    def grant(self, grant_id: str) -> Grant:
        """The grant with id ``grant_id``.

        Raises:
            KeyError: no grant has that id.
        """
        for grant in self.grants:
            if grant.id == grant_id:
                return grant
        valid = ", ".join(sorted(g.id for g in self.grants)) or "none"
        raise KeyError(f"no grant id={grant_id!r} in map {self.name!r}; grants: {valid}")


def _canonical(value: object) -> object:
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return "0" if text in {"-0", "0"} else text
    raise TypeError(f"cannot hash value={value!r} of type {type(value).__name__}")


def _hash(authority_map: AuthorityMap) -> str:
    data = authority_map.model_dump()
    data["grants"] = sorted(data["grants"], key=lambda g: g["id"])
    data["forbids"] = sorted(data["forbids"], key=lambda f: f["id"])
    for grant in data["grants"]:
        grant["actions"] = sorted(set(grant["actions"]))
    for forbid in data["forbids"]:
        forbid["actions"] = sorted(set(forbid["actions"]))
        forbid["roles"] = sorted(set(forbid["roles"]))
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=_canonical)
    return hashlib.sha256(text.encode()).hexdigest()


def map_hash(authority_map: AuthorityMap) -> str:
    """The SHA-256 hex digest of the map's canonical JSON (order-independent; see module doc).

    Computed once per map object.
    """
    return authority_map.index.hash
