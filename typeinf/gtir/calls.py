"""Calls typed by a signature or a function type (docs/gtir.md, "Typing"): a builtin's call by
its signature (`builtins/gtir.gsig`), each argument unified with its parameter; any other
call by the callee's type; a callee known to take another number of arguments said as such.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iterir import (
    FunCall,
)
from iterir.symbols import BindingKind
from typeinf.core.constructors import DEMPTY, row_items
from typeinf.core.diagnostics import arity_error
from typeinf.core.errors import (
    UnsatisfiableConstraintError,
    unchained,
)
from typeinf.core.terms import Cell, Sort, find, var
from typeinf.gtir import messages
from typeinf.gtir import terms as g
from typeinf.gtir.signatures import call_plan, scheme

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference

_PARAMETER = BindingKind.PARAMETER
_BUILTIN = BindingKind.BUILTIN


def by_signature(
    inf: GtirInference, name: str, position: int, node: FunCall, args: list[int]
) -> Cell:
    """A call of the builtin `name` typed by its signature; an error says the signature."""
    plan = call_plan(name)
    if plan is not None and plan[1] != len(args):
        raise arity_error(node, plan[1], len(args))
    try:
        return inf.run.call_builtin(inf, name, position, args)
    except UnsatisfiableConstraintError as error:
        said = messages.builtin_takes(name, error.expected, error.actual)
        raise unchained(error.reworded(said, node)) from None


def signature_call(inf: GtirInference, name: str, position: int, args: list[int]) -> Cell:
    """A call of the builtin `name` typed by a fresh instance of its signature, unified with
    the call's function type (`apply`): the explaining run's way, and the fast run's where
    its own (`runs.FastRun.call_builtin`) does not fit or fails, as `apply` says the error
    with the whole types."""
    return apply(inf, scheme(name).instantiate(), position, args)


def apply(inf: GtirInference, function: Cell, position: int, args: list[int]) -> Cell:
    """A call of a function of type `function` with the arguments at `args`; a function
    known to take another number of arguments is an error that says how many."""
    known_function = find(function)
    if known_function.ctor is g.FUNCTION:
        params, tail = row_items(known_function.args[0])
        if tail.ctor is DEMPTY and len(params) != len(args):
            node = inf.nodes[position]
            assert isinstance(node, FunCall)  # only calls apply a function
            raise arity_error(node, len(params), len(args))
    result = var(Sort.DTYPE)
    inf.equal(function, g.function([inf.type_at(a) for a in args], result), position)
    return result
