"""The variables of a type text, built as read: a variable's number names it across the whole
text (`T₁` and the size mark `¹` are one variable); the place it stands in gives its sort, and a
variable met in places of two sorts is the meet of both, or an error. A `where` clause restricts
dtype variables to a family. Both dialects' readers build their variables so: the fencil IR's
`typeinf.fencil.cellbuilder.CellBuilder` (a `VariableBuilder` that builds every production of its
notation too) and `typeinf.gtir.reader`.
"""

from __future__ import annotations

from typeinf.core.terms import FAMILIES, Cell, Sort, find, sort_meet, var
from typeinf.core.typetokens import TypeSyntaxError, subscript_number


class VariableBuilder:
    """The variables met, by number."""

    def __init__(self) -> None:
        self.variables: dict[int, Cell] = {}

    def variable(self, text: str, sort: Sort) -> Cell:
        number = subscript_number(text)
        cell = self.variables.get(number)
        if cell is None:
            cell = self.variables[number] = var(sort)
            return cell
        root = find(cell)
        known = root.sort
        assert known is not None  # every variable has its sort
        meet = sort_meet(known, sort)
        if meet is None:
            raise TypeSyntaxError(
                f"variable {number} stands for a {known.value} and a {sort.value}"
            )
        root.sort = meet
        return cell

    def restrict(self, families: list[tuple[str, str]]) -> None:
        for variable, name in families:
            if name not in FAMILIES:
                raise TypeSyntaxError(
                    f"unknown family {name!r}; expected one of: " + ", ".join(sorted(FAMILIES))
                )
            root = find(self.variable(variable, Sort.DTYPE))
            root.family = FAMILIES[name]
