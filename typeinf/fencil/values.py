"""The fencil IR's public type values: what `typeinf.infer`, `infer_all`, `check` and
`parse_type` return for the fencil IR (docs/api.md), by their public names `typeinf.types`.

Inference works on union-find cells (`typeinf.core.terms`), whose fields mean something only after
`find`; a compiler pass reads these values instead: immutable, resolved, comparable, hashable,
and matched with `match` (the machinery every dialect's values share is `typeinf.core.values`').
`typeinf.fencil.convert` turns cells into values and back (for printing, `is_instance` and
`substitution`), so the notation has one printer (`typeinf.fencil.notation`).

A constant is a plain Python value where it stands: a kind is `"Iterator"` or `"Value"`, a size
`"Column"` or `"Scalar"`, a primitive dtype its name (`"float64"`, `"axis"`), a location its
name (`"Vertex"`, `"ANYWHERE"`), a list length an `int`, a skip flag a `bool`. Anything not
known is a `Var`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from typeinf.core.values import OnDemand, Type, Var, shows_locations, value_class

if TYPE_CHECKING:
    from typeinf.core import relations
    from typeinf.core.terms import Cell


class FencilValue(Type):
    """Any of the fencil IR's values: `str(t)` is the compact notation, `format(t, "located")`
    the located one (both as `typeinf.fencil.notation` prints the same type, variables numbered
    afresh from 0)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        from typeinf.fencil.convert import pformat  # conversion depends on the values

        return pformat(self, locations=shows_locations(spec))


@value_class
class Val(FencilValue):
    """A value or an iterator: `kind` is `"Iterator"`, `"Value"` or a kind `Var` (`ItOrVal`);
    `size` is `"Column"`, `"Scalar"` or a `Var`; the locations are names or `Var`s."""

    kind: str | Var
    dtype: Dtype
    size: str | Var
    current_loc: str | Var = "ANYWHERE"
    defined_loc: str | Var = "ANYWHERE"


@value_class
class Fun(FencilValue):
    """A function: its parameters' types and its result; `tail` is the rest of a parameter list
    not known to end (`None` when it ends): a `Var` or a row of values."""

    params: tuple[TypeValue, ...]
    result: TypeValue
    tail: Tail = None


@value_class
class Tuple(FencilValue):
    """A tuple: of types (`make_tuple` of iterators and functions), of dtypes (the dtype of a
    tuple value, `(float64, int32)ᶜ`) or of locations (a row's defined locations); `tail` is the
    rest of a tuple not known to end (`(T₁, T₂):T₃`), `None` when it ends."""

    items: tuple[Any, ...]
    tail: Tail = None


@value_class
class List(FencilValue):
    """The dtype of a list of neighbours: element dtype, length (`int` or `Var`), skip flag
    (`bool` or `Var`)."""

    dtype: Dtype
    length: int | Var
    skip: bool | Var


@value_class
class ValRow(FencilValue):
    """A row of values: any number of arguments of one shape (`(It[T¹], …)₀`), each with its own
    dtype (`dtypes`) and defined location (`defined_locs`): a `Tuple` of those known and a tail,
    or a row `Var`."""

    kind: str | Var
    dtypes: Tuple | Var
    size: str | Var
    current_loc: str | Var
    defined_locs: Tuple | Var


@value_class
class ListRow(FencilValue):
    """A row of lists (`(L[…₂, T₃, T₄]¹, …)`): their element dtypes, shared length, skip flag
    and size."""

    kind: str | Var
    dtypes: Tuple | Var
    length: int | Var
    skip: bool | Var
    size: str | Var


@value_class
class Constructed(FencilValue):
    """A structure of a constructor added by `typeinf.fencil.constructors.register_constructor`
    (`Pair[T₀, T₂]`): its name, arguments, and label (a labelled constant's)."""

    name: str
    args: tuple[Any, ...]
    label: object = None


# -- programs ---------------------------------------------------------------------------------------
@value_class
class Relation(FencilValue):
    """A type relation a definition's type is subject to (`where T₃ = max(T₀, T₂)`): the name
    of its rule (the class that implements it) and its arguments."""

    rule: str
    args: tuple[Any, ...]
    #: The rule itself, over placeholder cells that `args` stand for, in order (`convert` sets
    #: it): printing a relation asks its rule. Not a part of the value.
    _template: tuple[relations.Relation, tuple[Cell, ...]] | None = None


@value_class
class Closure(FencilValue):
    """A stencil closure: `inputs ⇒ output`."""

    inputs: tuple[TypeValue, ...]
    output: TypeValue


@value_class
class Definition(FencilValue):
    """A function definition `name :: type`, and the relations its type is subject to."""

    name: str
    type: TypeValue
    relations: tuple[Relation, ...] = ()


@value_class
class Fencil(OnDemand, FencilValue):
    """A fencil: its function definitions' types, then its name and its parameters' types."""

    name: str
    definitions: tuple[Definition, ...]
    params: tuple[TypeValue, ...]


#: What stands where a type is expected (an argument, a result, a node's type).
TypeValue = Val | Fun | Tuple | Var | Constructed
#: A dtype: a primitive's name, a tuple of dtypes, a list, a variable, or a registered one.
Dtype = str | Tuple | List | Var | Constructed
#: The rest of a parameter list or tuple not known to end.
Tail = Var | ValRow | ListRow | None
#: What `infer` returns: a node's type, or a program-level type.
Inferred = TypeValue | Closure | Definition | Fencil
