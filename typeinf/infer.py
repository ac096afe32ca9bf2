"""The inference entry points (`infer`, `infer_all`, `check`): each reads its offset provider
(`read_offsets`), asks `dialect.decide` which dialect types the tree, and hands both to that
dialect's module, `typeinf.fencil.infer` or `typeinf.gtir.infer`. The map of the pipeline:

1. `iterir.parser` / `iterir.json_codec` read text or JSON into IR nodes;
2. `iterir.traversal.preorder` numbers the nodes in pre-order; `iterir.symbols.resolve` says
   what every name refers to;
3. `order` puts a fencil's function definitions in dependency order (recursion: an error);
4. `collect.Inference` walks each definition and closure once, giving every node a cell and
   each typing rule's constraints (`constraints`: the cells, the node, the reason) to the solver,
   through its run (`runs`: the fast run, then on an error the explaining one);
5. `unify` (one unifier, with the constructors' rules of `constructors`) and `solve` (postponed
   rows, relations, generalization into `schemes`, infinite types) solve them as they come;
   `codegen` and `matching` instantiate and match builtins' and definitions' types fast;
6. `typeinf.fencil.infer` reads the types off (`InternalError` when the two runs disagree) and
   hands them out as the values of `typeinf.types` (`convert`); GTIR's `typeinf.gtir.infer`;
7. `notation` prints them, `reader` reads them back, `diagnostics` says errors in words.

`docs/architecture.md` draws the same map with the data each step hands on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from os import PathLike
from typing import Any

from iterir import Node
from typeinf import types
from typeinf.core import arguments
from typeinf.core.errors import TypeInferenceError
from typeinf.core.offsets import OffsetProvider, Offsets, read_offsets
from typeinf.dialect import Dialect, decide
from typeinf.fencil import convert
from typeinf.fencil import infer as fencil_infer
from typeinf.fencil.infer import NodeTypes as NodeTypes  # docs/api.md names it here
from typeinf.gtir import infer as gtir_infer
from typeinf.within import subject

#: An `offset_provider=`: either form, as objects or decoded JSON, or a JSON file's path.
Provider = OffsetProvider | dict[str, Any] | str | PathLike[str] | None
#: Which free names are unknowns rather than errors: True for all (docs/rules.md, free names).
AllowFree = gtir_infer.AllowFree
#: What inference gives for a node, in either dialect: a value of `typeinf.types` for the
#: fencil IR (`types.Inferred`), one of `typeinf.gtir.values` or a GTIR definition's or
#: program's type for GTIR (`gtir.infer.GtirInferred`). Each prints in its dialect's notation
#: (`str`, `pformat`).
Result = types.Inferred | gtir_infer.GtirInferred


def infer(
    node: Node,
    offset_provider: Provider = None,
    *,
    allow_free: AllowFree = False,
    within: Node | None = None,
) -> Result:
    """The most general type of `node` (an expression, definition, closure or fencil), as a
    value of `typeinf.types` (a fencil's made at the first read of any of its fields).

    A free name is an error unless `allow_free` names it (or is True): it is then an unknown,
    one type shared by its uses. `within`: the fencil that `node`, one of its function
    definitions, belongs to; the definitions it calls are then typed from there.
    Raises a TypeInferenceError subclass for a program without a type.
    """
    offsets = read_offsets(offset_provider)
    program = subject(node, allow_free, within)
    dialect, tree = decide(node, offsets, within)
    if dialect is Dialect.GTIR:
        return gtir_infer.infer(node, offsets.gtir, allow_free, tree)
    return fencil_infer.infer(program, offsets.fencil, tree)


def infer_all(
    node: Node,
    offset_provider: Provider = None,
    *,
    attach: bool = False,
    allow_free: AllowFree = False,
    within: Node | None = None,
) -> Mapping[int, Result]:
    """The type of every node, keyed by `id(node)`, in pre-order (a read-only mapping whose
    values are made when first read, `NodeTypes`). A node object used in several
    places is keyed by its first occurrence. With `attach`, each node also gets its type as
    `node.inferred_type`. The types' variables are numbered together, over the whole program
    (the root's as `infer` numbers them), so that a node's type relates to its parent's.
    `allow_free` and `within` as for `infer` (with `within`, the callees' nodes are typed too)."""
    offsets = read_offsets(offset_provider)
    program = subject(node, allow_free, within)
    dialect, tree = decide(node, offsets, within)
    if dialect is Dialect.GTIR:
        return gtir_infer.infer_all(
            node, offsets.gtir, attach=attach, allow_free=allow_free, tree=tree
        )
    return fencil_infer.infer_all(node, program, offsets.fencil, tree, attach)


@dataclass
class Checked:
    """What `check` found: the program's type (None when it has errors), the type of every
    node that has one (by `id(node)`, in pre-order; numbered together, as by `infer_all`), and
    the errors, in source order."""

    type: Result | None
    types: Mapping[int, Result]
    errors: list[TypeInferenceError]


def check(
    node: Node,
    offset_provider: Provider = None,
    *,
    max_errors: int | None = None,
    allow_free: AllowFree = False,
    within: Node | None = None,
) -> Checked:
    """Infer like `infer_all`, but report every independent error (at least one per failing
    function definition and closure, one per free name, at most `max_errors`) instead of raising
    the first. Errors are rare, and the fast run is cheap beside this one: it confirms them (a
    disagreement is a bug of ours, said as one). `allow_free` and `within` as for `infer`. The
    nodes of a part with errors keep the types found before the error (those that would contain
    themselves are left out)."""
    arguments.a_count("typeinf.check", "max_errors", max_errors)
    return checked_read(node, read_offsets(offset_provider), max_errors, allow_free, within)


def checked_read(
    node: Node,
    offsets: Offsets,
    max_errors: int | None = None,
    allow_free: AllowFree = False,
    within: Node | None = None,
) -> Checked:
    """`check` with its offset provider read (`read_offsets`): for `Reinference`, which reads
    it once for its own run and a full check alike."""
    program = subject(node, allow_free, within)  # checked before either dialect
    dialect, tree = decide(node, offsets, within)
    if dialect is Dialect.GTIR:
        return Checked(*gtir_infer.check(node, offsets.gtir, max_errors, allow_free, tree))
    return Checked(*fencil_infer.check(program, offsets.fencil, max_errors, tree))


def pformat(type_: object, locations: bool = False) -> str:
    """A type `infer` (or `parse_type`) gave, of either IR, in its notation: the fencil IR's
    compact one, or GT4Py 1.0.3's located one with `locations`; GTIR's (`typeinf.gtir.values`,
    a function definition's or a program's type) as it prints, which has one notation."""
    if isinstance(type_, types.Type) and not isinstance(type_, gtir_infer.GTIR_RESULTS):
        return convert.pformat(type_, locations)
    if not isinstance(type_, (*gtir_infer.GTIR_RESULTS, str, int)):
        arguments.a_type("typeinf.pformat", "type_", type_)  # raises: no type
    return str(type_)  # GTIR's, or a constant (a field such as "float64", 4, True)
