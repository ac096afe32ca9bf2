"""GTIR's types as terms (`typeinf.gtir.terms`): printed (`typeinf.gtir.notation`), read back
(`typeinf.gtir.reader`), as public values (`typeinf.gtir.values`), and converted to and from
GT4Py's structured form (`typeinf.gtir.structured`), on every type of the samples and on generated ones; and every GTIR
constructor through the core's unification, schemes, instantiation and `is_instance`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iterir import gtir_types as gt
from tests.test_constructors import _constructors
from tests.test_gtir_properties import dimensions, gtir_types, scalar_kinds
from tests.test_gtir_samples import SAMPLES
from typeinf.core.codegen import compiled
from typeinf.core.instance import is_instance
from typeinf.core.schemes import Scheme
from typeinf.core.terms import Cell, Mismatch, Sort, find, var
from typeinf.core.unify import unify
from typeinf.fencil import convert
from typeinf.fencil.reader import TypeSyntaxError
from typeinf.gtir.notation import pformat_gtir, pformat_gtir_all, to_ascii_gtir
from typeinf.gtir.reader import parse_gtir_type
from typeinf.gtir.structured import (
    NotStructured,
    from_gt4py,
    to_gt4py,
    value_from_gt4py,
    value_to_gt4py,
)
from typeinf.gtir.terms import (
    GTIR_CONSTRUCTORS,
    DimensionSetError,
    canonical,
    dims,
    list_of,
    offset_amount,
    scalar,
    tuple_of,
)
from typeinf.gtir.values import (
    Field,
    Function,
    It,
    List,
    OffsetAmount,
    Tuple,
    Var,
    to_cell,
    to_value,
)

IDIM, JDIM = gt.Dimension("IDim"), gt.Dimension("JDim")
KDIM, V2E = gt.Dimension("KDim", "vertical"), gt.Dimension("V2E", "local")


def _sample_types() -> dict[str, str]:
    """Every distinct type GT4Py gave in the samples (but programs'): its JSON text → its str."""
    found: dict[str, str] = {}

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            if set(item) == {"str", "json"}:
                if item["json"]["t"] != "ProgramType":
                    found.setdefault(json.dumps(item["json"]), item["str"])
                return
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    for record in SAMPLES:
        walk(record.get("gt4py_types"))
    return found


SAMPLE_TYPES = _sample_types()


def _from_json(text: str) -> Any:
    return to_value(from_gt4py(gt.type_from_json(json.loads(text))))


def test_every_sample_type_converts_to_ours_and_back_equal() -> None:
    assert len(SAMPLE_TYPES) == 153
    for text in SAMPLE_TYPES:
        value = _from_json(text)
        assert gt.type_to_json(to_gt4py(to_cell(value))) == json.loads(text)
        assert str(to_value(parse_gtir_type(str(value)))) == str(value)


def test_sample_types_print_as_gt4py_str_but_for_the_listed_exceptions() -> None:
    """GT4Py's str is its notation for scalars, fields, tuples and functions of them: ours is
    the same but for `→` (GT4Py `->`) and the kind of a vertical or local dimension (`KDimᵥ`,
    which GT4Py's str leaves out). Iterators, lists, domains and `DeferredType` GT4Py shows by
    their repr: ours is the notation."""
    exact, marked, by_repr = 0, 0, 0
    for text, gt4py_str in SAMPLE_TYPES.items():
        ours = str(_from_json(text))
        if "Type(" in gt4py_str:  # a repr, not a notation
            by_repr += 1
            continue
        if ours == gt4py_str:
            exact += 1
            continue
        assert ours.replace("→", "->").replace("ᵥ", "").replace("ₗ", "") == gt4py_str
        marked += 1
    assert (exact, marked, by_repr) == (35, 66, 52)


def test_ground_types_print_as_gt4py_does() -> None:
    assert str(Field((IDIM, JDIM), "float64")) == "Field[[IDim, JDim], float64]"
    assert str(Tuple(("int32", Field((), "bool")))) == "tuple[int32, Field[[], bool]]"
    assert str(Function((Field((IDIM,), "int32"),), "int32")) == "(Field[[IDim], int32]) → int32"
    assert (
        str(Field((IDIM, KDIM), List("float64", V2E)))
        == "Field[[IDim, KDimᵥ], List[float64, V2Eₗ]]"
    )
    assert str(It((IDIM,), (JDIM,), OffsetAmount("int32"))) == "It[[IDim], [JDim], Offset[int32]]"


def test_values_match_and_compare() -> None:
    value = to_value(parse_gtir_type("(It[D₀, [IDim], T₁], Field[D₀, T₁]) → T₁ where T₁: float"))
    match value:
        case Function(
            params=(It(positions=Var(sort="dimension set") as d), Field(dims=e)), result=r
        ):
            assert d == e and r == Var("dtype", 1, "float")
        case _:
            pytest.fail(f"no match: {value!r}")
    renamed = to_value(parse_gtir_type("(It[D₅, [IDim], T₂], Field[D₅, T₂]) → T₂ where T₂: float"))
    assert renamed == value and hash(renamed) == hash(value)
    other = to_value(parse_gtir_type("(It[D₀, [IDim], T₁], Field[D₂, T₁]) → T₁ where T₁: float"))
    assert other != value and not other.alpha_eq(value)


def test_variables_print_in_gtir_notation_on_their_own() -> None:
    field = to_value(parse_gtir_type("Field[D₀, T₁] where T₁: float"))
    assert isinstance(field, Field)
    assert (str(field.dims), str(field.dtype)) == ("D₀", "T₀ where T₀: float")
    assert str(to_value(from_gt4py(gt.DeferredType()))) == "T₀"


# -- dimension sets ---------------------------------------------------------------------------
def test_sets_are_in_canonical_order() -> None:
    assert canonical([KDIM, V2E, JDIM, IDIM, JDIM]) == (IDIM, JDIM, V2E, KDIM)
    assert dims([KDIM, IDIM]) is dims([IDIM, KDIM])  # one constant: equal sets unify


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ([V2E, gt.Dimension("E2V", "local")], "one local dimension at most, not E2V and V2E"),
        ([IDIM, gt.Dimension("IDim", "vertical")], "IDim is in the set with two kinds"),
        ([IDIM, gt.Dimension("_StaggeredIDim")], "IDim and its staggered twin _StaggeredIDim"),
    ],
)
def test_what_makes_no_set_is_an_error(members: list[gt.Dimension], message: str) -> None:
    with pytest.raises(DimensionSetError, match=message):
        canonical(members)


# -- reading ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Field[[KDimᵥ, IDim], float64]", r"column 7 \(a set is written in GT4Py's order: IDim"),
        ("Field[[V2Eₗ, E2Vₗ], f64]", r"column 7 \(a set holds one local dimension at most"),
        ("Field[D₀, D₀]", r"column 11 \(D₀ stands where a type \(T…\) stands"),
        ("tuple[T₀, Field[T₀, T₁]]", r"column 17 \(T₀ stands where a dimension set \(D…\)"),
        ("tuple[T₀, List[T₁, T₀]]", r"column 20 \(variable 0 stands for a dtype and a dimension"),
        ("Foo[int32]", r"column 1 \(unknown type 'Foo'\)"),
        ("Field[[IDim], float64", r"at its end \(expected '\]'\)"),
        ("T₀ where T₀: real", "unknown family 'real'"),
        ("tuple[" * 70 + "]" * 70, "nested more than 64 levels deep"),
        ("T" + "9" * 5000, r"column 1 \(a number of 5000 digits\)"),
        ("int32 where T₁: float", r"column 13 \(T₁ is not in the type\)"),
        ("T₀ where T₀: float, T₀: integer", r"column 21 \(T₀ has a family already\)"),
        ("tuple[*T₀] where T₀: float", r"T₀ is a tuple's rest, which has no family"),
        ("Field[D₀, f64] where D₀: float", r"D₀ is a dimension set, which has no family"),
        ("Field[[IDim, IDim], f64]", r"column 14 \(IDim is written twice in the set\)"),
        ("Field[[IDim, KDimᵥ, IDim], f64]", r"column 21 \(IDim is written twice in the set\)"),
    ],
)
def test_reading_errors_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(TypeSyntaxError, match=message):
        parse_gtir_type(text)


def test_a_long_text_is_echoed_around_the_error_not_whole() -> None:
    text = "tuple[" + "int32, " * 2000 + "Foo]"
    with pytest.raises(TypeSyntaxError) as raised:
        parse_gtir_type(text)
    message = str(raised.value)
    assert "unknown type 'Foo'" in message and "Foo]" in message
    assert len(message) < 400 and f"of {len(text)})" in message


@pytest.mark.parametrize(
    ("wrap", "gt4py_wrap"),
    [
        (lambda t: f"tuple[{t}]", lambda t: gt.TupleType((t,))),
        (lambda t: f"tuple[int32, {t}]", lambda t: gt.TupleType((gt.ScalarType("int32"), t))),
        (lambda t: f"Field[[], {t}]", lambda t: gt.FieldType((), t)),
        (lambda t: f"() → {t}", lambda t: gt.FunctionType((), (), (), t)),
        (
            lambda t: f"({t}) → int32",
            lambda t: gt.FunctionType((t,), (), (), gt.ScalarType("int32")),
        ),
        (lambda t: f"List[{t}]", lambda t: gt.ListType(t, None)),
    ],
)
def test_every_way_in_and_out_takes_exactly_max_depth_levels(wrap: Any, gt4py_wrap: Any) -> None:
    """A type nested `MAX_DEPTH` levels reads, prints, converts both ways and reads back; one
    level more is refused by each alike (the reader once counted a tuple's level twice)."""
    text, structured = "int32", gt.ScalarType("int32")
    for _ in range(gt.MAX_DEPTH):
        text, structured = wrap(text), gt4py_wrap(structured)
    cell = parse_gtir_type(text)
    assert pformat_gtir(cell) == text == str(value_from_gt4py(structured))
    assert to_gt4py(cell) == structured
    text, structured = wrap(text), gt4py_wrap(structured)
    with pytest.raises(TypeSyntaxError, match="nested more than 64 levels deep"):
        parse_gtir_type(text)
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        from_gt4py(structured)


def test_scalar_kinds_are_checked_on_every_way_in() -> None:
    with pytest.raises(ValueError, match="unknown scalar kind 'float128'"):
        scalar("float128")
    with pytest.raises(ValueError, match="unknown scalar kind 'float128'"):
        offset_amount("float128")
    with pytest.raises(ValueError, match="float128"):  # iterir may refuse it when built
        from_gt4py(gt.FieldType((IDIM,), gt.ScalarType("float128")))


def test_a_type_that_contains_itself_has_no_value() -> None:
    element = var(Sort.DTYPE)
    element.parent = list_of(element)
    with pytest.raises(convert.Cyclic, match="contains itself"):
        to_value(element)


def test_types_printed_together_share_their_variables_numbers() -> None:
    field = parse_gtir_type("Field[D₀, T₁] where T₁: float")
    element = field.args[1]
    assert pformat_gtir_all([field, element]) == ["Field[D₀, T₁]", "T₁"]
    assert pformat_gtir_all([element, field]) == ["T₀", "Field[D₁, T₀]"]


def test_reading_takes_gt4py_spellings() -> None:
    read = parse_gtir_type("(Field[[IDimₕ, KDimᵥ], f64], i1) -> tuple[]")
    assert pformat_gtir(read) == "(Field[[IDim, KDimᵥ], float64], bool) → tuple[]"
    assert pformat_gtir(parse_gtir_type("Offset[`int32`]")) == "Offset[`int32`]"
    assert pformat_gtir(parse_gtir_type("Offset[int32]")) == "Offset[int32]"
    assert pformat_gtir(parse_gtir_type("tuple[*T₀]")) == "tuple[*T₀]"  # a tuple, not any type


# -- GT4Py's structured form ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Offset[IDim→JDim]", r"^\$: GT4Py's structured form has no CartesianOffset type"),
        ("tuple[int32, *T₀]", r"^\$: GT4Py has no form for a tuple not known to end"),
        ("Field[D₀, int32]", r"^\$\.dims: GT4Py has no form for an unknown set"),
        ("NamedRange[T₀]", r"^\$\.dim: GT4Py has no form for an unknown dimension"),
        ("T₀ where T₀: float", r"^\$: GT4Py has no form for a type of the family float"),
        ("tuple[*T₀]", r"^\$: GT4Py has no form for a tuple not known to end"),
        ("Domain[D₀]", r"^\$\.dims: GT4Py has no form for an unknown set"),
        ("(int32, Field[D₀, int32]) → int32", r"^\$\.pos_only_args\[1\]\.dims: "),
        ("(int32, *T₀) → int32", r"^\$\.pos_only_args: GT4Py has no form for a tuple not"),
        ("() → tuple[bool, List[T₀, T₁]]", r"^\$\.returns\.types\[1\]\.offset_type: "),
        ("It[D₀, D₁, bool]", r"^\$\.defined_dims: GT4Py has no form for an unknown set"),
        ("Field[[], It[[], [], Offset[T₀]]]", r"^\$\.dtype\.element_type\.value: "),
        ("Dimension[T₀]", r"^\$\.dim: GT4Py has no form for an unknown dimension"),
    ],
)
def test_what_gt4py_cannot_say_is_named(text: str, message: str) -> None:
    with pytest.raises(NotStructured, match=message):
        to_gt4py(parse_gtir_type(text))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (gt.ScalarType("float64", (3,)), "shape"),
        (gt.FunctionType((), (("x", gt.ScalarType("int32")),), (), gt.VoidType()), "keyword"),
        (gt.VoidType(), "VoidType has no GTIR term"),
        (gt.FieldType((KDIM, IDIM), gt.ScalarType("int32")), r"canonical order \(IDim, KDim\)"),
    ],
)
def test_what_we_cannot_hold_is_named(value: gt.GType, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_gt4py(value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (Field(("IDim",), "int32"), "not a canonical dimension set: .'IDim',."),  # type: ignore[arg-type]
        (Field((KDIM, IDIM), "int32"), "not a canonical dimension set"),
        (List("float", V2E), "not a scalar type: 'float'"),
        (Var("dtype", 0, "real"), "no family 'real'"),
        (Var("dimension set", 0, "float"), "no family 'float'"),
        (Var("size", 0), "no variable of sort 'size'"),
        (
            Field(Var("dimension set", 0), Var("dtype", 0)),
            "0 stands for a dimension set and a dtype",
        ),
        (Field(Var("dtype", 0), "int32"), "sort dtype stands where a dimension set stands"),  # type: ignore[arg-type]
        (List("int32", Var("dimension set", 0)), "dimension set stands where a dimension stands"),  # type: ignore[arg-type]
        (It((), Var("dimension", 0), "int32"), "dimension stands where a dimension set stands"),  # type: ignore[arg-type]
        (Tuple(("int32",), Var("dtype", 1)), "sort dtype stands where a dtype row stands"),
        (Function((), Var("dimension", 0)), "dimension stands where a dtype stands"),
        (3, "not a GTIR type: 3"),
    ],
)
def test_values_that_are_no_gtir_type_are_named(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        to_cell(value)


def test_types_nested_deeper_than_gt4py_json_reads_are_refused() -> None:
    deep: gt.GType = gt.ScalarType("int32")
    cell = scalar("int32")
    for _ in range(gt.MAX_DEPTH + 2):
        deep, cell = gt.TupleType((deep,)), tuple_of([cell])
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        from_gt4py(deep)
    with pytest.raises(NotStructured, match=r"^\$(\.types\[0\]){65}: a type nested more than 64"):
        to_gt4py(cell)


def test_public_values_convert_to_gt4py_and_back() -> None:
    value = It("unknown", (IDIM,), List("float64", V2E))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a canonical dimension set: 'unknown'"):
        value_to_gt4py(value)
    structured = gt.IteratorType("unknown", (IDIM,), gt.ListType(gt.ScalarType("float64"), V2E))
    back = value_from_gt4py(structured)
    assert str(back) == "It[D₀, [IDim], List[float64, V2Eₗ]]"
    assert value_to_gt4py(back) == structured


# -- properties ---------------------------------------------------------------------------------
# GT4Py's types that we hold: `tests.test_gtir_properties`' leaves, but sets only canonical, no
# scalar shapes and no keyword parameters (which iterir reads and we refuse).
sets = st.lists(dimensions, max_size=3).filter(lambda ds: _is_set(ds)).map(canonical)
positions = st.one_of(sets, st.just("unknown"))
scalars = st.builds(gt.ScalarType, scalar_kinds)


def _is_set(ds: list[gt.Dimension]) -> bool:
    try:
        canonical(ds)
    except DimensionSetError:
        return False
    return True


def _compound(inner: st.SearchStrategy[gt.GType]) -> st.SearchStrategy[gt.GType]:
    some = st.lists(inner, max_size=3).map(tuple)
    return st.one_of(
        st.builds(gt.FieldType, sets, inner),
        st.builds(gt.TupleType, some),
        st.builds(gt.ListType, inner, st.one_of(st.none(), dimensions)),
        st.builds(gt.IteratorType, positions, sets, inner),
        st.builds(gt.FunctionType, some, st.just(()), st.just(()), inner),
    )


structured = st.recursive(
    st.one_of(
        scalars,
        st.builds(gt.DomainType, sets),  # GT4Py 1.2.3 refuses DomainType("unknown")
        st.builds(gt.NamedRangeType, dimensions),
        st.builds(gt.DimensionType, dimensions),
        st.builds(gt.OffsetLiteralType, st.one_of(dimensions, scalars)),
        st.just(gt.DeferredType()),
    ),
    _compound,
    max_leaves=8,
)


@given(structured)
def test_structured_to_ours_and_back_is_equal(value: gt.GType) -> None:
    assert to_gt4py(to_cell(to_value(from_gt4py(value)))) == value


@given(structured)
def test_printed_types_read_back_equal(value: gt.GType) -> None:
    ours = to_value(from_gt4py(value))
    text = str(ours)
    assert to_value(parse_gtir_type(text)) == ours
    assert str(to_value(parse_gtir_type(text))) == text


@given(structured, st.data())
def test_variables_shared_and_restricted_read_back(value: gt.GType, data: st.DataObject) -> None:
    """A type with its unknowns tied together (one `T₀` and one `D₁` throughout, `T₀` a float)
    and a tuple's rest prints and reads back alike."""
    cell = from_gt4py(value)
    shared_type, shared_set = var(Sort.DTYPE, frozenset({"float32", "float64"})), var(Sort.DIMS)
    _tie(cell, shared_type, shared_set)
    tail = Tuple((to_value(cell),), Var("dtype row", 9)) if data.draw(st.booleans()) else None
    ours = to_value(cell) if tail is None else to_value(to_cell(tail))
    assert to_value(parse_gtir_type(str(ours))) == ours


def _tie(cell: Cell, shared_type: Cell, shared_set: Cell) -> None:
    stack, seen = [cell], set()
    while stack:
        root = find(stack.pop())
        if id(root) in seen:
            continue
        seen.add(id(root))
        if root.ctor is None:
            assert not unify(root, shared_set if root.sort is Sort.DIMS else shared_type)
        stack.extend(root.args)


# -- the core's machinery on GTIR's constructors ------------------------------------------------
EVERY_CONSTRUCTOR = (
    "(It[D₀, [IDim], T₁], List[T₁, V2Eₗ], List[T₁], tuple[int32, T₁], Field[D₀, T₂], Domain[D₃],"
    " NamedRange[T₄], Dimension[T₄], Offset[T₅→IDim], Offset[V2E], Offset[int32], tuple[T₁, *T₆])"
    " → T₁ where T₁: float"
)
INSTANCE = (
    "(It[[KDimᵥ], [IDim], float32], List[float32, V2Eₗ], List[float32], tuple[int32, float32],"
    " Field[[KDimᵥ], bool], Domain[[]], NamedRange[JDim], Dimension[JDim], Offset[IDim→IDim],"
    " Offset[V2E], Offset[int32], tuple[float32, bool]) → float32"
)


def test_every_gtir_constructor_unifies_instantiates_and_matches() -> None:
    general = parse_gtir_type(EVERY_CONSTRUCTOR)
    assert set(GTIR_CONSTRUCTORS.values()) <= _constructors(general)
    scheme = Scheme(general)
    copy = scheme.instantiate()
    assert not unify(copy, scheme.instantiate())
    assert pformat_gtir(copy) == pformat_gtir(compiled(scheme)()) == EVERY_CONSTRUCTOR
    ground = parse_gtir_type(INSTANCE)
    assert is_instance(scheme.instantiate(), ground) and not is_instance(ground, general)
    used = scheme.instantiate()
    assert not unify(used, ground)
    assert pformat_gtir(used) == INSTANCE
    with pytest.raises(Mismatch):  # positions [KDim] and the field's [IDim] are one set, D₀
        unify(
            scheme.instantiate(), parse_gtir_type(INSTANCE.replace("Field[[KDimᵥ]", "Field[[IDim]"))
        )


def test_the_ascii_spelling_of_every_sample_type_reads_back() -> None:
    """As the fencil's (tests/test_notation.py): `--ascii` prints what reads back the same."""
    for text in SAMPLE_TYPES:
        shown = str(_from_json(text))
        spelled = to_ascii_gtir(shown)
        assert spelled.isascii(), spelled
        assert str(to_value(parse_gtir_type(spelled))) == shown


@given(gtir_types)
def test_the_ascii_spelling_of_a_gtir_type_reads_back(type_: gt.GType) -> None:
    try:
        shown = pformat_gtir(from_gt4py(type_))
    except ValueError:  # a type our terms refuse (said by the reading tests)
        return
    assert pformat_gtir(parse_gtir_type(to_ascii_gtir(shown))) == shown


@pytest.mark.parametrize("name", ["²", "a¹b", "Xₕ", "x→y", "T₀", "a…", "x⊆y", "é"])
def test_a_quoted_name_is_the_same_name_in_the_ascii_spelling(name: str) -> None:
    """Found by the property above: a dimension named `²` was spelled `^2`, which reads back
    as another name. A quoted name writes the notation's marks as escapes (`\\u00b2`), which
    the ASCII spelling leaves alone and the reader reads back."""
    shown = pformat_gtir(from_gt4py(gt.FieldType((gt.Dimension(name),), gt.ScalarType("float64"))))
    spelled = to_ascii_gtir(shown)
    assert pformat_gtir(parse_gtir_type(spelled)) == shown
    assert to_value(parse_gtir_type(spelled)) == to_value(parse_gtir_type(shown))
    assert name in repr(to_value(parse_gtir_type(spelled)))
    assert ("é" in spelled) == (name == "é")  # a letter the notation does not use stays


def test_the_ascii_spelling_has_every_mark_of_gtir_s_notation() -> None:
    text = "(It[D₀, [IDim, V2Eₗ, KDimᵥ], T₁]) → T₁ where D₂ = D₀ ∪ D₁, D₁ ⊆ D₀, D₃ ∈ {D₄, none}"
    assert to_ascii_gtir(text) == (
        "(It[D0, [IDim, V2E^l, KDim^v], T1]) -> T1 where D2 = D0 | D1, D1 <= D0, D3 in {D4, none}"
    )
    assert to_ascii_gtir("IDimₕ") == "IDim^h"
