"""Reading types written in the notation (compact or located) back into cells: `parse_type`.

A variable's number names it across the whole text (`T₁` and the size mark `¹` are one
variable); the place it stands in gives its sort. What the compact notation leaves out (an
iterator's locations) reads as fresh variables, two of its own for each compact `It[d]` and
`ItOrValₖ[d]` (the most general reading: the compact text of a type, read, is at least as
general as the type); in GT4Py's located notation (`locations=True`) `It[d]` is `ANYWHERE`. A
value stands `ANYWHERE` (docs/notation.md, "Reading types back").

Reading is three jobs, each a module: `typeinf.core.typetokens` cuts the text into tokens (and
makes the errors that say where it goes wrong), `typeparser` reads the tokens of a type into its
syntax (`typeinf.fencil.typesyntax`), `typeinf.fencil.cellbuilder` builds the cells of that syntax
(the three in the core are GTIR's reader's too). This module reads the text around
the types, with this grammar (`type` is `typeparser`'s; `where` written as it is):

    start     := (type ["⇒" type] | NAME "::" type | fencil) ["where" VAR ":" NAME ("," …)*]
    fencil    := "{" (NAME "::" type ",")* NAME "(" [type ("," type)*] ")" "}"

The reader is written by hand, a tokenizer and a recursive descent, because every run that reads
a type pays for it at start-up (every `typeinf infer`: the builtins' signatures are read on first
use), which the generated (Earley) parser it replaces made costly (docs/performance.md,
"Start-up"), and read in superlinear time, recursively. This one reads in linear time and runs its
descent on an explicit stack (`typesyntax.run`), so that a type nested 100,000 deep reads at
Python's default recursion limit.

Whitespace may stand between any two tokens. A syntax error names the column where no reading of
the text can go on, as the Earley parser did: the 1-based column on its line, or "at its end".
"""

from __future__ import annotations

from iterir.gcpause import gc_paused
from typeinf.core.terms import Cell, Type
from typeinf.core.typetokens import TypeSyntaxError, echoed
from typeinf.fencil.cellbuilder import CellBuilder
from typeinf.fencil.typeparser import TypeParser
from typeinf.fencil.typesyntax import TYPE, Node, Step, run

#: The reader's interface; `TypeSyntaxError` is `typetokens`'s, named here as the reader's error.
__all__ = ["TypeSyntaxError", "parse_type", "parse_with_variables"]


def parse_type(text: str, locations: bool | None = None) -> Type:
    """Read a type (or `name :: type`, `inputs ⇒ output`, `{…}`) in either notation.

    By default each iterator is read as written: `It[cur, def, d¹]` with its locations, `It[d¹]`
    (the compact notation) at two fresh locations of its own. `locations=True` reads GT4Py's
    located notation, where `It[d¹]` stands for both locations `ANYWHERE`.
    """
    return parse_with_variables(text, locations)[0]


def parse_with_variables(text: str, locations: bool | None = None) -> tuple[Type, dict[int, Cell]]:
    """`parse_type`, and the cell of each variable by its number as written (`T₂`, `²`: 2)."""
    parser = TypeParser(text, locations)
    with gc_paused():  # a long type is many small acyclic objects: the collector would rescan them
        tree = run(_start(parser))
        builder = CellBuilder(bool(locations))
        try:
            type_: Type = builder.build(tree)
            return type_, builder.variables
        except TypeSyntaxError as exc:
            raise TypeSyntaxError(f"{exc} in {echoed(text, 0)}") from None


def _start(parser: TypeParser) -> Step:
    """A type, `name :: type`, `inputs ⇒ output` or a fencil, and its `where` clause."""
    token = parser.peek()
    if token.kind == "{":
        parser.take()
        tree: Node = yield _fencil(parser)
    elif token.kind == "NAME" and parser.peek(1).kind == "::":
        parser.take(), parser.take()
        type_ = yield parser.term(TYPE)
        tree = Node("definition", [token.text, type_.node])
    else:
        type_ = yield parser.term(TYPE)
        if parser.peek().kind == "⇒":
            parser.take()
            output = yield parser.term(TYPE)
            tree = Node("closure", [type_.node, output.node])
        else:
            tree = Node("typed", [type_.node])
    tree.args.append(_where(parser))
    return tree


def _fencil(parser: TypeParser) -> Step:
    """`{f :: type, …, name(types…)}` after its `{`."""
    names: list[str] = []
    types: list[Node] = []
    while True:
        name = parser.expect("NAME").text
        token = parser.take()
        if token.kind == "(":
            break
        if token.kind != "::":
            raise parser.unexpected(token)
        names.append(name)
        types.append((yield parser.term(TYPE)).node)
        parser.expect(",")
    if parser.peek().kind == ")":
        parser.take()
    else:
        while True:
            types.append((yield parser.term(TYPE)).node)
            token = parser.take()
            if token.kind == ")":
                break
            if token.kind != ",":
                raise parser.unexpected(token)
    parser.expect("}")
    return Node("fencil", [name, names, *types])


def _where(parser: TypeParser) -> list[tuple[str, str]]:
    """`where T₀: float, …` and the end of the text. `whereT₀` is `where T₀` (as to the Earley
    parser, whose terminals need no space between them)."""
    token = parser.take()
    if token.kind == "EOF":
        return []
    if token.kind != "NAME" or not token.text.startswith("where"):
        raise parser.unexpected(token)
    parser.resume_at(token.start + len("where"))
    families = []
    while True:
        variable = parser.expect("VAR").text
        parser.expect(":")
        families.append((variable, parser.expect("NAME").text))
        token = parser.take()
        if token.kind == "EOF":
            return families
        if token.kind != ",":
            raise parser.unexpected(token)
