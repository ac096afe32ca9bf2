"""A floor under typeinf's GTIR inference: the least work an inference of principal types built
as ours is (pre-order walk, name resolution, instances of signatures, unification) does on a
program; `benchmarks.gtir_inference --gt4py` times it beside GT4Py's and ours.

Issue 14 asks GT4Py's inference time over ours to be ≥ 50× on every program. `floor` does, of
what `typeinf.infer` does, only this:

1. list the program's nodes in pre-order (`iterir.traversal.preorder`, as inference does);
2. bind every name to its declaration (`iterir.symbols.resolve`, as inference does);
3. give every declared name (parameter, function definition, temporary) a fresh type
   variable, which each of its uses then shares;
4. at every call of a builtin that has a signature, make a fresh instance of it (the same
   generated code inference uses, `typeinf.gtir.signatures.call_plan`) and unify each argument's type with
   its parameter, the call's type being the instance's result; at a call of anything else
   but a builtin (a lambda, a function definition, a parameter), a fresh variable, the
   callee's type unified with a function of the arguments' types to it; at a lambda, a
   function of its parameters' variables to its body's type. A literal's type is its
   scalar's shared cell, as in inference.

A call typed by a rule in inference (`as_fieldop`, `make_tuple`, `tuple_get`, `if_`, domains,
`shift`, `reduce`, …, and the comparisons where they compare domains) counts as nothing here,
nor do its arguments' unifications with it: less than any rule does. So the floor never does
more on a construct than typeinf's inference does on it. It is a floor of this design: built
from typeinf's own walk (`preorder` then `resolve`, about a third of the floor), instances and
unification; an inference that fused the walk with name resolution would lower it.

It has no rules, no dimension-set relations, no statements, no checks, no located errors, no
generalization of definitions, and converts no type to a public value. So typeinf's inference
costs more; on a program on which GT4Py's time is under 50× the floor's, 50× cannot come from
tuning the rest.
"""

from __future__ import annotations

from iterir.nodes import FunCall, FunctionDefinition, Lambda, Literal, Node, Sym, SymRef, Temporary
from iterir.symbols import resolve
from iterir.traversal import child_positions, preorder
from typeinf.core.terms import Cell, Mismatch, Sort, var
from typeinf.core.unify import unify
from typeinf.gtir import terms as g
from typeinf.gtir.expressions import SCALARS
from typeinf.gtir.fieldops import rule_comparison
from typeinf.gtir.rules import RULES
from typeinf.gtir.signatures import SIGNATURES, call_plan


def floor(root: Node) -> int:
    """Walk, resolve, and the variables and unifications of the module's text; returns how many
    unifications ended early.

    Every variable is of sort dtype, as GTIR's types are (`typeinf.gtir.terms`). Without the
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
            types[position] = SCALARS.get(node.type) or var(Sort.DTYPE)
        elif type(node) is Lambda:
            children = child_positions(sizes, position, len(node.params) + 1)
            params = [types[child] or var(Sort.DTYPE) for child in children[:-1]]
            types[position] = g.function(params, types[children[-1]] or var(Sort.DTYPE))
        elif type(node) is FunCall:
            children = child_positions(sizes, position, len(node.args) + 1)
            callee = types[position + 1]
            try:
                if callee is None:  # a builtin, or a builtin applied (`as_fieldop(f, d)(…)`)
                    name = node.fun.id if type(node.fun) is SymRef else None
                    plan = call_plan(name) if name in _INSTANCES else None
                    if plan is None or plan[1] != len(node.args):
                        continue  # typed by a rule: counted as nothing
                    parts = plan[0]().args
                    for param, child in zip(parts, children[1:], strict=False):
                        arg = types[child]
                        if arg is not None:
                            unify(param, arg)
                    types[position] = parts[-1]
                    continue
                args = [types[child] or var(Sort.DTYPE) for child in children[1:]]
                types[position] = result = var(Sort.DTYPE)
                unify(callee, g.function(args, result))
            except Mismatch:
                early += 1
    return early


#: The builtins whose calls the floor types by an instance of their signature: all but the
#: comparisons, which inference types by a rule where they compare domains.
_INSTANCES = frozenset(SIGNATURES) - {
    name for name, rule in RULES.items() if rule.called is rule_comparison
}

#: The nodes that declare a name.
_DECLARATIONS = frozenset((Sym, FunctionDefinition, Temporary))
