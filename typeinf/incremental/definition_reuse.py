"""Which function definitions re-inference types again, for both dialects: those an edit made,
and the users of every name whose meaning changed (a definition whose type changed, a name
that came to or stopped naming a definition, a builtin registered again), transitively,
dependencies first (docs/architecture.md, "Incremental re-inference")."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter

from typeinf.incremental.part_layout import Unsupported
from typeinf.incremental.part_trees import PartTree

#: What a builtin a definition uses means: what the dialect's builtins table holds for it
#: (another object when registered again; None for nothing).
Meaning = object


@dataclass(frozen=True)
class Dependencies:
    """Each definition's rank in an order that puts dependencies first, and the definitions
    that use each name (from outside themselves)."""

    rank: dict[str, int]
    users: dict[str, set[str]]


def dependencies(trees: Mapping[str, PartTree]) -> Dependencies:
    """The order and the users of the definitions `trees` holds, by name (recursion: left to
    a full check, which reports it)."""
    graph = {name: [n for n in tree.outside if n in trees] for name, tree in trees.items()}
    try:
        order = TopologicalSorter(graph).static_order()
        rank = {name: i for i, name in enumerate(order)}
    except CycleError:
        raise Unsupported from None
    users: dict[str, set[str]] = {}
    for name, tree in trees.items():
        for used in tree.outside:
            users.setdefault(used, set()).add(name)
    return Dependencies(rank, users)


@dataclass
class Meanings:
    """What the names the definitions take from outside meant when they were inferred: each
    definition's type (equal up to renaming when equal: a value or a text), each builtin's
    meaning."""

    texts: dict[str, object]
    builtins: dict[str, Meaning]

    def copy(self) -> Meanings:
        return Meanings(dict(self.texts), dict(self.builtins))

    def changed(
        self, definitions: Mapping[str, object], builtin: Callable[[str], Meaning], same: bool
    ) -> set[str]:
        """The names whose meaning changed since: builtins whose meaning (`builtin(name)`) is
        another or that a definition shadows now, and unless the definitions' names are the
        `same`, the names that came to or stopped naming a definition (a definition whose
        type changes is found as it is inferred again)."""
        changed = {
            name
            for name, meaning in self.builtins.items()
            if name in definitions or builtin(name) is not meaning
        }
        if not same:
            changed.update(self.texts.keys() ^ definitions.keys())
        return changed


def in_order(
    known: Dependencies,
    redo: set[str],
    changed: set[str],
    definitions: Mapping[str, object],
    infer: Callable[[str], bool],
) -> None:
    """Call `infer(name)` for the definitions in `redo` and the users of the names in
    `changed`, and for the users of each whose type `infer` says changed, each once and after
    its dependencies."""
    rank, users = known.rank, known.users
    again = redo.union(*(users.get(name, ()) for name in changed))
    pending = [(rank[name], name) for name in again if name in definitions]
    heapq.heapify(pending)
    done: set[str] = set()
    while pending:
        _, name = heapq.heappop(pending)
        if name in done:
            continue
        done.add(name)
        if infer(name):
            for user in users.get(name, ()):
                heapq.heappush(pending, (rank[user], user))
