"""The fencil IR's type errors in words: a constraint that fails (`unsatisfiable`), in the stencil
writer's terms where the clash has a name (a value dereferenced, a stencil of the wrong arity, a
dtype outside what a builtin takes); a relation that cannot hold (`cannot_hold`); a stencil
input used as a value (`input_used_as_value`); a free name (`unbound`); a builtin of the
grammar or a type name used where its rule does not apply, and an index or offset tag its rule
cannot take (the rules' and the collector's, from what they found); a node that is not the
fencil IR's. `conflicts` gathers what they say, from the solver's failure (`FencilSolver`);
what both dialects say alike (the reasons, a call's arity, a name declared twice) is
`typeinf.core.diagnostics`', what the engine says (recursion, an infinite type, a type too
large) `typeinf.core.messages`'.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable

from iterir import FunCall, Literal, Node, OffsetLiteral, SymRef
from typeinf.core.constraints import Argument, ClosureStencil
from typeinf.core.constructors import fixed_params
from typeinf.core.diagnostics import MAX_REASONS, callee_text, more_reasons, ordinal, reason_text
from typeinf.core.errors import (
    GrammarBuiltinError,
    MalformedIRError,
    OffsetProviderError,
    UnboundSymbolError,
    UnsatisfiableConstraintError,
)
from typeinf.core.terms import FAMILY_NAMES, Why, root_of
from typeinf.fencil.conflict_records import Conflict, InputUsedAsValue, Note, RelationConflict
from typeinf.fencil.constructors import VAL
from typeinf.fencil.signatures import BUILTINS

#: Why two types clash, in words.
WHY: dict[Why, str] = {
    "constants": "different constants",
    "sorts": "different sorts",
    "families": "incompatible families",
    "family": "outside the family",
    "items": "different numbers of items",
    "constructors": "different constructors",
    "unknown lengths": "a row of values against a row of lists of unknown length",
}


def _at_most(notes: list[tuple[str, Node]]) -> list[tuple[str, Node]]:
    """`MAX_REASONS` notes, and then, if there are more, one that says how many, at the next."""
    if len(notes) <= MAX_REASONS:
        return notes
    rest = len(notes) - MAX_REASONS
    return [*notes[:MAX_REASONS], (f"{more_reasons(rest)}, the next", notes[MAX_REASONS][1])]


def _note(note: Note) -> tuple[str, Node]:
    because = reason_text(note.reason)
    if note.about == "expected":
        return f"`{note.printed}` is expected because of {because}", note.node
    if note.about == "callee":
        assert note.callee is not None  # a callee's note names it
        return f"{callee_text(note.callee)} is `{note.printed}` because of {because}", note.node
    if note.about == "actual":
        return f"this is `{note.printed}` because of {because}", note.node
    return f"`{note.printed}` comes from {because}", note.node


def cannot_hold(conflict: RelationConflict) -> UnsatisfiableConstraintError:
    """The error a relation that can never hold is, in words: `a relation of `larger` cannot
    hold: `T₂ = max(T₀, T₁)` with T₀ = bool, T₁ = int32 (`bool` has no place in the order)`."""
    said = reason_text(conflict.reason)
    detail = (
        f"`{conflict.shown}`"
        + (f" with {conflict.values}" if conflict.values else "")
        + f" ({conflict.why})"
    )
    notes: dict[int, tuple[str, Node]] = {}  # one note per node, the first
    for name, value, reason, at in conflict.notes:
        notes.setdefault(id(at), (f"{name} is `{value}` because of {reason_text(reason)}", at))
    return UnsatisfiableConstraintError(
        f"{said} cannot hold: {detail}",
        conflict.node,
        conflict.shown,
        conflict.values,
        summary=f"{said} cannot hold",
        details=[detail],
        notes=_at_most(list(notes.values())),
    )


def unsatisfiable(conflict: Conflict) -> UnsatisfiableConstraintError:
    """The error a constraint that cannot hold is, in words: in the stencil writer's terms where
    the clash has a name (a value dereferenced, a stencil of the wrong arity, a dtype outside
    what a builtin takes), else the two types and why they differ."""
    summary = f"type mismatch in {reason_text(conflict.reason)}"
    notes = [_note(note) for note in conflict.notes]
    if conflict.stencil_takes is not None:
        assert isinstance(conflict.reason, ClosureStencil)  # only its conflicts count inputs
        passes = conflict.reason.inputs
        summary = (
            f"the stencil takes {_count(conflict.stencil_takes, 'input')} but the closure "
            f"passes {passes}"
        )
        clash = ""
    elif _dereferences_a_value(conflict):
        summary = "a value is dereferenced: `·` (`deref`) reads the value an iterator points at"
        clash = ""
        origin = _became_a_value(conflict.node)
        if origin is not None:
            notes.insert(0, (origin, conflict.node))
    else:
        clash = _clash(conflict)
    detail = (
        f"expected `{conflict.expected}`, found `{conflict.actual}`"
        + clash
        + conflict.where.replace(" where", "; where", 1)
        + _hint(conflict)
    )
    return UnsatisfiableConstraintError(
        f"{summary}: {detail}",
        conflict.node,
        conflict.expected,
        conflict.actual,
        summary=summary,
        details=[detail],
        notes=_at_most(notes),
    )


def input_used_as_value(blamed: InputUsedAsValue) -> UnsatisfiableConstraintError:
    """A stencil input the closure passes as an iterator, used as a value: said at the use."""
    name = blamed.name
    summary = f"`{name}` is an iterator, used as a value in {reason_text(blamed.use)}"
    hint = f"did you mean `·{name}`?"
    passed = f"the closure passes an iterator as the stencil's {ordinal(blamed.index)} input"
    return UnsatisfiableConstraintError(
        f"{summary}: {hint}",
        blamed.node,
        "a value",
        "an iterator",
        summary=summary,
        details=[hint],
        notes=[(passed, blamed.stencil)],
    )


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


#: A family of dtypes, as what a builtin needs: `sqrt` needs a float.
_FAMILY_WORDS = {"float": "a float", "integer": "an integer", "numeric": "a number"}


def _family_words(family: frozenset[str]) -> str:
    name = FAMILY_NAMES.get(family)
    if name is not None:
        return _FAMILY_WORDS[name]
    return "one of " + ", ".join(f"`{member}`" for member in sorted(family))


def _clash(conflict: Conflict) -> str:
    """Why the clashing parts differ, after the two types: `; `float64` is not `int32``."""
    left, right, why = conflict.left, conflict.right, conflict.why
    if why == "constants":
        return (
            ""
            if (left, right) == (conflict.expected, conflict.actual)
            else f"; `{left}` is not `{right}`"
        )
    if why == "family" and conflict.families:
        family = conflict.families[0]
        reason = conflict.reason
        if isinstance(reason, Argument) and _parameter_family(reason) == family:
            return f"; {callee_text(reason.callee)} needs {_family_words(family)}, found `{right}`"
        return f"; `{left}` must be {_family_words(family)}, found `{right}`"
    if why == "families" and len(conflict.families) == 2:
        first, second = (_family_words(f) for f in conflict.families)
        return f"; no dtype is both {first} and {second}"
    differ = ""
    if {left, right} != {conflict.expected, conflict.actual}:
        differ = f"; `{left}` and `{right}` differ"
    return f"{differ} ({WHY[why]})"


def _hint(conflict: Conflict) -> str:
    """What the writer probably meant: `·x` for an iterator `x` where a value is expected."""
    node = conflict.node
    if (conflict.left, conflict.right) == ("Value", "Iterator") and isinstance(node, SymRef):
        return f"; did you mean `·{node.id}`?"
    return ""


def _parameter_family(reason: Argument) -> frozenset[str] | None:
    """The family the signature of a builtin restricts the dtype of its argument to (`sqrt`'s:
    `float`), if the callee is a builtin typed by a signature."""
    callee = reason.callee
    signature = BUILTINS.get(callee.id) if isinstance(callee, SymRef) else None
    type_ = signature.type if signature is not None else None
    params = fixed_params(type_) if type_ is not None else None
    if params is None or reason.index >= len(params):
        return None
    param = root_of(params[reason.index])
    return root_of(param.args[1]).family if param.ctor is VAL else None


def _dereferences_a_value(conflict: Conflict) -> bool:
    """The argument of `deref` is a value where an iterator is expected."""
    reason = conflict.reason
    return (
        isinstance(reason, Argument)
        and isinstance(reason.callee, SymRef)
        and reason.callee.id == "deref"
        and (conflict.left, conflict.right) == ("Iterator", "Value")
    )


def _became_a_value(node: Node) -> str | None:
    """Where the value `node` stands for became one, when the node itself says it."""
    if isinstance(node, FunCall):
        return f"this is a value: what {callee_text(node.fun)} returns"
    if isinstance(node, Literal):
        return "this is a value: a literal"
    return None


def unbound(
    name: SymRef, suggestions: tuple[str, ...], allowed: bool, in_definition: bool
) -> UnboundSymbolError:
    """The error a free name is: not defined (with the nearest known names, if any, how to allow
    it as an unknown, and, `in_definition` inferred on its own, how to give it its fencil), or,
    `allowed`, used where an unknown cannot be (a fencil's function definition, whose type is
    generalized)."""
    quoted = f"`{name.id}`"
    if allowed:
        return UnboundSymbolError(
            f"{quoted} is allowed to be free, but a function definition of a fencil cannot use an "
            f"unknown (its type is generalized, the unknown's would not be): make {quoted} a "
            "parameter",
            name,
        )
    message = f"{quoted} is not defined: not a parameter, a function definition or a builtin"
    if suggestions:
        message += f"; did you mean {' or '.join(f'`{s}`' for s in suggestions)}?"
    details = [
        f"if {quoted} is meant to be an unknown, allow it: `--allow-free {shlex.quote(name.id)}` "
        f"(in Python: `allow_free={{{name.id!r}}}`)"
    ]
    if in_definition:
        details.append(
            "if it is a function definition of the same fencil, infer this one within it: "
            "`infer(definition, within=fencil)`"
        )
    return UnboundSymbolError(message, name, details=details)


# -- the grammar's builtins, used where their rules do not apply (rules, collect) -----------------
def unknown_literal(node: Literal) -> GrammarBuiltinError:
    return GrammarBuiltinError(f"unknown literal type `{node.type}`", node)


def not_a_value(name: SymRef, how: str) -> GrammarBuiltinError:
    """A grammar builtin (`how`: "rule") or a type name ("dtype") used as a value: it has no type
    of its own."""
    if how == "dtype":
        return GrammarBuiltinError(
            f"`{name.id}` is a type name: it can only be the second argument of `cast_`", name
        )
    return GrammarBuiltinError(
        f"`{name.id}` is part of the grammar: it can only be called, not used as a value", name
    )


def type_name_called(name: SymRef) -> GrammarBuiltinError:
    return GrammarBuiltinError(
        f"`{name.id}` is a type name, not a function: cast with `cast_(x, {name.id})`", name
    )


def neighbors_without_tag(tag: Node) -> GrammarBuiltinError:
    return GrammarBuiltinError(
        "the first argument of `neighbors` must be an offset tag, such as `V2Eₒ`", tag
    )


def cast_without_type_name(target: Node) -> GrammarBuiltinError:
    return GrammarBuiltinError(
        "the second argument of `cast_` must be a type name, such as `float64`", target
    )


def tuple_index_not_literal(index: Node) -> GrammarBuiltinError:
    return GrammarBuiltinError(
        "the index of `tuple_get` must be a non-negative integer literal", index
    )


def tuple_index_too_large(index: Node, digits: str, most: int) -> GrammarBuiltinError:
    """The index `digits` of `tuple_get` (without leading zeros) is `most` or more: the longest
    tuple supported has `most` elements. A long index is shown by its ends."""
    shown = digits if len(digits) <= 20 else f"{digits[:8]}…{digits[-8:]} ({len(digits):,} digits)"
    return GrammarBuiltinError(
        f"`tuple_get` takes element {shown} of a tuple, but tuples of more than {most:,} "
        "elements are not supported",
        index,
    )


def tuple_index_past_end(index: int, length: int, node: Node) -> UnsatisfiableConstraintError:
    """`tuple_get` takes element `index` of the tuple `node`, known by now to have `length`."""
    return UnsatisfiableConstraintError(
        f"`tuple_get` takes element {index} of a tuple of {_count(length, 'element')}",
        node,
        f"at least {index + 1} elements",
        str(length),
    )


def offset_not_provided(tag: OffsetLiteral, provided: Iterable[str]) -> OffsetProviderError:
    """An offset tag that the offset provider, which has the tags `provided`, does not have."""
    known = ", ".join(sorted(provided)) or "none"
    return OffsetProviderError(
        f"offset `{tag.value}` is not in the offset provider (it has: {known})", tag
    )


def neighbors_of_a_dimension(tag: OffsetLiteral, dimension: str) -> OffsetProviderError:
    """`neighbors` along `tag`, which the offset provider says is the dimension `dimension`."""
    return OffsetProviderError(
        f"`neighbors` needs a connectivity, but `{tag.value}` is the dimension {dimension}", tag
    )


# -- what is not the fencil IR (collect) ----------------------------------------------------------
def not_an_ir_node(root: object) -> MalformedIRError:
    return MalformedIRError(f"a {type(root).__name__} is not an IR node", None)


def not_the_fencil_ir(node: Node) -> MalformedIRError:
    """A node of another dialect (GTIR's), which iterir reads but this collector does not type."""
    return MalformedIRError(
        f"a {type(node).__name__} cannot be typed: typeinf types the fencil IR", node
    )
