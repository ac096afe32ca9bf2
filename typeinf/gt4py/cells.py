"""Our inferred types (`typeinf.core.terms` cells, after a GTIR inference) as GT4Py 1.2.3's type
objects, the form GT4Py's passes read from `node.type`.

Where a part of ours is still a variable, GT4Py's form for "not known" stands in its place: an
iterator's unknown positions are `"unknown"`, any other unknown type `ts.DeferredType`; where
GT4Py has no form for an unknown part (a field's dimensions, a dimension, a tuple of unknown
length, a dtype known only to be a float), the smallest enclosing type GT4Py accepts as a whole
is `DeferredType`. Unlike `typeinf.gtir.structured.to_gt4py` (which refuses what GT4Py cannot
say, to score us against GT4Py), this never fails: a drop-in must leave a type on every node.
"""

from __future__ import annotations

from gt4py.next import common
from gt4py.next.iterator.type_system import type_specifications as it_ts
from gt4py.next.type_system import type_specifications as ts

from iterir import gtir_types as gt
from typeinf.core.constructors import DEMPTY, DTUPLE, PRIM, row_items
from typeinf.core.terms import Cell, find
from typeinf.gt4py.types import GT4PyObject
from typeinf.gtir import terms as g

DEFERRED = ts.DeferredType(constraint=None)


class _Open(Exception):
    """A part GT4Py has no form for while unknown: its enclosing type is DeferredType."""


#: A cell's structure: its constructor, label and arguments' structures; None for a variable.
Shape = tuple[object, object, tuple["Shape", ...]] | None


def shape(root: Cell) -> Shape:
    """The structure of the class whose root is `root`: all that GT4Py's form of it depends
    on (a variable's sort and family make no difference there; `NO_DIM`, told apart by
    identity, has a structure of its own)."""
    if root.ctor is None:
        return None
    if root is g.NO_DIM:
        return _NO_DIM
    return (root.ctor, root.label, tuple([shape(find(a)) for a in root.args]))


_NO_DIM: Shape = (None, None, ())


class ToGT4Py:
    """Converts the cells of one finished inference; equal classes convert once (`memo`, by the
    root's id: the graph no longer changes), and so do equal structures of different classes
    (`made`, by `shape`): the nodes of one type share one GT4Py object, as in GT4Py's own
    inference (GT4Py's type objects are frozen, and each is validated when made). Both maps
    are this conversion's own: what it makes is a function of the structure alone."""

    def __init__(self) -> None:
        self.memo: dict[int, GT4PyObject] = {}
        self.made: dict[Shape, GT4PyObject] = {}
        self.dimensions: dict[gt.Dimension, GT4PyObject] = {}

    def type(self, cell: Cell) -> GT4PyObject:
        """GT4Py's type for `cell`; DeferredType where nothing of it is known."""
        root = find(cell)
        known = self.memo.get(id(root))
        if known is None:
            structure = shape(root)
            known = self.made.get(structure)
            if known is None:
                try:
                    known = self._made(root)
                except (_Open, TypeError, ValueError):  # GT4Py refuses a Deferred part
                    known = DEFERRED
                self.made[structure] = known
            self.memo[id(root)] = known
        return known

    def _made(self, root: Cell) -> GT4PyObject:
        ctor = root.ctor
        if ctor is None:
            raise _Open
        if ctor is PRIM:
            return ts.ScalarType(kind=ts.ScalarKind[str(root.label).upper()])
        if ctor is DTUPLE or ctor is DEMPTY:
            items, tail = row_items(root)
            if tail.ctor is not DEMPTY:
                raise _Open
            return ts.TupleType(types=[self.type(item) for item in items])
        args = root.args
        if ctor is g.FIELD:
            dtype = self.type(args[1])
            if isinstance(dtype, ts.DeferredType):
                raise _Open
            return ts.FieldType(dims=self._dims(args[0]), dtype=dtype)
        if ctor is g.ITERATOR:
            positions = "unknown" if find(args[0]).ctor is None else self._dims(args[0])
            return it_ts.IteratorType(
                position_dims=positions,
                defined_dims=self._dims(args[1]),
                element_type=self.type(args[2]),
            )
        if ctor is g.FUNCTION:
            params, tail = row_items(args[0])
            if tail.ctor is not DEMPTY:
                raise _Open
            return ts.FunctionType(
                pos_only_args=[self.type(p) for p in params],
                pos_or_kw_args={},
                kw_only_args={},
                returns=self.type(args[1]),
            )
        if ctor is g.LIST:
            local = find(args[1])
            return ts.ListType(
                element_type=self.type(args[0]),
                offset_type=None if local is g.NO_DIM else self._dim(local),
            )
        if ctor is g.DOMAIN:
            return ts.DomainType(dims=self._dims(args[0]))
        if ctor is g.NAMED_RANGE:
            return it_ts.NamedRangeType(dim=self._dim(args[0]))
        if ctor is g.DIMENSION:
            return ts.DimensionType(dim=self._dim(args[0]))
        if ctor is g.OFFSET:
            return it_ts.OffsetLiteralType(value=self._dim(args[0]).value)
        if ctor is g.OFFSET_AMOUNT:
            return it_ts.OffsetLiteralType(
                value=ts.ScalarType(kind=ts.ScalarKind[str(root.label).upper()])
            )
        if ctor is g.CARTESIAN_OFFSET:
            return it_ts.CartesianOffsetType(domain=self._dim(args[0]), codomain=self._dim(args[1]))
        raise _Open  # a type of ours GT4Py has no class for

    def _dims(self, cell: Cell) -> list[GT4PyObject]:
        root = find(cell)
        if root.ctor is not g.DIMS:
            raise _Open
        labels: tuple[gt.Dimension, ...] = root.label  # type: ignore[assignment]  # a DIMS label
        return [self._gt4py_dimension(d) for d in labels]

    def _dim(self, cell: Cell) -> GT4PyObject:
        root = find(cell)
        if root.ctor is not g.DIM or root.label is None:
            raise _Open
        label: gt.Dimension = root.label  # type: ignore[assignment]  # a labelled DIM
        return self._gt4py_dimension(label)

    def _gt4py_dimension(self, dim: gt.Dimension) -> GT4PyObject:
        made = self.dimensions.get(dim)
        if made is None:
            made = common.Dimension(value=dim.value, kind=common.DimensionKind(dim.kind))
            self.dimensions[dim] = made
        return made
