"""The engine's words: what the engine itself finds wrong, in both dialects alike (recursion, an
infinite type, a type too large, a typing rule that gave no reason, the two runs disagreeing, a
builtin signed twice, a broken installation), and what the core's public side refuses (a public
function's argument, a constructor registered wrongly, a public value that cannot be converted
to cells), made here from what it found. The modules that find it raise their error with these
words, so a message is made only when an error is. It imports nothing of typeinf's, so that any
module of the engine, the solver's included, and the public values (`typeinf.types`) may use
it; what the dialects' reports say alike (the reasons, a call's arity, a name declared twice,
the rendering) is `typeinf.core.diagnostics`', which the solver does not reach; an offset
provider's format, `typeinf.core.offset_messages`'.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from iterir.display import value_text


# -- the program (order, solve, sizes) ------------------------------------------------------------
def recursion(cycle: list[str]) -> str:
    """Definitions that reach themselves: `cycle` names them, the first one again last."""
    return "recursion is not allowed: " + " → ".join(cycle)


def infinite_type(shown: str) -> str:
    """A type that would contain itself, `shown` in the dialect's notation (`…`: itself)."""
    return f"this would need an infinite type (`{shown}`, where `…` is the type itself)"


#: A type that would contain itself where no node's type shows it.
INFINITE_PROGRAM = "the program would need an infinite type"


def type_too_large(name: str | None, most: int) -> str:
    """The type of the definition `name` (None: one without a name) has more than `most` cells."""
    named = "this definition" if name is None else name
    return (
        f"the type of `{named}` is too large: its graph has more than "
        f"{most:,} cells (a definition that uses another one several times can double its type; "
        "see the limits in docs/rules.md)"
    )


# -- the reason of a constraint whose rule gives none (constraints.rule_of) ----------------------
def rule_of_callee(name: str) -> str:
    """The typing rule of a call of, or a reference to, `name`."""
    return f"`{name}`"


def rule_of_kind(kind: str) -> str:
    """The typing rule of a node of the class `kind`."""
    return f"a {kind}"


# -- our own faults (errors, schemes, the signature files, packaged) ------------------------------
def runs_disagree(found: str, other: str, error: object) -> str:
    """The `found` run of inference found `error`, which the `other` run did not find."""
    return f"the {found} run of inference found a type error that the {other} run did not: {error}"


def two_signatures(file: str, name: str) -> str:
    """The signature file `file` (either dialect's: `signature_entries` reads both) gives the
    builtin `name` a second signature."""
    return f"{file}: builtin {name!r} has two signatures"


#: A cyclic type to generalize: `check_finite` reports an infinite type before.
CYCLIC_SCHEME = "cannot generalize a cyclic type"


def no_data_files(pattern: str, candidates: Sequence[object]) -> str:
    """None of the folders `candidates` holds files matching `pattern`."""
    return f"no {pattern} files in {' or '.join(map(str, candidates))}"


# -- the public functions' arguments (arguments) -------------------------------------------------
def must_be(what: str, expected: str, value: object) -> str:
    """`what` (an argument, a field) is `value`, not `expected`, which says what it must be."""
    return f"{what} must be {expected}, not {value_text(value)}"


def wrong_argument(function: str, argument: str, expected: str, value: object) -> str:
    """The public function `function` was given `value` for `argument`, not `expected`."""
    return f"{function}: {must_be(argument, expected, value)}"


#: What an argument must be.
A_TYPE = "a type (as `infer` or `parse_type` give)"
A_STR = "a str"
A_FLAG = "True or False"
A_PROVIDER = "None or a mapping of offset tags"
A_COUNT = "None or a positive int"


# -- constructors added from outside the core (constructors.register_constructor) ----------------
def no_constant(name: str) -> str:
    """The constructor `name` takes arguments or has a `meet` rule, so it has no constant."""
    return f"{name!r} takes arguments or has a `meet` rule: no constant"


# -- cells ⇄ the public values (convert, typeinf.types) ------------------------------------------
def unnamed_family(members: Collection[str]) -> str:
    """A dtype family without a name (a fault of ours: families meet only into named ones)."""
    return f"a family without a name: {sorted(members)}"


def not_a_definition(value: object) -> str:
    return f"not a definition: {value!r}"


def relation_not_ours(value: object) -> str:
    """A relation value that `typeinf` did not make, so that it has no template to print by."""
    return f"{value!r} was not made by typeinf: it has no rule to print by"


def not_a_type_value(kind: str) -> str:
    """A value of the class `kind` where a type value was expected."""
    return f"expected a type of typeinf.types, not {kind}"


def misplaced(place: str, expected: str, found: str) -> str:
    """The part at `place` (its fields from the top, `.params[0].kind`; empty for the whole
    type) is `found` (as the words below say it), where a `expected` (a sort) must stand."""
    return f"{place or 'the type'}: expected a {expected}, found {found}"


#: What `misplaced` found.
AN_EMPTY_TUPLE = "an empty tuple"
A_FUNCTION = "a function"
A_TUPLE = "a tuple"


def a_value_of(kind: str) -> str:
    """A value of the class `kind`."""
    return f"a {kind}"


def a_variable_of_sort(sort: str) -> str:
    return f"a variable of sort {sort!r}"


def a_variable_of_family(family: str) -> str:
    """A dtype variable of a family that does not exist."""
    return f"a variable of the unknown family {family!r}"


def variable_changed(number: int) -> str:
    """The variable `number`, used again with another sort or family."""
    return f"variable {number} of another sort or family than before"


def unregistered(name: str) -> str:
    """`Constructed(name, …)` of a name that names no registered constructor."""
    return f"`{name}`, which is no registered constructor"


def constructor_of_sort(name: str, sort: str) -> str:
    return f"`{name}` (a {sort})"


def constructor_with(name: str, count: int) -> str:
    """The constructor `name` given `count` arguments, which is not its number."""
    return f"`{name}` of {count} arguments"


def constructor_without(name: str) -> str:
    """The constructor `name`, which takes arguments, given none."""
    return f"`{name}` of no arguments"


def no_notation(name: str) -> str:
    """A value class of no dialect: none says how its values print."""
    return f"{name} values have no notation: a dialect's value class says how they print"


def unknown_format(spec: str) -> str:
    """`format(type_, spec)` of a spec that is none of the type values'."""
    return f"unknown format {spec!r} for a type: use '', 'compact' or 'located'"


def fill_failed(fill: object, error: object) -> str:
    """`fill`, filling a value made on demand, raised the AttributeError `error`."""
    return f"{fill!r} failed: {error}"


def not_filled(fill: object) -> str:
    """`fill` returned without filling the value made on demand (a fault of ours)."""
    return f"{fill!r} did not fill its value"
