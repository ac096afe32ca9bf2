"""The front ends' way in: an offset-provider file read for the dialect that types the tree,
and every error or type of a tree in that dialect's form (`dialect.decide` chooses it, as for
`typeinf.infer`, `check`, the command line, snapshots and the pytest fixture alike)."""

from __future__ import annotations

from iterir import Node
from iterir.errors import ParseError
from iterir.offset_types import offset_types_from_json
from typeinf.core.errors import OffsetProviderError
from typeinf.core.offsets import offset_provider_of, read_offset_json
from typeinf.dialect import Dialect, decide
from typeinf.gtir import infer as gtir_infer
from typeinf.gtir.infer import GtirSolved, in_gt4py_form
from typeinf.infer import AllowFree, Solved, solve


def read_provider(node: Node, path: str | None) -> object:
    """The offset provider in the JSON file `path` (None: none) for `node`, decoded as
    `solve_either` takes it, and checked in its form: GT4Py's offset-provider types, or ours
    (which GTIR reads too): a malformed one is a ParseError naming its JSON path."""
    if path is None:
        return None
    data = read_offset_json(path)
    if in_gt4py_form(data) or decide(node, data).dialect is Dialect.GTIR:
        offset_types_from_json(data, path)
    else:
        offset_provider_of(data, path)
    return data


def solve_either(
    node: Node, provider: object, allow_free: AllowFree = False, max_errors: int | None = None
) -> Solved | GtirSolved:
    """Every error of `node` (at most `max_errors`), or its types, in the dialect that types it
    (`dialect.decide`)."""
    dialect, tree = decide(node, provider)
    if dialect is Dialect.FENCIL:
        return solve(node, provider, max_errors=max_errors, allow_free=allow_free, tree=tree)  # type: ignore[arg-type]  # the fencil IR's
    try:
        offsets = gtir_infer.offset_types(provider)
    except ParseError as error:
        message = f"as GTIR, the offset provider is not GT4Py's offset-provider types: {error}"
        return GtirSolved(None, [OffsetProviderError(message, node)])
    return gtir_infer.solve(node, offsets, max_errors, allow_free, tree)  # read once, here


def typed_as_gtir(node: Node, provider: object) -> bool:
    """Whether `node` is typed as GTIR: for `typeinf explain`, which says why it is."""
    return decide(node, provider).dialect is Dialect.GTIR
