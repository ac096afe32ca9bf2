"""Which IR a tree is typed as, and how its offset provider is read for it: one decision
(`gtir_infer.claims`, then the fencil IR with GTIR after its errors) for `typeinf.infer`,
`check`, the command line, snapshots and the pytest fixture, so that they type the same input
alike (docs/gtir.md, "Typing")."""

from __future__ import annotations

from iterir import Node
from iterir.errors import ParseError
from iterir.offset_types import offset_types_from_json
from typeinf.core.errors import OffsetProviderError
from typeinf.core.offsets import offset_provider_of, read_offset_json
from typeinf.gtir import infer as gtir_infer
from typeinf.gtir.infer import GtirSolved
from typeinf.infer import AllowFree, Solved, solve


def read_provider(node: Node, allow_free: AllowFree, path: str | None) -> object:
    """The offset provider in the JSON file `path` (None: none) for `node`, decoded as
    `solve_either` takes it, and checked in the form of the IR it is first typed as: a
    malformed one is a ParseError naming its JSON path."""
    if path is None:
        return None
    data = read_offset_json(path)
    if gtir_infer.claims(node, allow_free, None, data):
        offset_types_from_json(data, path)
    else:
        offset_provider_of(data, path)
    return data


def solve_either(
    node: Node, provider: object, allow_free: AllowFree = False, max_errors: int | None = None
) -> Solved | GtirSolved:
    """Every error of `node` (at most `max_errors`), or its types: as GTIR where `typeinf.check`
    types it as GTIR (`provider` then GT4Py's offset-provider types), else as the fencil IR."""
    if not gtir_infer.claims(node, allow_free, None, provider):
        solved = solve(node, provider, max_errors=max_errors, allow_free=allow_free)  # type: ignore[arg-type]  # the fencil IR's
        if not (solved.errors and gtir_infer.after_error(node, None)):
            return solved
        try:
            gtir_infer.offset_types(provider)
        except ParseError as error:  # read for the fencil IR, which could not type it
            message = f"as GTIR, the offset provider is not GT4Py's offset-provider types: {error}"
            return GtirSolved(None, [OffsetProviderError(message, node)])
    return gtir_infer.solve(node, provider, max_errors, allow_free)


def typed_as_gtir(node: Node, provider: object, allow_free: AllowFree) -> bool:
    """Whether `solve_either` (so `check`) types `node` as GTIR: for `typeinf explain`."""
    return isinstance(solve_either(node, provider, allow_free, 1), GtirSolved)
