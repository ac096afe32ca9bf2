"""How each GTIR builtin that a signature cannot say is typed: one explicit table, `RULES`, as
the fencil IR's (`typeinf.fencil.rules.RULES`). The others are typed by their signature
(`typeinf.gtir.signatures`); a builtin with both (`if_`) is typed by its rule, which may fall
back on the signature.

Each rule is a function of the module of its construct (`fieldops`, `iterators`, `tuples`) and
the entry says where it applies: to a call of the builtin (`deref(it)`), to the call that
applies a call of it (`as_fieldop(stencil)(inputs…)`, typed as a whole), or to the builtin
named as a value (`as_fieldop(deref, …)`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from iterir import FunCall
from typeinf.core.terms import Cell
from typeinf.gtir import fieldops, iterators, tuples

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference

#: A rule of a call: the call's type, from the inference, the call's position, its node (the
#: applied call, for a rule where it is applied) and its arguments' positions.
CallRule: TypeAlias = Callable[["GtirInference", int, FunCall, list[int]], "Cell | None"]


class Rule(NamedTuple):
    """How one builtin is typed: where its rule applies."""

    #: Its call's type (`deref(it)`); None: its call has none of its own, the call that applies
    #: it is typed by `applied`.
    called: CallRule | None = None
    #: The type of the call that applies a call of it (`as_fieldop(stencil)(inputs…)`, from
    #: the inner call's node), where its call has no type of its own (`called` says None).
    applied: CallRule | None = None
    #: Its type where it is named as a value (`as_fieldop(deref, …)`), from the inference and
    #: the name's position; None: it is no value.
    value: Callable[[GtirInference, int], Cell] | None = None


#: Each GTIR builtin typed by a rule, by name (`tests/test_gtir_typing.py` checks that every
#: builtin has a rule or a signature).
RULES: dict[str, Rule] = {
    # Fields and domains.
    "as_fieldop": Rule(applied=fieldops.as_fieldop),
    "lift": Rule(applied=fieldops.lift),
    "concat_where": Rule(fieldops.rule_concat_where),
    "broadcast": Rule(fieldops.rule_broadcast),
    "cartesian_domain": Rule(fieldops.rule_cartesian_domain),
    "unstructured_domain": Rule(fieldops.rule_cartesian_domain),
    "index": Rule(fieldops.rule_index),
    "scan": Rule(fieldops.rule_scan),
    # Comparisons and `and_`/`or_`/`xor_`: a `concat_where` condition given a dimension or a
    # domain, else by their signature.
    **dict.fromkeys(
        ("eq", "not_eq", "less", "greater", "less_equal", "greater_equal", "and_", "or_", "xor_"),
        Rule(fieldops.rule_comparison),
    ),
    # Iterators and lists.
    "deref": Rule(iterators.rule_deref, value=iterators.deref_value),
    "shift": Rule(iterators.rule_shift, iterators.shifted),
    "neighbors": Rule(iterators.rule_neighbors),
    "reduce": Rule(applied=iterators.reduce),
    "list_get": Rule(iterators.rule_list_get),
    "map_list": Rule(applied=iterators.map_list),
    # Tuples, conditionals and casts.
    "make_tuple": Rule(tuples.rule_make_tuple),
    "tuple_get": Rule(tuples.rule_tuple_get),
    "map_tuple": Rule(applied=tuples.map_tuple),
    "tree_map_tuple": Rule(applied=tuples.map_tuple),
    "if_": Rule(tuples.rule_if_),
    "cast_": Rule(tuples.rule_cast_),
}
