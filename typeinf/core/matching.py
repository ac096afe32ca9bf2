"""A call typed by matching the callee's type against the arguments' types: for a builtin, as
straight-line code generated once per builtin (and per shape of `make_tuple`, `tuple_get` and
closures, see `codegen.compiled_matcher`); for a function definition, by a walk (`walk_match`).

Unifying fresh parameters with the arguments' types mostly binds each fresh variable to the part
of an argument's type it stands for. The matcher does that directly: it reads the parts off the
arguments' types (no parameter cells are made) and leaves to `unify` only what reading cannot
settle: a variable seen twice, a family to check, a constant against a variable, or a structure
against something else. The result is made from the parts read. It gives the types unification
gives; it is used only where the solver keeps no history (errors are reported by a second run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from typeinf.core.constructors import PRIM, fixed_params
from typeinf.core.schemes import copy_graph
from typeinf.core.terms import Cell, root_of, var
from typeinf.core.unify import unify

#: `match(argument_types, undecided)` → the call's type (None for a wrong number of arguments);
#: raises `Mismatch`, and adds to `undecided` the pairs `unify` could not decide yet.
Matcher: TypeAlias = Callable[[list[Cell], list[tuple[Cell, Cell]]], Cell | None]


def in_family(actual: Cell, family: frozenset[str]) -> bool:
    """Whether `actual` (a root) may stand for a dtype variable of `family` as it is: a dtype of
    the family, or a variable restricted to (a part of) it already."""
    if actual.ctor is PRIM:
        return actual.label in family
    return actual.ctor is None and actual.family is not None and actual.family <= family


def walk_match(type_: Cell, types: list[Cell], undecided: list[tuple[Cell, Cell]]) -> Cell | None:
    """The type of a call of a function of type `type_` (solved: nothing changes it any more), as
    a compiled matcher gives it (see `Matcher`), by walking its parameters against the arguments'
    types and copying only the result: for a definition, called too few times for generated code
    to pay, and for a shape too large to compile: neither pays to compile, and instantiating
    the type instead would copy it whole (docs/performance.md, "Fencil inference
    throughput")."""
    root, params = root_of(type_), fixed_params(type_)
    if params is None or len(params) != len(types):
        return None
    matches: dict[int, Cell] = {}  # id of a parameter's cell → what stands for it
    pairs: list[tuple[Cell, Cell]] = []
    stack = list(zip(params, types, strict=True))
    while stack:
        pattern, actual = stack.pop()
        pattern, actual = root_of(pattern), root_of(actual)
        known = matches.get(id(pattern))
        if known is not None:  # seen before: the two must be one
            known = root_of(known)
            if known is not actual:
                pairs.append((known, actual))
        elif pattern.ctor is None:  # a variable: the part itself, if it has the sort and family
            family = pattern.family
            if not (actual.sort is pattern.sort if family is None else in_family(actual, family)):
                fresh = var(pattern.sort, family)
                pairs.append((fresh, actual))
                actual = fresh
            matches[id(pattern)] = actual
        elif not pattern.args:  # a constant
            if actual is not pattern:
                pairs.append((pattern, actual))
        elif actual.ctor == pattern.ctor:  # a structure: its parts, if the type has its constructor
            matches[id(pattern)] = actual
            stack += zip(pattern.args, actual.args)  # noqa: B905 - one constructor, one arity; strict= costs a keyword call
        else:
            pairs.append((copy_graph(pattern, matches), actual))
    result = copy_graph(root.args[1], matches)
    for x, y in pairs:
        undecided += unify(x, y)
    return result
