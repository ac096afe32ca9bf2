"""The types of a program's nodes by `id(node)`, kept as the program's parts' maps (a fencil's
type, each definition's, the parameters', each closure's, in pre-order), so that re-inference
makes the map of a program a pass edited by patching the last one: the parts it left alone are
not copied one by one (docs/architecture.md, "Incremental re-inference"); and `attach`, which
sets such types on the nodes (`infer_all(attach=True)`, both dialects)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from typing import Generic, TypeVar

from iterir.nodes import Node

T = TypeVar("T")  # a dialect's type: a cell's for the fencil IR, a value for GTIR


class TypeMap(Mapping[int, T], Generic[T]):
    """Every part's types, iterated in the parts' order (pre-order). A node object in several
    parts has its first occurrence's type; `shared` holds such nodes' keys (a part holding one
    is never patched: which occurrence comes first could change)."""

    def __init__(self, parts: list[dict[int, T]], types: dict[int, T], shared: set[int]) -> None:
        self.parts, self.types, self.shared = parts, types, shared

    @classmethod
    def made(cls, parts: list[dict[int, T]]) -> TypeMap[T]:
        """The map of `parts`, made from scratch."""
        types: dict[int, T] = {}
        for part in parts:
            types.update(part)
        shared: set[int] = set()
        if len(types) != sum(map(len, parts)):
            types = {}
            for part in parts:
                for key, type_ in part.items():
                    if key in types:
                        shared.add(key)
                    else:
                        types[key] = type_
        return cls(parts, types, shared)

    def patched(self, parts: list[dict[int, T]], changed: set[int]) -> TypeMap[T]:
        """The map of `parts`, which are this map's but at the indices in `changed` (and
        those past the end of either), made by copying the dict (at C speed) and moving only
        the changed parts' keys, so that a small edit costs what it changed, not the
        program's size (docs/performance.md, "Incremental re-inference")."""
        before = [self.parts[i] for i in changed if i < len(self.parts)]
        if any(not self.shared.isdisjoint(part) for part in before):
            return TypeMap.made(parts)
        types = self.types.copy()
        for part in before:
            for key in part:
                del types[key]
        for index in changed:
            if index < len(parts):
                part = parts[index]
                if not types.keys().isdisjoint(part):
                    return TypeMap.made(parts)  # a node in two parts: which one comes first
                types.update(part)
        return TypeMap(parts, types, self.shared)

    def __getitem__(self, key: int) -> T:
        return self.types[key]

    def __contains__(self, key: object) -> bool:
        return key in self.types

    def __len__(self) -> int:
        return len(self.types)

    def __iter__(self) -> Iterator[int]:
        keys = chain.from_iterable(self.parts)
        return keys if not self.shared else _first_occurrences(keys)


def _first_occurrences(keys: Iterator[int]) -> Iterator[int]:
    seen: set[int] = set()
    for key in keys:
        if key not in seen:
            seen.add(key)
            yield key


#: Sets a node's `inferred_type` without the frozen dataclass's `__setattr__`.
_SET_TYPE = Node.__dict__["inferred_type"].__set__


def attach(nodes: Sequence[Node], values: Mapping[int, T], whole: bool) -> None:
    """Set each node's value as its `inferred_type` (a node without one keeps none). When the
    values are those of the `whole` program's `nodes` one for one (every node a value, no node
    object in two places), they are in the same pre-order, and a loop that C runs (`map`) pairs
    them without looking any up (the fencil IR's `infer_all`; GTIR's looks each up): no Python
    loop and no look-up per node. A program whose node objects stand in several places keeps the
    Python loop, with the slot's setter (docs/performance.md, "Handing types out")."""
    if whole and len(nodes) == len(values):
        deque(map(_SET_TYPE, nodes, values.values()), maxlen=0)
        return
    get = values.get
    for current in nodes:
        value = get(id(current))
        if value is not None:
            _SET_TYPE(current, value)
