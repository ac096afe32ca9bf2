"""The shifts a stencil makes of each input before it reads it, found from the stencil's text as
GT4Py 1.2.3 finds them (its `trace_shifts.trace_stencil`, read for the facts only): what
`as_fieldop` without a domain deduces its output's dimensions from (`relations.Deduced`).

The stencil is run abstractly: each input is an iterator that remembers the offsets it was
shifted by, and reading it (`deref`, `neighbors`) records them; `lift`, `scan`, `if_` of
iterators, tuples and lambdas pass iterators on as GT4Py's tracer does. A stencil that names
anything but its own parameters and builtins (a function definition, an outer name), or does
what the tracer does not follow, gives None: GT4Py then deduces nothing either (`DeferredType`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from iterir import FunCall, Lambda, Literal, Node, OffsetLiteral, SymRef
from iterir.nodes import CartesianOffset, InfinityLiteral
from iterir.vocabulary import PRIMITIVES

#: A shift's tags in order (`OffsetLiteral` names and `CartesianOffset`s; amounts dropped).
Tags = tuple[Node, ...]

#: How deep the abstract run may nest before it gives up (None: nothing deduced).
MAX_DEPTH = 200


class _Untraced(Exception):
    """The stencil does something the tracer does not follow."""


@dataclass(frozen=True)
class _Input:
    """The stencil's input `index`, shifted by `offsets` (tags and amounts, alternating)."""

    index: int
    offsets: tuple[object, ...] = ()


@dataclass(frozen=True)
class _Either:
    """`if_(c, it₁, it₂)`: both iterators, each read when it is."""

    its: tuple[Any, ...]


@dataclass(frozen=True)
class _Lifted:
    """`lift(f)(its…)`: reading it runs `f` on the iterators, shifted as it was."""

    stencil: Any
    its: tuple[Any, ...]


_ITERATORS = (_Input, _Either, _Lifted)
_VALUE = "value"
_ALL_NEIGHBORS = "all neighbors"


class _Run:
    def __init__(self, inputs: int) -> None:
        self.read: list[set[Tags]] = [set() for _ in range(inputs)]
        #: What reading each lifted iterator gave. Its reads depend only on its stencil and
        #: iterators, and are recorded already: reading it again (a stencil reading its input
        #: twice, nested k times, ran 2^k times) only returns this (docs/performance.md, "GTIR
        #: inference").
        self.lifted: dict[_Lifted, Any] = {}

    def deref(self, it: Any, depth: int) -> Any:
        if isinstance(it, _Input):
            self.read[it.index].add(tuple(it.offsets[::2]))  # type: ignore[arg-type]
            return _VALUE
        if isinstance(it, _Either):
            for each in it.its:
                self.deref(each, depth)
            return _VALUE
        if isinstance(it, _Lifted):
            if it not in self.lifted:
                self.lifted[it] = self.call(it.stencil, list(it.its), depth)
            return self.lifted[it]
        raise _Untraced

    def shift(self, it: Any, offsets: tuple[object, ...]) -> Any:
        if isinstance(it, _Input):
            return _Input(it.index, it.offsets + offsets)
        if isinstance(it, _Either):
            return _Either(tuple(self.shift(each, offsets) for each in it.its))
        if isinstance(it, _Lifted):
            return _Lifted(it.stencil, tuple(self.shift(each, offsets) for each in it.its))
        raise _Untraced

    def call(self, fun: Any, args: list[Any], depth: int) -> Any:
        if isinstance(fun, _Closure):
            if len(fun.node.params) != len(args):
                raise _Untraced
            scope = fun.scope | {p.id: a for p, a in zip(fun.node.params, args, strict=True)}
            return self.eval(fun.node.expr, scope, depth + 1)
        if callable(fun):
            return fun(self, args, depth)
        raise _Untraced

    def eval(self, node: Node, scope: dict[str, Any], depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _Untraced
        if isinstance(node, Literal | InfinityLiteral):
            return _VALUE
        if isinstance(node, OffsetLiteral | CartesianOffset):
            return node
        if isinstance(node, SymRef):
            if node.id in scope:
                return scope[node.id]
            if node.id in _BUILTINS:
                return _BUILTINS[node.id]
            if node.id in PRIMITIVES:
                return _VALUE  # a type name (`cast_`'s second argument)
            raise _Untraced  # a function definition, an outer name: GT4Py deduces nothing
        if isinstance(node, Lambda):
            return _Closure(node, scope)
        if isinstance(node, FunCall):
            if isinstance(node.fun, SymRef) and node.fun.id == "tuple_get":
                return _tuple_get(node, self.eval(node.args[1], scope, depth + 1))
            fun = self.eval(node.fun, scope, depth + 1)
            args = [self.eval(a, scope, depth + 1) for a in node.args]
            return self.call(fun, args, depth + 1)
        raise _Untraced


@dataclass(frozen=True, eq=False)  # equal only to itself: a key of `_Run.lifted`
class _Closure:
    node: Lambda
    scope: dict[str, Any]


def _tuple_get(node: FunCall, value: Any) -> Any:
    index = node.args[0]
    if not (isinstance(index, Literal) and index.value.isdigit()):
        raise _Untraced
    if isinstance(value, tuple):
        if int(index.value) >= len(value):
            raise _Untraced
        return value[int(index.value)]
    if value == _VALUE:
        return _VALUE
    raise _Untraced


Builtin = Callable[[_Run, list[Any], int], Any]


def _value(run: _Run, args: list[Any], depth: int) -> Any:
    """Arithmetic and the other builtins of values: their iterators' reads are made already."""
    if any(isinstance(a, _ITERATORS) for a in args):
        raise _Untraced
    return _VALUE


def _deref(run: _Run, args: list[Any], depth: int) -> Any:
    if len(args) != 1:
        raise _Untraced
    return run.deref(args[0], depth)


def _shift(run: _Run, offsets: list[Any], depth: int) -> Builtin:
    return lambda run, args, depth: run.shift(_one(args), tuple(offsets))


def _one(args: list[Any]) -> Any:
    if len(args) != 1:
        raise _Untraced
    return args[0]


def _neighbors(run: _Run, args: list[Any], depth: int) -> Any:
    if len(args) != 2:
        raise _Untraced
    return run.deref(run.shift(args[1], (args[0], _ALL_NEIGHBORS)), depth)


def _lift(run: _Run, args: list[Any], depth: int) -> Builtin:
    stencil = _one(args)

    def apply(run: _Run, its: list[Any], depth: int) -> Any:
        if not all(isinstance(it, _ITERATORS) for it in its):
            raise _Untraced
        return _Lifted(stencil, tuple(its))

    return apply


def _scan(run: _Run, args: list[Any], depth: int) -> Builtin:
    if len(args) != 3:
        raise _Untraced
    step, _, init = args
    return lambda run, its, depth: run.call(step, [init, *its], depth)


def _applied_to_values(run: _Run, args: list[Any], depth: int) -> Builtin:
    """`reduce(f, init)`, `map_list(f)`: applied to lists, which are values."""
    return _value


def _if(run: _Run, args: list[Any], depth: int) -> Any:
    if len(args) != 3:
        raise _Untraced
    _, yes, no = args
    return _either(yes, no)


def _either(yes: Any, no: Any) -> Any:
    if isinstance(yes, tuple) or isinstance(no, tuple):
        yes = yes if isinstance(yes, tuple) else (yes,) * len(no)
        no = no if isinstance(no, tuple) else (no,) * len(yes)
        if len(yes) != len(no):
            raise _Untraced
        return tuple(_either(a, b) for a, b in zip(yes, no, strict=True))
    if isinstance(yes, _ITERATORS) and isinstance(no, _ITERATORS):
        return _Either((yes, no))
    if yes == _VALUE and no == _VALUE:
        return _VALUE
    raise _Untraced


def _as_fieldop(run: _Run, args: list[Any], depth: int) -> Builtin:
    stencil = args[0] if args else None
    return lambda run, inputs, depth: run.call(stencil, inputs, depth)


_BUILTINS: dict[str, Any] = {
    "deref": _deref,
    "can_deref": lambda run, args, depth: _VALUE,
    "shift": _shift,
    "neighbors": _neighbors,
    "lift": _lift,
    "scan": _scan,
    "reduce": _applied_to_values,
    "map_list": _applied_to_values,
    "if_": _if,
    "make_tuple": lambda run, args, depth: tuple(args),
    "as_fieldop": _as_fieldop,
}
_VALUES = (
    "plus minus multiplies divides mod floordiv minimum maximum fmod power neg abs eq not_eq "
    "less greater less_equal greater_equal not_ and_ or_ xor_ sin cos tan arcsin arccos arctan "
    "sinh cosh tanh arcsinh arccosh arctanh exp log gamma cbrt sqrt floor ceil trunc isfinite "
    "isinf isnan list_get make_const_list cast_"
)
_BUILTINS.update(dict.fromkeys(_VALUES.split(), _value))


def shifts_read(stencil: Node, inputs: int) -> list[set[Tags]] | None:
    """For each of the `inputs` inputs of `stencil` (a lambda, or `scan` of one), the shifts
    it is read after (its tags, in order); None where GT4Py deduces nothing."""
    run = _Run(inputs)
    try:
        fun = run.eval(stencil, {}, 0)
        result = run.call(fun, [_Input(i) for i in range(inputs)], 0)
        _reads_nothing_more(result)
    except _Untraced:
        return None
    return run.read


def _reads_nothing_more(result: Any) -> None:
    """A stencil returns values (or tuples of them), never an iterator."""
    if isinstance(result, tuple):
        for item in result:
            _reads_nothing_more(item)
    elif result != _VALUE:
        raise _Untraced
