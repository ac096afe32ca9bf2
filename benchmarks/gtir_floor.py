"""The least work any inference of a GTIR program by unification does, with this project's fastest
parts: what `benchmarks.gtir_inference --gt4py` prints beside our time, as a floor.

Issue 14 asks GT4Py's inference time over ours to be ≥ 50× on every program. `floor` does, of
what `typeinf.infer` does, only what no unification-based inference of principal types can skip:

1. list the program's nodes in pre-order (`iterir.traversal.preorder`, as inference does);
2. bind every name to its declaration (`iterir.symbols.resolve`, as inference does);
3. give every declared name (parameter, function definition, temporary) a fresh type
   variable, which each of its uses then shares;
4. at every call of a builtin that has a signature, make a fresh instance of it (the same
   generated code inference uses, `gtir_rules.call_plan`) and unify each argument's type with
   its parameter, the call's type being the instance's result; at any other call a fresh
   variable, the callee's type unified with a function of the arguments' types to it (a
   literal's type is its scalar's shared cell, as in inference); at a lambda, a function of its parameters' variables to its body's type. The
   comparisons and `and_`/`or_`, which inference types by a rule where they compare domains
   (`concat_where`'s conditions), count as other calls here, the cheaper of the two.

It has none of GTIR's rules (`as_fieldop`, domains, dimension-set relations, shifts, reductions,
tuples, `if_`), no statements, no checks, no located errors, no generalization of definitions,
and converts no type to a public value. So a real inference costs more; a program on which
GT4Py's time is under 50× the floor's cannot meet the target by any amount of tuning of the
rest.
"""

from __future__ import annotations

from iterir.nodes import FunCall, FunctionDefinition, Lambda, Literal, Node, Sym, SymRef, Temporary
from iterir.symbols import resolve
from iterir.traversal import child_positions, preorder
from typeinf import gtir_terms as g
from typeinf.gtir_collect import _ON_DOMAINS, _SCALARS
from typeinf.gtir_rules import SIGNATURES, call_plan
from typeinf.terms import Cell, Mismatch, Sort, var
from typeinf.unify import unify


def floor(root: Node) -> int:
    """Walk, resolve, and the variables and unifications of the module's text; returns how many
    unifications ended early.

    Every variable is of sort dtype, as GTIR's types are (`typeinf.gtir_terms`). Without the
    rules, a builtin may meet an argument a rule would have typed otherwise, and that
    unification ends at the `Mismatch`, having done less than a real one: still a floor."""
    tree = preorder(root)
    nodes, sizes = tree
    bindings = resolve(root, tree=tree).bindings
    types: list[Cell | None] = [None] * len(nodes)
    for position, node in enumerate(nodes):
        if type(node) in _DECLARATIONS:
            types[position] = var(Sort.DTYPE)
    early = 0
    for position in range(len(nodes) - 1, -1, -1):  # children before their parents
        node = nodes[position]
        if type(node) is SymRef:
            declared = bindings[position].position
            types[position] = None if declared is None else types[declared]
        elif type(node) is Literal:
            types[position] = _SCALARS.get(node.type) or var(Sort.DTYPE)
        elif type(node) is Lambda:
            children = child_positions(sizes, position, len(node.params) + 1)
            params = [types[child] or var(Sort.DTYPE) for child in children[:-1]]
            types[position] = g.function(params, types[children[-1]] or var(Sort.DTYPE))
        elif type(node) is FunCall:
            children = child_positions(sizes, position, len(node.args) + 1)
            args = [types[child] or var(Sort.DTYPE) for child in children[1:]]
            callee = node.fun
            name = callee.id if type(callee) is SymRef else None
            plan = call_plan(name) if name in _INSTANCES else None
            try:
                if plan is not None and plan[1] == len(args):
                    parts = plan[0]().args
                    for param, arg in zip(parts, args, strict=False):
                        unify(param, arg)
                    types[position] = parts[-1]
                    continue
                types[position] = result = var(Sort.DTYPE)
                unify(types[position + 1] or var(Sort.DTYPE), g.function(args, result))
            except Mismatch:
                early += 1
    return early


#: The builtins whose calls the floor types by an instance of their signature.
_INSTANCES = frozenset(SIGNATURES) - _ON_DOMAINS

#: The nodes that declare a name.
_DECLARATIONS = frozenset((Sym, FunctionDefinition, Temporary))
