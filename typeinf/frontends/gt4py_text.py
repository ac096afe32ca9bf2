"""GT4Py 1.2.3's `str()` of its types, exactly (the samples' `gt4py_types` record it beside the
structured form): its notation where GT4Py has one (`float64`, `Field[[IDim, KDim], float64]`,
`tuple[…]`, `(…) -> …`) and its `repr` elsewhere (`DomainType(dims=[Dimension(value='IDim',
kind=<DimensionKind.HORIZONTAL: 'horizontal'>)])`). Our notation (`typeinf.gtir.notation`)
prints a few things otherwise, on purpose (docs/gtir.md, "Types"); a tool that compares with
GT4Py's text reads this one (`--json`'s `gt4py_str`; in Python, `typeinf.gt4py_str`).
It needs no GT4Py, so it is a front end's, not the bridge's (`typeinf.gt4py` needs GT4Py)."""

from __future__ import annotations

from iterir import gtir_types as gt

#: GT4Py's `ScalarKind` numbers (its enum's repr shows them).
_KIND_NUMBERS = {
    "bool": 1,
    "int8": 2,
    "uint8": 3,
    "int16": 4,
    "uint16": 5,
    "int32": 6,
    "uint32": 7,
    "int64": 8,
    "uint64": 9,
    "float32": 10,
    "float64": 11,
}


def gt4py_str(value: gt.GType) -> str:
    """`str(value)` as GT4Py 1.2.3 prints the type `value` stands for."""
    if isinstance(value, gt.ScalarType):
        return value.kind + ("" if value.shape is None else str(list(value.shape)))
    if isinstance(value, gt.FieldType):
        dims = ", ".join(d.value for d in value.dims)
        return f"Field[[{dims}], {gt4py_str(value.dtype)}]"
    if isinstance(value, gt.TupleType):
        return f"tuple[{', '.join(map(gt4py_str, value.types))}]"
    if isinstance(value, gt.FunctionType):
        args = [gt4py_str(a) for a in value.pos_only_args]
        args += [f"{key}: {gt4py_str(a)}" for key, a in value.pos_or_kw_args]
        return f"({', '.join(args)}) -> {gt4py_str(value.returns)}"
    return gt4py_repr(value)


def gt4py_repr(value: object) -> str:
    """`repr(value)` as GT4Py 1.2.3 prints it: its class and fields, an enum as `<Kind.NAME:
    value>`, a sequence as a list, keyword arguments as a dict."""
    if isinstance(value, gt.ScalarType):
        kind = f"<ScalarKind.{value.kind.upper()}: {_KIND_NUMBERS[value.kind]}>"
        shape = None if value.shape is None else list(value.shape)
        return f"ScalarType(kind={kind}, shape={shape!r})"
    if isinstance(value, gt.Dimension):
        kind = f"<DimensionKind.{value.kind.upper()}: {value.kind!r}>"
        return f"Dimension(value={value.value!r}, kind={kind})"
    if isinstance(value, gt.FunctionType):
        parts = [
            f"pos_only_args={gt4py_repr(value.pos_only_args)}",
            f"pos_or_kw_args={_dict(value.pos_or_kw_args)}",
            f"kw_only_args={_dict(value.kw_only_args)}",
            f"returns={gt4py_repr(value.returns)}",
        ]
        return f"FunctionType({', '.join(parts)})"
    if isinstance(value, gt.GType):
        names = [name for name, _ in gt.FIELDS[type(value).__name__]]
        fields = ", ".join(f"{name}={gt4py_repr(getattr(value, name))}" for name in names)
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple):
        return f"[{', '.join(map(gt4py_repr, value))}]"
    return repr(value)


def _dict(items: tuple[tuple[str, gt.GType], ...]) -> str:
    return "{" + ", ".join(f"{key!r}: {gt4py_repr(v)}" for key, v in items) + "}"
