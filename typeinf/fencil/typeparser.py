"""The descent that reads the types of type text (`typetokens` cuts it) into their syntax
(`typesyntax.Node`, which `cellbuilder` builds into cells): types, dtypes, the rows of values and
lists, and the structures of constructors added from outside the core. The text around a type (a
definition, a closure, a fencil, the `where` clause) is `reader`'s.

A type has this grammar (docs/notation.md), `T`, `It`, `L`, `True` and `False` written as they
are:

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

A group's items are read before what it is is known: `(T₀, T₁)` is an argument tuple, `(T₀, T₁)¹`
a value of a dtype tuple, `((T₀, T₁), T₂)¹` makes the inner group a dtype tuple too
(`typesyntax.Choice`).
"""

from __future__ import annotations

from typing import Any

from typeinf.core.constructors import Constructor
from typeinf.core.terms import Sort
from typeinf.core.typetokens import Token, TypeSyntaxError, TypeTokens, echoed
from typeinf.fencil.constructors import CONSTRUCTORS, OWN_NOTATION
from typeinf.fencil.typesyntax import DTYPE, TYPE, Choice, Node, Part, Step, run

_ROWS = 4  # a group that may still be a row of values or lists, `(It[T¹], …)₀` (beside TYPE, DTYPE)


def _added(name: str) -> Constructor | None:
    """The constructor `name` if one was added from outside the core (it has the generic
    notation), else None."""
    ctor = CONSTRUCTORS.get(name)
    return None if ctor is None or ctor in OWN_NOTATION else ctor


def _constant_of(name: str, sort: Sort) -> Constructor | None:
    """The constructor of the constant without a label of that name and sort (`Iterator`,
    `Column`), if any."""
    ctor = CONSTRUCTORS.get(name)
    if ctor is None or ctor.sort is not sort or ctor.params or ctor.labelled:
        return None
    return ctor


class RowParser(TypeTokens):
    """The parts of a type that hold no type: a location, a list length, a skip flag, and the
    rows of values and lists (`(It[T¹], …)₀`, `(L[…₀, n, k]¹, …)`), whose items are written
    with `T` alone."""

    def location(self, token: Token) -> Node:
        return Node("location_var" if token.kind == "VAR" else "location", [token.text])

    def length(self) -> Node:
        token = self.take()
        if token.kind not in ("VAR", "INT"):
            raise self.unexpected(token)
        return Node("length_var" if token.kind == "VAR" else "length", [token.text])

    def skip(self) -> Node:
        token = self.take()
        if token.kind == "VAR":
            return Node("skip_var", [token.text])
        if token.kind == "NAME" and token.text in ("True", "False"):
            return Node(f"skip_{token.text.lower()}", [])
        raise self.unexpected(token, "True", "False")

    def located_row(self, current: Node) -> Node:
        """`…₃, T¹]` of `It[T₂, …₃, T¹]`."""
        defined = self.expect("ELLIPSIS_ROW").text
        self.expect(",")
        self.keyword("T")
        size = self.expect("SIZE").text
        self.expect("]")
        return Node("row_of_located_iterators", [current, defined, size])

    def list_row(self) -> Node:
        """`…₀, n, k]¹` of `(L[…₀, n, k]¹, …)`."""
        dtypes = self.expect("ELLIPSIS_ROW").text
        self.expect(",")
        length = self.length()
        self.expect(",")
        skip = self.skip()
        self.expect("]")
        return Node("list_row", [dtypes, length, skip, self.expect("SIZE").text])

    def rows(self, first: Node) -> Node:
        """The `…)` of a row of values or lists, and the number of its dtype row."""
        self.take()
        self.expect(")")
        if first.method == "list_row":
            return first
        token = self.take()
        if token.kind not in ("SUB", "INT"):  # `)₀`, or `)0` in the ASCII spelling
            raise self.unexpected(token, "SUB")
        return Node("value_row", [first, token.text])

    def tail(self) -> Node:
        """The row after `(…):(`: only a row of values or lists can stand there."""
        token = self.take()
        word = token.text if token.kind == "NAME" else None
        if word == "T":
            first = Node("row_of_values", [self.expect("SIZE").text])
        elif word == "It":
            self.expect("[")
            token = self.take()
            if token.kind not in ("VAR", "NAME"):
                raise self.unexpected(token, "NAME")
            if token.text == "T" and self.peek().kind == "SIZE":
                first = Node("row_of_iterators", [self.take().text])
                self.expect("]")
            elif self.peek().kind == ",":
                self.take()
                first = self.located_row(self.location(token))
            else:
                raise self.unexpected(self.peek())
        elif token.kind == "ITORVAL":
            self.expect("[")
            self.keyword("T")
            first = Node("row_of_either", [token.text, self.expect("SIZE").text])
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


class TypeParser(RowParser):
    """The descent over the types of one text, with one or two tokens of look-ahead; each step
    (`Step`) is run by `typesyntax.run`."""

    def __init__(self, text: str, locations: bool | None = None) -> None:
        super().__init__(text)
        self.locations = locations  # the notation, if the caller says which

    def term(self, reads: int, first: bool = False, outer: Choice | None = None) -> Step:
        """A type or dtype (`reads`; both inside a group not known to be either, whose choice
        is `outer`), `first` of its group: then it may be the first item of a row."""
        functions: list[Node] = []  # the parameters of `a → b → c`, which nests to the right
        while True:
            token = self.take()
            if token.kind == "VAR":
                choice = Choice()
                part = Part(
                    Node(None, [token.text], ("type_var", "dtype_var"), choice),
                    TYPE | DTYPE,
                    choice,
                )
            elif (
                token.kind == "NAME"
                and self.peek().kind == "["
                and (token.text == "L" or (token.text == "It" and reads & TYPE))
            ):
                self.take()
                part = yield (self.list_dtype(first) if token.text == "L" else self.iterator(first))
                if part.only_row:
                    return part
            elif token.kind == "NAME" and _added(token.text) is not None:
                part = yield self.structure(token, reads)
            elif token.kind == "NAME":
                part = Part(Node("primitive", [token.text]), DTYPE, bare_t=token.text == "T")
            elif token.kind == "ITORVAL" and reads & TYPE:
                part = yield self.it_or_val(token.text, first)
            elif token.kind == "(":
                part = yield self.group(reads)
            else:
                raise self.unexpected(token, "NAME")
            if reads & TYPE and part.reads & DTYPE and self.peek().kind == "SIZE":
                part.decide(DTYPE)
                size = self.take().text
                row_item = Node("row_of_values", [size]) if first and part.bare_t else None
                part = Part(Node("plain_value", [part.node, size]), TYPE, row=row_item)
            reads &= part.reads
            if not reads:
                raise self.unexpected(self.peek())
            if not reads & TYPE or self.peek().kind != "→":
                break
            self.take()
            part.decide(TYPE)
            assert part.node is not None  # only a row, returned above, has no node
            functions.append(part.node)
            reads, first, outer = TYPE, False, None
        part.decide(reads, outer)
        if functions:
            node = part.node
            for parameters in reversed(functions):
                node = Node("fun", [parameters, node])
            return Part(node, TYPE)
        part.reads = reads
        return part

    def group(self, reads: int) -> Step:
        """`(…)` after its `(`: arguments, a dtype tuple, or a row of values or lists; which is
        known from its items and from what follows it."""
        roles = TYPE | DTYPE | _ROWS if reads & TYPE else DTYPE
        choice = Choice(None if roles & TYPE else DTYPE)
        items: list[object] = []
        closed = self.peek().kind == ")"
        if closed:
            self.take()
        while not closed:
            item = yield self.term(roles & (TYPE | DTYPE), bool(roles & _ROWS), choice)
            token = self.take()
            if item.row is not None and token.kind == ",":
                after = self.peek()
                if after.kind == "…":
                    return Part(self.rows(item.row), TYPE)
                if item.only_row or after.kind == "ELLIPSIS_ROW":
                    raise self.unexpected(after, "…")
            elif item.only_row:
                raise self.unexpected(token)
            items.append(item.node)
            roles &= item.reads
            if roles != TYPE | DTYPE:
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
                items.append(Node(None, [token.text], ("row_var", "drow_var"), choice))
            elif token.kind == "(" and roles & TYPE:
                roles = choice.reading = TYPE
                items.append(self.tail())
            else:
                raise self.unexpected(token)
            methods = ("args_with_tail", "dtype_tuple_with_tail")
        else:
            methods = ("args", "dtype_tuple")
        return Part(Node(None, items, methods, choice), roles & (TYPE | DTYPE), choice)

    def structure(self, token: Token, reads: int) -> Step:
        """A structure of a constructor added from outside the core, after its name: `Name` or
        `Name[arg, …]`. With location arguments, unless `locations=True`: located if that
        reads, else as compact: each attempt is its own descent (`run`), so these nest on
        Python's stack, one level per such structure inside another."""
        ctor = _added(token.text)
        assert ctor is not None  # the caller looked it up
        reading = {Sort.TYPE: TYPE, Sort.DTYPE: DTYPE}.get(ctor.sort, 0)
        # A dtype stands in a type's place too, followed by its size mark (as `L[…]¹`).
        if not reads & (reading | (TYPE if reading == DTYPE else 0)) or ctor.labelled:
            raise self.unexpected(token)
        if not ctor.params:
            return Part(Node("structure", [ctor, ()]), reading)
        self.expect("[")
        if not ctor.locations or self.locations:
            args = yield self.arguments(ctor, bool(self.locations))
        else:
            mark = self.mark()
            try:
                args = run(self.arguments(ctor, True))
            except TypeSyntaxError:
                self.rewind(mark)
                args = run(self.arguments(ctor, False))
        return Part(Node("structure", args), reading)

    def arguments(self, ctor: Constructor, located: bool) -> Step:
        """`arg, …]` of a structure, each as its param's sort says; location arguments only if
        `located`. The node's arguments: the constructor, the positions read, their nodes."""
        positions = tuple(i for i in range(len(ctor.params)) if located or i not in ctor.locations)
        nodes: list[Any] = []
        for n, i in enumerate(positions):
            if n:
                self.expect(",")
            sort = ctor.params[i]
            if sort is Sort.TYPE or sort is Sort.DTYPE:
                nodes.append((yield self.term(TYPE if sort is Sort.TYPE else DTYPE)).node)
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
                    nodes.append(Node("sorted_var", [token.text, sort]))
                elif token.kind == "NAME" and (named := _constant_of(token.text, sort)) is not None:
                    nodes.append(Node("named_constant", [named]))
                else:
                    raise self.unexpected(token)
            else:
                raise TypeSyntaxError(
                    f"{ctor.name}: an argument that is a {sort.value} is not readable"
                    f" in {echoed(self.text, self.peek().start)}"
                )
        self.expect("]")
        return [ctor, positions, *nodes]

    def iterator(self, first: bool) -> Step:
        """`It[…]` after its `[`: `It[d¹]`, `It[cur, def, d¹]`, or, first in a group, the first
        of a row of iterators `It[T¹]` or `It[cur, …₃, T¹]`."""
        if self.peek().kind in ("VAR", "NAME") and self.peek(1).kind == ",":
            current = self.location(self.take())
            self.take()
            if first and self.peek().kind == "ELLIPSIS_ROW":
                return Part(None, TYPE, row=self.located_row(current), only_row=True)
            located = yield self.located(current)
            return Part(Node("located_iterator", located), TYPE)
        dtype = yield self.term(DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        row_item = Node("row_of_iterators", [size]) if first and dtype.bare_t else None
        return Part(Node("iterator", [dtype.node, size]), TYPE, row=row_item)

    def located(self, current: Node) -> Step:
        """`def, d¹]` after `It[cur,` or `ItOrVal₀[cur,`: the parts of the located node."""
        token = self.take()
        if token.kind not in ("VAR", "NAME"):
            raise self.unexpected(token, "NAME")
        defined = self.location(token)
        self.expect(",")
        dtype = yield self.term(DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        return [current, defined, dtype.node, size]

    def it_or_val(self, kind: str, first: bool) -> Step:
        """`ItOrVal₀[d¹]` or, with its locations, `ItOrVal₀[cur, def, d¹]`, after its name."""
        self.expect("[")
        if self.peek().kind in ("VAR", "NAME") and self.peek(1).kind == ",":
            current = self.location(self.take())
            self.take()
            located = yield self.located(current)
            return Part(Node("located_it_or_val", [kind, *located]), TYPE)
        dtype = yield self.term(DTYPE)
        size = self.expect("SIZE").text
        self.expect("]")
        row_item = Node("row_of_either", [kind, size]) if first and dtype.bare_t else None
        return Part(Node("it_or_val", [kind, dtype.node, size]), TYPE, row=row_item)

    def list_dtype(self, first: bool) -> Step:
        """`L[d, n, k]` after its `[`, or, first in a group, `L[…₀, n, k]¹` of a row of lists."""
        if first and self.peek().kind == "ELLIPSIS_ROW":
            return Part(None, TYPE, row=self.list_row(), only_row=True)
        dtype = yield self.term(DTYPE)
        self.expect(",")
        length = self.length()
        self.expect(",")
        skip = self.skip()
        self.expect("]")
        return Part(Node("list", [dtype.node, length, skip]), DTYPE)
