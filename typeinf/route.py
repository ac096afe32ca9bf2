"""The front ends' way in: an offset-provider file read for the dialect that types the tree,
and every error or type of a tree in that dialect's form (`dialect.decide` chooses it, as for
`typeinf.infer`, `check`, the command line, snapshots and the pytest fixture alike)."""

from __future__ import annotations

from typing import NamedTuple

from iterir import Node
from iterir.errors import ParseError
from typeinf.core.errors import OffsetProviderError
from typeinf.core.offsets import Offsets, read_offsets
from typeinf.dialect import Decided, Dialect, decide
from typeinf.fencil.infer import Solved, solve
from typeinf.gtir import infer as gtir_infer
from typeinf.gtir.infer import GtirSolved
from typeinf.infer import AllowFree
from typeinf.within import subject


class Routed(NamedTuple):
    """An offset provider, read, and the dialect that types the tree it was read for: decided
    once (`dialect.decide`), then handed to `solve_either`, which does not decide again."""

    offsets: Offsets
    decided: Decided


def read_provider(node: Node, path: str | None) -> Routed:
    """The offset provider in the JSON file `path` (None: none) for `node`, read once
    (`read_offsets`) and checked for it (`for_node`)."""
    return for_node(node, read_offsets(file=path))


def for_node(node: Node, offsets: Offsets) -> Routed:
    """`offsets`, checked in the form of the dialect that types `node`: GT4Py's offset-provider
    types for GTIR, ours or GT4Py's for the fencil IR; a malformed one is a ParseError naming its
    JSON path. The view checked is kept for `solve_either`."""
    routed = route(node, offsets)
    offsets.view(routed.decided.dialect is Dialect.GTIR)
    return routed


def route(node: Node, offsets: Offsets) -> Routed:
    """`offsets` and the dialect that types `node`, not checked yet: `solve_either` says a
    malformed provider as an error of its result."""
    return Routed(offsets, decide(node, offsets))


def solve_either(
    node: Node, routed: Routed, allow_free: AllowFree = False, max_errors: int | None = None
) -> Solved | GtirSolved:
    """Every error of `node` (at most `max_errors`), or its types, in the dialect that types it
    (`routed.decided`), with its offset provider read (`read_offsets`)."""
    offsets, (dialect, tree) = routed
    if dialect is Dialect.FENCIL:
        return solve(subject(node, allow_free, None), offsets.fencil, max_errors, tree)
    try:
        types = offsets.gtir
    except ParseError as error:
        message = f"as GTIR, the offset provider is not GT4Py's offset-provider types: {error}"
        return GtirSolved(None, [OffsetProviderError(message, node)])
    return gtir_infer.solve(node, types, max_errors, allow_free, tree)
