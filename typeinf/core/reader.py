"""Reading types written in the notation (compact or located) back into cells.

A variable's number names it across the whole text (`T₁` and the size mark `¹` are one
variable); the place it stands in gives its sort. What the compact notation leaves out (an
iterator's locations) reads as fresh variables, two of its own for each compact `It[d]` and
`ItOrValₖ[d]` (the most general reading: the compact text of a type, read, is at least as
general as the type); in GT4Py's located notation (`locations=True`) `It[d]` is `ANYWHERE`. A
value stands `ANYWHERE` (docs/notation.md, "Reading types back").

The reader is written by hand, a tokenizer and a recursive descent, because every run that reads
a type pays for it at start-up (every `typeinf infer`: the builtins' signatures are read on first
use), which the generated (Earley) parser it replaces made costly (docs/performance.md,
"Start-up"), and read in superlinear time, recursively. This one reads in linear time and runs its
descent on an explicit stack (`_run`), so that a type nested 100,000 deep reads at Python's default
recursion limit.

The notation (docs/notation.md) has this grammar, `T`, `It`, `L`, `True`, `False` and `where`
written as they are:

    start     := (type ["⇒" type] | NAME "::" type | fencil) ["where" VAR ":" NAME ("," …)*]
    fencil    := "{" (NAME "::" type ",")* NAME "(" [type ("," type)*] ")" "}"
    type      := operand ["→" type]
    operand   := VAR | dtype SIZE | "It" "[" [loc "," loc ","] dtype SIZE "]"
               | ITORVAL "[" [loc "," loc ","] dtype SIZE "]" | "(" [type ("," type)*] ")" [":" tail] | rows
    tail      := VAR | rows                      (a tail, here and below, follows one item or more)
    dtype     := VAR | NAME | "(" [dtype ("," dtype)*] ")" [":" VAR] | "L" "[" dtype "," length "," skip "]"
    rows      := "(" ("T" SIZE | "It" "[" "T" SIZE "]" | "It" "[" loc "," ELLIPSIS_ROW "," "T" SIZE "]"
                     | ITORVAL "[" "T" SIZE "]") "," "…" ")" SUB
               | "(" "L" "[" ELLIPSIS_ROW "," length "," skip "]" SIZE "," "…" ")"
    loc := VAR | NAME        length := VAR | INT        skip := VAR | "True" | "False"

A constructor added from outside the core (`constructors.register_constructor`) has the generic
notation, `NAME` or `NAME "[" arg ("," arg)* "]"`, read where a structure of its sort stands (a
dtype, then followed by a size mark as `L[…]` is, or a type): each argument read as its param's
sort says (a type, a dtype, a location, a list length, a skip flag, a kind or a size: a variable
or a constant's name); arguments of a row sort (argument, dtype, location rows), and labelled
constants of a constructor outside the core, are not readable yet. Location arguments are left
out in the compact notation where they are variables found nowhere else: unless `locations=True`,
a structure that has them is read as located if its arguments read so, else as compact.

Whitespace may stand between any two tokens. A group's items are read before what it is is known:
`(T₀, T₁)` is an argument tuple, `(T₀, T₁)¹` a value of a dtype tuple, `((T₀, T₁), T₂)¹` makes the
inner group a dtype tuple too. A syntax error names the column where no reading of the text can go
on, as the Earley parser did: the 1-based column on its line, or "at its end".
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any, NamedTuple

from iterir.gcpause import gc_paused
from iterir.vocabulary import PRIMITIVES
from typeinf.core.constructors import (
    ANYWHERE,
    COLUMN,
    CONSTRUCTORS,
    CORE,
    D_EMPTY,
    DTUPLE,
    FUN,
    ITERATOR,
    LENGTH,
    LIST,
    SCALAR,
    SKIP,
    T_EMPTY,
    TTUPLE,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    Constructor,
    constant,
    loc,
    prim,
    row,
    row_items,
    val,
)
from typeinf.core.notation import ASCII_SPELLING
from typeinf.core.terms import (
    FAMILIES,
    SPECIAL_DTYPES,
    Cell,
    ClosureType,
    DefinitionType,
    FencilType,
    Sort,
    Type,
    find,
    make,
    sort_meet,
    var,
)

_DIGITS = (
    {c: str(i) for i, c in enumerate("₀₁₂₃₄₅₆₇₈₉")}
    | {c: str(i) for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
    | {c: c for c in "0123456789"}
)
#: Longer texts are shown in error messages by a piece around the error.
_ECHOED = 200

# The ASCII spelling (`notation.ASCII_SPELLING`) of the marks, by the mark each stands for.
_ARROW, _CLOSURE, _ELLIPSIS = (re.escape(ASCII_SPELLING[m]) for m in "→⇒…")
_MARKS = {ASCII_SPELLING[m]: m for m in "→⇒…"}
_COLUMN, _SCALAR = ASCII_SPELLING["ᶜ"], ASCII_SPELLING["ˢ"]
_ASCII_NUMBER = r"[0-9]+(?![A-Za-z0-9_])"  # `T0`, but `T0x` is a name

# The tokens, longest first where one is the start of another (`T₀` before `T`, `…₀` before `…`):
# a name, number or mark reads as far as it goes, as each of the Earley parser's terminals did.
# Each has its ASCII spelling too (`T0`, `^1`, `^c`, `...3`, `->`); a subscript written in ASCII
# after `)` (`(It[T^1], ...)0`) is an INT, read where the grammar wants a subscript.
_TOKEN = re.compile(
    rf"""[ \t\f\r\n]*(?:
      (?P<ITORVAL>ItOrVal(?:[₀-₉]+|{_ASCII_NUMBER}))
    | (?P<VAR>T(?:[₀-₉]+|{_ASCII_NUMBER}))
    | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<INT>[0-9]+)
    | (?P<SIZE>[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[ᶜˢ]|\^[0-9]+|\^[cs](?![A-Za-z0-9_]))
    | (?P<SUB>[₀-₉]+)
    | (?P<ELLIPSIS_ROW>(?:…|{_ELLIPSIS})(?:[₀-₉]+|[0-9]+))
    | (?P<MARK>::|{_ARROW}|{_CLOSURE}|{_ELLIPSIS}|[…()\[\]{{}},:→⇒])
    | (?P<EOF>\Z)
    | (?P<BAD>.))""",
    re.VERBOSE | re.DOTALL,
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: The kinds of token that are terminals; the others are marks (`(`, `::`, …), matched as text.
_TERMINALS = frozenset(
    {"ITORVAL", "VAR", "NAME", "INT", "SIZE", "SUB", "ELLIPSIS_ROW", "EOF", "BAD"}
)

_TYPE, _DTYPE = 1, 2  # what a part of a type reads as (a bit set: both, while undecided)
_ROWS = 4  # a group that may still be a row of values or lists, `(It[T¹], …)₀`


class TypeSyntaxError(ValueError):
    """A type or signature that is not written in the notation, with where it goes wrong."""


def parse_type(text: str, locations: bool | None = None) -> Type:
    """Read a type (or `name :: type`, `inputs ⇒ output`, `{…}`) in either notation.

    By default each iterator is read as written: `It[cur, def, d¹]` with its locations, `It[d¹]`
    (the compact notation) at two fresh locations of its own. `locations=True` reads GT4Py's
    located notation, where `It[d¹]` stands for both locations `ANYWHERE`.
    """
    return parse_with_variables(text, locations)[0]


def parse_with_variables(text: str, locations: bool | None = None) -> tuple[Type, dict[int, Cell]]:
    """`parse_type`, and the cell of each variable by its number as written (`T₂`, `²`: 2)."""
    reader = _Reader(text, locations)
    with gc_paused():  # a long type is many small acyclic objects: the collector would rescan them
        tree = _run(reader.start())
        builder = CellBuilder(bool(locations))
        try:
            type_: Type = _build(tree, builder)
            return type_, builder.variables
        except TypeSyntaxError as exc:
            raise TypeSyntaxError(f"{exc} in {echoed(text, 0)}") from None


def echoed(text: str, position: int) -> str:
    """`text` quoted for a message: whole, or the part around `position` if it is long."""
    if len(text) <= _ECHOED:
        return repr(text)
    start = max(0, min(position - _ECHOED // 2, len(text) - _ECHOED))
    return f"{text[start : start + _ECHOED]!r} (characters {start + 1}–{start + _ECHOED} of {len(text)})"


class _Token(NamedTuple):
    kind: str  # a terminal's name (VAR, NAME, SIZE, …, EOF, BAD) or the mark itself (`(`, `→`, …)
    text: str
    start: int


class _Node:
    """A production to build: the `CellBuilder` method and its arguments (nodes, built first and in
    order, and texts). A variable or group that reads as a type or a dtype has the two `methods`
    instead and a `choice` that decides between them."""

    __slots__ = ("args", "choice", "method", "methods")

    def __init__(
        self,
        method: str | None,
        args: list[Any],
        methods: tuple[str, str] = ("", ""),
        choice: _Choice | None = None,
    ) -> None:
        self.method, self.args, self.methods, self.choice = method, args, methods, choice

    def resolved(self) -> str:
        if self.method is None:
            assert self.choice is not None  # a node without a method has the choice between two
            self.method = self.methods[self.choice.decided() == _DTYPE]
        return self.method


class _Choice:
    """Whether a group (and the variables and groups in it that read either way) is read as types
    or dtypes: known from what follows the group or from its items, or else the same as the
    group around it (`outer`), known later."""

    __slots__ = ("outer", "reading")

    def __init__(self, reading: int | None = None) -> None:
        self.reading = reading
        self.outer: _Choice | None = None

    def decided(self) -> int:
        choice, undecided = self, []
        while choice.reading is None:
            undecided.append(choice)
            outer = choice.outer
            assert outer is not None  # a choice not made yet is made by the group around it
            choice = outer
        for each in undecided:  # shortened for the other parts that ask
            each.reading = choice.reading
        return choice.reading


class _Part:
    """What reading a type or dtype gave: its node, how it may still read (`reads`), the choice
    that decides that, and, for the first item of a group, its node as the first of a row
    (`row`: `It[T¹]` in `(It[T¹], …)₀`; `only_row`: it cannot be anything else)."""

    __slots__ = ("bare_t", "choice", "node", "only_row", "reads", "row")

    def __init__(
        self,
        node: _Node | None,
        reads: int,
        choice: _Choice | None = None,
        row: _Node | None = None,
        only_row: bool = False,
        bare_t: bool = False,
    ) -> None:
        self.node, self.reads, self.choice = node, reads, choice
        self.row, self.only_row, self.bare_t = row, only_row, bare_t  # bare_t: the dtype `T`

    def decide(self, reading: int, outer: _Choice | None = None) -> None:
        """Read as `reading`; if that is both, as the group around it (`outer`) turns out."""
        if self.choice is None:
            return
        if reading in (_TYPE, _DTYPE):
            self.choice.reading = reading
        else:
            self.choice.outer = outer


#: A step of the descent, run by `_run`: it yields the steps it needs the results of.
_Step = Generator["_Step", Any, Any]


def _run(step: _Step) -> Any:
    """Run a descent whose steps call each other by yielding: an explicit stack, not Python's."""
    stack, result = [step], None
    while stack:
        try:
            called = stack[-1].send(result)
        except StopIteration as done:
            stack.pop()
            result = done.value
        else:
            stack.append(called)
            result = None
    return result


class _Reader:
    """The descent over one text, with one or two tokens of look-ahead."""

    def __init__(self, text: str, locations: bool | None = None) -> None:
        self.text = text
        self.locations = locations  # the notation, if the caller says which
        self.end = 0  # where the token after those in `ahead` starts (whitespace first)
        self.ahead: list[_Token] = []

    # -- tokens -----------------------------------------------------------------------------------
    def peek(self, index: int = 0) -> _Token:
        while len(self.ahead) <= index:
            match = _TOKEN.match(self.text, self.end)
            assert match is not None and match.lastgroup is not None  # EOF and BAD match anywhere
            kind = match.lastgroup
            text = match.group(kind)
            mark = _MARKS.get(text, text)
            self.ahead.append(_Token(mark if kind == "MARK" else kind, text, match.start(kind)))
            self.end = match.end()
        return self.ahead[index]

    def take(self) -> _Token:
        token = self.peek()
        del self.ahead[0]
        return token

    def expect(self, kind: str) -> _Token:
        token = self.take()
        if token.kind != kind:
            raise self.unexpected(token, kind)
        return token

    def keyword(self, word: str) -> None:
        """`T`, `It`, `L`: a word only where no name can stand."""
        token = self.take()
        if token.kind != "NAME" or token.text != word:
            raise self.unexpected(token, word)

    def unexpected(self, token: _Token, *expected: str) -> TypeSyntaxError:
        """The error at `token`, or just after the start of it that is something `expected`
        (`T₀` where only a name can stand is the name `T`, then `₀`): where the Earley parser,
        which matched every terminal it expected at every position, found nothing to go on."""
        if token.kind == "EOF":
            return TypeSyntaxError(f"not a type at its end: {echoed(self.text, len(self.text))}")
        skip = 0
        for kind in expected:
            if kind == "NAME":
                name = _NAME.match(token.text)
                skip = max(skip, name.end() if name else 0)
            elif kind not in _TERMINALS and token.text.startswith(kind):  # a mark or a word
                skip = max(skip, len(kind))
        position = token.start + skip
        column = position - self.text.rfind("\n", 0, position)
        return TypeSyntaxError(f"not a type at column {column}: {echoed(self.text, position)}")

    # -- programs ---------------------------------------------------------------------------------
    def start(self) -> _Step:
        """A type, `name :: type`, `inputs ⇒ output` or a fencil, and its `where` clause."""
        token = self.peek()
        if token.kind == "{":
            self.take()
            tree: _Node = yield self.fencil()
        elif token.kind == "NAME" and self.peek(1).kind == "::":
            self.take(), self.take()
            type_ = yield self.term(_TYPE)
            tree = _Node("definition", [token.text, type_.node])
        else:
            type_ = yield self.term(_TYPE)
            if self.peek().kind == "⇒":
                self.take()
                output = yield self.term(_TYPE)
                tree = _Node("closure", [type_.node, output.node])
            else:
                tree = _Node("typed", [type_.node])
        tree.args.append(self.where())
        return tree

    def fencil(self) -> _Step:
        """`{f :: type, …, name(types…)}` after its `{`."""
        names: list[str] = []
        types: list[_Node] = []
        while True:
            name = self.expect("NAME").text
            token = self.take()
            if token.kind == "(":
                break
            if token.kind != "::":
                raise self.unexpected(token)
            names.append(name)
            types.append((yield self.term(_TYPE)).node)
            self.expect(",")
        if self.peek().kind == ")":
            self.take()
        else:
            while True:
                types.append((yield self.term(_TYPE)).node)
                token = self.take()
                if token.kind == ")":
                    break
                if token.kind != ",":
                    raise self.unexpected(token)
        self.expect("}")
        return _Node("fencil", [name, names, *types])

    def where(self) -> list[tuple[str, str]]:
        """`where T₀: float, …` and the end of the text. `whereT₀` is `where T₀` (as to the
        Earley parser, whose terminals need no space between them)."""
        token = self.take()
        if token.kind == "EOF":
            return []
        if token.kind != "NAME" or not token.text.startswith("where"):
            raise self.unexpected(token)
        self.ahead.clear()
        self.end = token.start + len("where")
        families = []
        while True:
            variable = self.expect("VAR").text
            self.expect(":")
            families.append((variable, self.expect("NAME").text))
            token = self.take()
            if token.kind == "EOF":
                return families
            if token.kind != ",":
                raise self.unexpected(token)

    # -- types and dtypes -------------------------------------------------------------------------
    def term(self, reads: int, first: bool = False, outer: _Choice | None = None) -> _Step:
        """A type or dtype (`reads`; both inside a group not known to be either, whose choice
        is `outer`), `first` of its group: then it may be the first item of a row."""
        functions: list[_Node] = []  # the parameters of `a → b → c`, which nests to the right
        while True:
            token = self.take()
            if token.kind == "VAR":
                choice = _Choice()
                part = _Part(
                    _Node(None, [token.text], ("type_var", "dtype_var"), choice),
                    _TYPE | _DTYPE,
                    choice,
                )
            elif (
                token.kind == "NAME"
                and self.peek().kind == "["
                and (token.text == "L" or (token.text == "It" and reads & _TYPE))
            ):
                self.take()
                part = yield (self.list_dtype(first) if token.text == "L" else self.iterator(first))
                if part.only_row:
                    return part
            elif token.kind == "NAME" and _added(token.text) is not None:
                part = yield self.structure(token, reads)
            elif token.kind == "NAME":
                part = _Part(_Node("primitive", [token.text]), _DTYPE, bare_t=token.text == "T")
            elif token.kind == "ITORVAL" and reads & _TYPE:
                part = yield self.it_or_val(token.text, first)
            elif token.kind == "(":
                part = yield self.group(reads)
            else:
                raise self.unexpected(token, "NAME")
            if reads & _TYPE and part.reads & _DTYPE and self.peek().kind == "SIZE":
                part.decide(_DTYPE)
                size = self.take().text
                row_item = _Node("row_of_values", [size]) if first and part.bare_t else None
                part = _Part(_Node("plain_value", [part.node, size]), _TYPE, row=row_item)
            reads &= part.reads
            if not reads:
                raise self.unexpected(self.peek())
            if not reads & _TYPE or self.peek().kind != "→":
                break
            self.take()
            part.decide(_TYPE)
            assert part.node is not None  # only a row, returned above, has no node
            functions.append(part.node)
            reads, first, outer = _TYPE, False, None
        part.decide(reads, outer)
        if functions:
            node = part.node
            for parameters in reversed(functions):
                node = _Node("fun", [parameters, node])
            return _Part(node, _TYPE)
        part.reads = reads
        return part

    def group(self, reads: int) -> _Step:
        """`(…)` after its `(`: arguments, a dtype tuple, or a row of values or lists; which is
        known from its items and from what follows it."""
        roles = _TYPE | _DTYPE | _ROWS if reads & _TYPE else _DTYPE
        choice = _Choice(None if roles & _TYPE else _DTYPE)
        items: list[_Node] = []
        closed = self.peek().kind == ")"
        if closed:
            self.take()
        while not closed:
            item = yield self.term(roles & (_TYPE | _DTYPE), bool(roles & _ROWS), choice)
            token = self.take()
            if item.row is not None and token.kind == ",":
                after = self.peek()
                if after.kind == "…":
                    return _Part(self.rows(item.row), _TYPE)
                if item.only_row or after.kind == "ELLIPSIS_ROW":
                    raise self.unexpected(after, "…")
            elif item.only_row:
                raise self.unexpected(token)
            items.append(item.node)
            roles &= item.reads
            if roles != _TYPE | _DTYPE:
                choice.reading = roles
            closed = token.kind == ")"
            if not closed and token.kind != ",":
                raise self.unexpected(token)
        if items and self.peek().kind in (":", "::"):
            token = self.take()
            if token.kind == "::":
                raise self.unexpected(token, ":")
            token = self.take()
            if token.kind == "VAR":
                items.append(_Node(None, [token.text], ("row_var", "drow_var"), choice))
            elif token.kind == "(" and roles & _TYPE:
                roles = choice.reading = _TYPE
                items.append(self.tail())
            else:
                raise self.unexpected(token)
            methods = ("args_with_tail", "dtype_tuple_with_tail")
        else:
            methods = ("args", "dtype_tuple")
        return _Part(_Node(None, items, methods, choice), roles & (_TYPE | _DTYPE), choice)

    def structure(self, token: _Token, reads: int) -> _Step:
        """A structure of a constructor added from outside the core, after its name: `Name` or
        `Name[arg, …]`. With location arguments, unless `locations=True`: located if that
        reads, else as compact: each attempt is its own descent (`_run`), so these nest on
        Python's stack, one level per such structure inside another."""
        ctor = _added(token.text)
        assert ctor is not None  # the caller looked it up
        reading = {Sort.TYPE: _TYPE, Sort.DTYPE: _DTYPE}.get(ctor.sort, 0)
        # A dtype stands in a type's place too, followed by its size mark (as `L[…]¹`).
        if not reads & (reading | (_TYPE if reading == _DTYPE else 0)) or ctor.labelled:
            raise self.unexpected(token)
        if not ctor.params:
            return _Part(_Node("structure", [ctor, ()]), reading)
        self.expect("[")
        if not ctor.locations or self.locations:
            args = yield self.arguments(ctor, bool(self.locations))
        else:
            end, ahead = self.end, list(self.ahead)
            try:
                args = _run(self.arguments(ctor, True))
            except TypeSyntaxError:
                self.end, self.ahead = end, ahead
                args = _run(self.arguments(ctor, False))
        return _Part(_Node("structure", args), reading)

    def arguments(self, ctor: Constructor, located: bool) -> _Step:
        """`arg, …]` of a structure, each as its param's sort says; location arguments only if
        `located`. The node's arguments: the constructor, the positions read, their nodes."""
        positions = tuple(i for i in range(len(ctor.params)) if located or i not in ctor.locations)
        nodes: list[Any] = []
        for n, i in enumerate(positions):
            if n:
                self.expect(",")
            sort = ctor.params[i]
            if sort is Sort.TYPE or sort is Sort.DTYPE:
                nodes.append((yield self.term(_TYPE if sort is Sort.TYPE else _DTYPE)).node)
            elif sort is Sort.LOC:
                token = self.take()
                if token.kind not in ("VAR", "NAME"):
                    raise self.unexpected(token, "NAME")
                nodes.append(self.location(token))
            elif sort is Sort.LENGTH:
                nodes.append(self.length())
            elif sort is Sort.SKIP:
                nodes.append(self.skip())
            elif sort is Sort.KIND or sort is Sort.SIZE:
                token = self.take()
                if token.kind == "VAR":
                    nodes.append(_Node("sorted_var", [token.text, sort]))
                elif token.kind == "NAME" and _constant_of(token.text, sort) is not None:
                    nodes.append(_Node("named_constant", [token.text, sort]))
                else:
                    raise self.unexpected(token)
            else:
                raise TypeSyntaxError(
                    f"{ctor.name}: an argument that is a {sort.value} is not readable"
                    f" in {echoed(self.text, self.peek().start)}"
                )
        self.expect("]")
        return [ctor, positions, *nodes]

    def rows(self, first: _Node) -> _Node:
        """The `…)` of a row of values or lists, and the number of its dtype row."""
        self.take()
        self.expect(")")
        if first.method == "list_row":
            return first
        token = self.take()
        if token.kind not in ("SUB", "INT"):  # `)₀`, or `)0` in the ASCII spelling
            raise self.unexpected(token, "SUB")
        return _Node("value_row", [first, token.text])

    def tail(self) -> _Node:
        """The row after `(…):(`: only a row of values or lists can stand there."""
        token = self.take()
        word = token.text if token.kind == "NAME" else None
        if word == "T":
            first = _Node("row_of_values", [self.expect("SIZE").text])
        elif word == "It":
            self.expect("[")
            token = self.take()
            if token.kind not in ("VAR", "NAME"):
                raise self.unexpected(token, "NAME")
            if token.text == "T" and self.peek().kind == "SIZE":
                first = _Node("row_of_iterators", [self.take().text])
                self.expect("]")
            elif self.peek().kind == ",":
                self.take()
                first = self.located_row(self.location(token))
            else:
                raise self.unexpected(self.peek())
        elif token.kind == "ITORVAL":
            self.expect("[")
            self.keyword("T")
            first = _Node("row_of_either", [token.text, self.expect("SIZE").text])
            self.expect("]")
        elif word == "L":
            self.expect("[")
            first = self.list_row()
        else:
            raise self.unexpected(token, "T", "It", "L")
        self.expect(",")
        if self.peek().kind != "…":
            raise self.unexpected(self.peek(), "…")
        return self.rows(first)

    def located_row(self, current: _Node) -> _Node:
        """`…₃, T¹]` of `It[T₂, …₃, T¹]`."""
        defined = self.expect("ELLIPSIS_ROW").text
        self.expect(",")
        self.keyword("T")
        size = self.expect("SIZE").text
        self.expect("]")
        return _Node("row_of_located_iterators", [current, defined, size])

    def iterator(self, first: bool) -> _Step:
        """`It[…]` after its `[`: `It[d¹]`, `It[cur, def, d¹]`, or, first in a group, the first
        of a row of iterators `It[T¹]` or `It[cur, …₃, T¹]`."""
        if self.peek().kind in ("VAR", "NAME") and self.peek(1).kind == ",":
            current = self.location(self.take())
            self.take()
            if first and self.peek().kind == "ELLIPSIS_ROW":
                return _Part(None, _TYPE, row=self.located_row(current), only_row=True)
            located = yield self.located(current)
            return _Part(_Node("located_iterator", located), _TYPE)
        dtype = yield self.term(_DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        row_item = _Node("row_of_iterators", [size]) if first and dtype.bare_t else None
        return _Part(_Node("iterator", [dtype.node, size]), _TYPE, row=row_item)

    def located(self, current: _Node) -> _Step:
        """`def, d¹]` after `It[cur,` or `ItOrVal₀[cur,`: the parts of the located node."""
        token = self.take()
        if token.kind not in ("VAR", "NAME"):
            raise self.unexpected(token, "NAME")
        defined = self.location(token)
        self.expect(",")
        dtype = yield self.term(_DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        return [current, defined, dtype.node, size]

    def it_or_val(self, kind: str, first: bool) -> _Step:
        """`ItOrVal₀[d¹]` or, with its locations, `ItOrVal₀[cur, def, d¹]`, after its name."""
        self.expect("[")
        if self.peek().kind in ("VAR", "NAME") and self.peek(1).kind == ",":
            current = self.location(self.take())
            self.take()
            located = yield self.located(current)
            return _Part(_Node("located_it_or_val", [kind, *located]), _TYPE)
        dtype = yield self.term(_DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        row_item = _Node("row_of_either", [kind, size]) if first and dtype.bare_t else None
        return _Part(_Node("it_or_val", [kind, dtype.node, size]), _TYPE, row=row_item)

    def list_dtype(self, first: bool) -> _Step:
        """`L[d, n, k]` after its `[`, or, first in a group, `L[…₀, n, k]¹` of a row of lists."""
        if first and self.peek().kind == "ELLIPSIS_ROW":
            return _Part(None, _TYPE, row=self.list_row(), only_row=True)
        dtype = yield self.term(_DTYPE)
        self.expect(",")
        length = self.length()
        self.expect(",")
        skip = self.skip()
        self.expect("]")
        return _Part(_Node("list", [dtype.node, length, skip]), _DTYPE)

    def list_row(self) -> _Node:
        """`…₀, n, k]¹` of `(L[…₀, n, k]¹, …)`."""
        dtypes = self.expect("ELLIPSIS_ROW").text
        self.expect(",")
        length = self.length()
        self.expect(",")
        skip = self.skip()
        self.expect("]")
        return _Node("list_row", [dtypes, length, skip, self.expect("SIZE").text])

    def location(self, token: _Token) -> _Node:
        return _Node("location_var" if token.kind == "VAR" else "location", [token.text])

    def length(self) -> _Node:
        token = self.take()
        if token.kind not in ("VAR", "INT"):
            raise self.unexpected(token)
        return _Node("length_var" if token.kind == "VAR" else "length", [token.text])

    def skip(self) -> _Node:
        token = self.take()
        if token.kind == "VAR":
            return _Node("skip_var", [token.text])
        if token.kind == "NAME" and token.text in ("True", "False"):
            return _Node(f"skip_{token.text.lower()}", [])
        raise self.unexpected(token, "True", "False")


def _added(name: str) -> Constructor | None:
    """The constructor `name` if one was added from outside the core (it has the generic
    notation), else None."""
    ctor = CONSTRUCTORS.get(name)
    return None if ctor is None or ctor in CORE else ctor


def _constant_of(name: str, sort: Sort) -> Cell | None:
    """The constant without a label of that name and sort (`Iterator`, `Column`), if any."""
    ctor = CONSTRUCTORS.get(name)
    if ctor is None or ctor.sort is not sort or ctor.params or ctor.labelled:
        return None
    return constant(ctor)


def _build(tree: _Node, builder: CellBuilder) -> Any:
    """The value of `tree`: each node's parts built before it, left to right (the order in which
    variables are met decides which sort a conflict names first), without recursion."""
    built: list[Any] = []
    stack: list[tuple[_Node, bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if not ready:
            stack.append((node, True))
            stack.extend((arg, False) for arg in reversed(node.args) if type(arg) is _Node)
            continue
        count = sum(type(arg) is _Node for arg in node.args)
        parts = iter(built[len(built) - count :])
        del built[len(built) - count :]
        args = [next(parts) if type(arg) is _Node else arg for arg in node.args]
        built.append(getattr(builder, node.resolved())(*args))
    return built[0]


def subscript_number(text: str) -> int:
    digits = "".join(_DIGITS[c] for c in text if c in _DIGITS)
    try:
        return int(digits)
    except ValueError:  # more digits than `int` reads
        raise TypeSyntaxError(f"a number of {len(digits)} digits") from None


class CellBuilder:
    """The cells of each production (the `_Node.method`s)."""

    def __init__(self, located: bool) -> None:
        self.located = located
        self.variables: dict[int, Cell] = {}
        #: The locations of the `ItOrVal`s of each kind written without them, by the kind's number.

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

    def fresh_locations(self) -> tuple[Cell, Cell]:
        """An `It[d¹]`'s locations: `ANYWHERE` in GT4Py's located notation; in any other text
        (the compact notation, which writes no location) two fresh variables of its own."""
        if self.located:
            return ANYWHERE, ANYWHERE
        return var(Sort.LOC), var(Sort.LOC)

    def size(self, text: str) -> Cell:
        if text in ("ᶜ", _COLUMN):
            return COLUMN
        if text in ("ˢ", _SCALAR):
            return SCALAR
        return self.variable(text, Sort.SIZE)

    # -- programs ---------------------------------------------------------------------------------
    def typed(self, type_: Cell, families: list[tuple[str, str]]) -> Cell:
        self.restrict(families)
        return type_

    def definition(self, name: str, type_: Cell, families: list[tuple[str, str]]) -> DefinitionType:
        self.restrict(families)
        return DefinitionType(name, type_)

    def closure(self, inputs: Cell, output: Cell, families: list[tuple[str, str]]) -> ClosureType:
        self.restrict(families)
        items, tail = row_items(inputs)
        if tail is not T_EMPTY:
            raise TypeSyntaxError("a closure's inputs are a tuple")
        return ClosureType(tuple(items), output)

    def fencil(self, name: str, names: list[str], *parts: Any) -> FencilType:
        """The definitions' types, then the fencil's parameter types, then the `where` clause."""
        *types, families = parts
        self.restrict(families)
        definitions = tuple(DefinitionType(n, t) for n, t in zip(names, types, strict=False))
        return FencilType(name, definitions, tuple(types[len(names) :]))

    def restrict(self, families: list[tuple[str, str]]) -> None:
        for variable, name in families:
            if name not in FAMILIES:
                raise TypeSyntaxError(
                    f"unknown family {name!r}; expected one of: " + ", ".join(sorted(FAMILIES))
                )
            root = find(self.variable(variable, Sort.DTYPE))
            root.family = FAMILIES[name]

    # -- types ------------------------------------------------------------------------------------
    def fun(self, args: Cell, ret: Cell) -> Cell:
        root = find(args)
        if root.ctor is None:
            sort = sort_meet(root.sort, Sort.TROW)
            if sort is None:
                raise TypeSyntaxError("a function's arguments must be a tuple")
            root.sort = sort
        elif root.sort is not Sort.TROW:
            raise TypeSyntaxError("a function's arguments must be a tuple")
        return make(FUN, args, ret)

    def type_var(self, text: str) -> Cell:
        return self.variable(text, Sort.TYPE)

    def row_var(self, text: str) -> Cell:
        return self.variable(text, Sort.TROW)

    def args(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items), T_EMPTY)

    def args_with_tail(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items[:-1]), items[-1])

    def plain_value(self, dtype: Cell, size: str) -> Cell:
        return val(VALUE, dtype, self.size(size))

    def iterator(self, dtype: Cell, size: str) -> Cell:
        return val(ITERATOR, dtype, self.size(size), *self.fresh_locations())

    def located_iterator(self, current: Cell, defined: Cell, dtype: Cell, size: str) -> Cell:
        return val(ITERATOR, dtype, self.size(size), current, defined)

    def it_or_val(self, kind: str, dtype: Cell, size: str) -> Cell:
        """`ItOrValₖ[d¹]`: at two fresh locations of its own (neither notation writes them)."""
        kind_var = self.variable(kind, Sort.KIND)
        return val(kind_var, dtype, self.size(size), var(Sort.LOC), var(Sort.LOC))

    def located_it_or_val(
        self, kind: str, current: Cell, defined: Cell, dtype: Cell, size: str
    ) -> Cell:
        return val(self.variable(kind, Sort.KIND), dtype, self.size(size), current, defined)

    # -- dtypes -----------------------------------------------------------------------------------
    def dtype_var(self, text: str) -> Cell:
        return self.variable(text, Sort.DTYPE)

    def drow_var(self, text: str) -> Cell:
        return self.variable(text, Sort.DROW)

    def primitive(self, name: str) -> Cell:
        if name not in PRIMITIVES | SPECIAL_DTYPES:
            raise TypeSyntaxError(f"unknown dtype {name!r}")
        return prim(name)

    def dtype_tuple(self, *items: Cell) -> Cell:
        return row(DTUPLE, list(items), D_EMPTY)

    def dtype_tuple_with_tail(self, *items: Cell) -> Cell:
        return row(DTUPLE, list(items[:-1]), items[-1])

    def list(self, dtype: Cell, length: Cell, skip: Cell) -> Cell:
        return make(LIST, dtype, length, skip)

    def length_var(self, text: str) -> Cell:
        return self.variable(text, Sort.LENGTH)

    def length(self, text: str) -> Cell:
        try:
            return constant(LENGTH, int(text))
        except ValueError:  # more digits than `int` reads
            raise TypeSyntaxError(f"a list length of {len(text)} digits") from None

    def skip_var(self, text: str) -> Cell:
        return self.variable(text, Sort.SKIP)

    def skip_true(self) -> Cell:
        return constant(SKIP, True)

    def skip_false(self) -> Cell:
        return constant(SKIP, False)

    def location_var(self, text: str) -> Cell:
        return self.variable(text, Sort.LOC)

    def location(self, name: str) -> Cell:
        return loc(name)

    # -- constructors added from outside the core ------------------------------------------------
    def structure(self, ctor: Constructor, positions: tuple[int, ...], *args: Cell) -> Cell:
        """A structure of `ctor` of the arguments read at `positions`; a location left out (in
        the compact notation) is a fresh variable, as an iterator's is (`ANYWHERE` if located)."""
        if not ctor.params:
            return constant(ctor)
        read = dict(zip(positions, args, strict=True))
        anywhere = ANYWHERE if self.located else None
        return make(
            ctor,
            *(read[i] if i in read else anywhere or var(s) for i, s in enumerate(ctor.params)),
        )

    def sorted_var(self, text: str, sort: Sort) -> Cell:
        return self.variable(text, sort)

    def named_constant(self, name: str, sort: Sort) -> Cell:
        cell = _constant_of(name, sort)
        assert cell is not None  # the reader checked the name
        return cell

    # -- rows of values and lists -----------------------------------------------------------------
    def value_row(self, item: tuple[Cell, Cell, Cell, Cell], dtypes: str) -> Cell:
        kind, size, current, defined = item
        return make(VALTUPLE, kind, self.variable(dtypes, Sort.DROW), size, current, defined)

    def row_of_values(self, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (VALUE, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_iterators(self, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_located_iterators(
        self, current: Cell, defined: str, size: str
    ) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), current, self.variable(defined, Sort.LROW))

    def row_of_either(self, kind: str, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (self.variable(kind, Sort.KIND), self.size(size), var(Sort.LOC), var(Sort.LROW))

    def list_row(self, dtypes: str, length: Cell, skip: Cell, size: str) -> Cell:
        return make(
            VALLISTTUPLE, VALUE, self.variable(dtypes, Sort.DROW), length, skip, self.size(size)
        )
