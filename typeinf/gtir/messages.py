"""GTIR's words: every message GTIR's rules, relations, conversions and collector raise, made
here from the data the rule found (names, kinds, types already in the notation). Only this
module turns what went wrong into words (the reader's syntax errors aside, which say where in
the text of a type the reader stopped); the rules raise the error this module's functions and
constants say, so a message is made only when an error is. It imports nothing of GTIR's, so
that the terms, the lowest of GTIR's modules, may use it.
"""

from __future__ import annotations

from typing import Any

from typeinf.core.constraints import Reason
from typeinf.core.diagnostics import reason_text


def _listed(names: list[str]) -> str:
    """`IDim, JDim and KDim`."""
    return ", ".join(names[:-1]) + " and " + names[-1]


# -- dimension sets (terms) -------------------------------------------------------------------
def dimension_without_kind(name: str, kind: str) -> str:
    return f"dimension {name} has no kind of GT4Py's: {kind!r}"


def two_local_dimensions(names: list[str]) -> str:
    return f"a set holds one local dimension at most, not {_listed(names)}"


def dimension_of_two_kinds(name: str) -> str:
    return f"dimension {name} is in the set with two kinds"


def staggered_twin(name: str, twin: str) -> str:
    return f"{name} and its staggered twin {twin} in one set"


def unknown_dimension_kind(kind: str) -> str:
    return f"unknown dimension kind {kind!r}"


def unknown_scalar_kind(kind: str) -> str:
    return f"unknown scalar kind {kind!r}"


# -- public values (values) -------------------------------------------------------------------
CONTAINS_ITSELF = "a type that contains itself has no value"
#: What a part of a value must be, for `not_a`.
SCALAR_TYPE, DIMENSION_SET, DIMENSION = "a scalar type", "a canonical dimension set", "a dimension"


def unknown_format(spec: str) -> str:
    return f"unknown format {spec!r} for a GTIR type: use '' or 'gtir'"


def structure_without_value(constructor: str) -> str:
    return f"not a GTIR type: a structure of {constructor}"


def not_a_gtir_type(value: Any) -> str:
    return f"not a GTIR type: {value!r}"


def not_a(what: str, value: Any) -> str:
    return f"not {what}: {value!r}"


def no_variable_of_sort(sort: str) -> str:
    return f"a GTIR type has no variable of sort {sort!r}"


def variable_out_of_place(sort: str, where: str) -> str:
    return f"a variable of sort {sort} stands where a {where} stands"


def no_family(sort: str, family: str) -> str:
    return f"a variable of sort {sort} has no family {family!r}"


def variable_of_two_sorts(number: int, one: str, other: str) -> str:
    return f"variable {number} stands for a {one} and a {other}"


# -- GT4Py's structured types (structured) ----------------------------------------------------
KEYWORD_PARAMETERS = "a function with keyword parameters has no GTIR term yet"
OPEN_TUPLE = "GT4Py has no form for a tuple not known to end"
UNKNOWN_SET = "GT4Py has no form for an unknown set of dimensions here"
UNKNOWN_DIMENSION = "GT4Py has no form for an unknown dimension"


def nested_too_deep(depth: int) -> str:
    return f"a type nested more than {depth} levels deep"


def scalar_with_shape(shape: list[int]) -> str:
    return f"a scalar of shape {shape} has no GTIR term yet"


def offset_without_term(value: Any) -> str:
    return f"an offset of {value!r} has no GTIR term"


def types_no_expression(kind: str) -> str:
    return f"{kind} has no GTIR term (it types no expression)"


def not_canonical(ordered: list[str]) -> str:
    return f"dimensions not in GT4Py's canonical order ({', '.join(ordered)})"


def at_path(path: str, what: str) -> str:
    """What GT4Py's structured form cannot say, at its `path` in GT4Py's fields."""
    return f"{path}: {what}"


def family_without_form(family: str) -> str:
    return f"GT4Py has no form for a type of the family {family}"


def sort_without_form(sort: str) -> str:
    return f"GT4Py has no form for a variable of sort {sort}"


def constructor_without_form(constructor: str) -> str:
    return f"GT4Py's structured form has no {constructor} type"


# -- the collector and its rules (collect, expressions, calls, fieldops, iterators, tuples) --
NOT_A_VALUE = "this builtin or type name is not a value here"
AS_FIELDOP_ARGUMENTS = "`as_fieldop` takes a stencil and a domain"
DOMAIN_OPERATORS = "domains are combined with `and_`, `or_` and `xor_` only"
BROADCAST_AXES = "`broadcast` takes a tuple of axes, `{IDimₕ, KDimᵥ}`"
SHIFT_PAIRS = "`shift` takes offsets and amounts in pairs"
OFFSET_NAME = "an offset of `shift` must be an offset's name"
NEIGHBORS_CONNECTIVITY = "the first argument of `neighbors` is a connectivity"
TUPLE_GET_INDEX = "the index of `tuple_get` must be an integer literal"
CAST_TYPE_NAME = "the second argument of `cast_` must be a type name"


def mismatch(expected: str, found: str, difference: str | None) -> str:
    return f"type mismatch: expected `{expected}`, found `{found}`" + (
        "" if difference is None else f": {difference}"
    )


def comes_from(shown: str, reason: Reason) -> str:
    """A note: what gave a type of a mismatch (`shown`) its type."""
    return f"`{shown}` comes from {reason_text(reason)}"


def cannot_hold(shown: str, why: str) -> str:
    return f"`{shown}` cannot hold: {why}"


def cannot_type_here(kind: str) -> str:
    return f"a {kind} cannot be typed here"


def builtin_not_typed(name: str) -> str:
    return f"builtin `{name}` is not typed yet on GTIR"


def builtin_not_a_value(name: str) -> str:
    return f"builtin `{name}` is not typed yet on GTIR as a value"


def written_mismatch(actual: str, expected: str) -> str:
    return f"the expression written is `{actual}`, its target `{expected}`"


def if_condition(actual: str) -> str:
    return f"the condition of `if` must be `bool`, not `{actual}`"


def builtin_takes(name: str, expected: str, actual: str) -> str:
    return f"`{name}` takes `{expected}`, not `{actual}`"


def unreadable_type(error: Exception) -> str:
    return f"its type cannot be read: {error}"


def temporary_untyped(name: str) -> str:
    return f"temporary `{name}` needs a domain and a dtype to be typed"


def undefined(name: str) -> str:
    return f"`{name}` is not defined (give it a type, or allow it to be free)"


def literal_untyped(type_name: str) -> str:
    return f"a literal of type {type_name!r} cannot be typed"


def not_dimensions(error: Exception) -> str:
    return f"not a set of dimensions: {error}"


def not_a_domain(error: Exception) -> str:
    return f"not a domain: {error}"


def unknown_offset(tag: str, provided: bool) -> str:
    """An offset the offset provider, or its absence (`provided` false), does not name."""
    given = "the offset provider does not name it" if provided else "no offset provider was given"
    return f"offset `{tag}` is unknown: {given}"


def not_a_connectivity(tag: str) -> str:
    return f"offset `{tag}` is not a connectivity"


def index_out_of_range(index: str, found: str, length: int) -> str:
    return (
        f"tuple index {index} is out of range: `{found}` has {length} element{'s' * (length != 1)}"
    )


def takes_one_tuple(name: str) -> str:
    return f"`{name}(f)` takes one tuple"


# -- relations (relations) --------------------------------------------------------------------
#: The rule the fast run names as its relations' reason (`runs`), which no message reads.
A_RELATION = "a relation"
MAPS_OVER_A_TUPLE = "`map_tuple` and `tree_map_tuple` map over a tuple"
FIELDOP_INPUT = "an input of `as_fieldop` is a field, a scalar or a tuple of them"
SPREAD_KINDS = "only fields, scalars and tuples of them alike are spread"
TUPLE_LENGTHS = "tuples of different lengths"
CAST_OPERAND = "`cast_` converts a scalar"
INDEX_KIND = "an index is an integer or an integer offset"


def not_within(missing: str, outer: str) -> str:
    """Dimensions (`missing`, in the notation) not in a set (`outer`) that must hold them."""
    return f"{missing} not in {outer}"


def shift_from(source: str, positions: str) -> str:
    return f"a shift from {source} applies to an iterator at {positions}"


def set_difference(extra: list[str], missing: list[str]) -> str:
    """How two dimension sets differ, by the dimensions (in the notation) one has that the
    expected one lacks, and those it lacks."""
    words = [
        f"{', '.join(names)} {'is' if len(names) == 1 else 'are'} {what}"
        for names, what in ((extra, "extra"), (missing, "missing"))
        if names
    ]
    return " and ".join(words) if words else "the same dimensions in another order"
