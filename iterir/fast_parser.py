"""The fast path of the fencil IR's text parser: one regular expression's tokens read by a
hand-written, iterative parser of the same grammar (grammar.lark).

Lark's LALR parser spends several µs of Python per token (its lexer's bookkeeping, a `Token`
per token, a reduction per grammar level); this path much less, and reads fewer tokens (see
`tokens`; benchmarks/end_to_end.py's `lark/parse` compares the two). It builds every node
through the very callbacks lark calls (iterir/node_building.py), so nodes and spans are the
same; and it only vouches for the text it fully understands: at anything else (an error, an
annotation, a keyword used as a name, a `-` glued to a number) it raises `Unsure`, and lark
parses the text from the start, with its located errors.

The tokens are lark's: one regular expression reads at each position the token lark's lexer
reads there with all of its terminals, and a token is taken only where the grammar takes its
type, which is where lark's contextual lexer (which tries only those terminals) would have
produced that same token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast

from iterir.node_building import Callbacks
from iterir.nodes import Node


class Unsure(Exception):
    """The fast path cannot vouch for this text: lark's parser decides."""


class Tok(NamedTuple):
    """A token, with the attributes of lark's `Token` that the callbacks read."""

    type: str
    value: str
    line: int
    column: int
    end_line: int
    end_column: int


#: The terminals of grammar.lark in one expression, written so that at every position it reads
#: the token lark's lexer reads there (tests/test_fast_parser.py compares the two on random text):
#: lark tries its terminals in turn (priority, then longest possible match), which re-reads a name
#: three times (as an offset, an axis, then a name); here a name is read once, and the `ₒ` or `ₐ`
#: after it makes it an offset or an axis. Each token's kind is the name of the last group it
#: closes (`lastgroup`): an empty group after a punctuation mark, so that the alternative starts
#: with its character, which the regex engine rejects at once. Keywords are the names that lark
#: renames (`if`, `then`, `else`, `λ`), and spaces are read as runs (`[…]++`), not one by one. Any
#: other character is `_BAD`, the end `END`. Lexing is the larger part of the fast path's time:
#: lark's terminals in lark's order would lex each name three times.
_PLAIN = r"[^\W\dₒₐ][^\Wₒₐ]*+"
_NAME = _PLAIN + r"|`(?:[^`\\\n]|\\.)*+`"
#: A plain name that is not a keyword.
_WORD = r"(?!(?:if|then|else|λ)(?!\w))[^\W\dₒₐ][^\Wₒₐ]*+"
#: After a name: nothing that would make it part of a larger operand (a call, a subscript, a
#: range, an offset or axis mark, `⟨` after `c` or `u`, or a comment that may hide one of those).
_ALONE = r"(?![ₒₐ⟨]|[ \t\f\r\n]*+[(\[:#])"
#: A shift's list of offset literals on one line, spaces aside (`⟪Iₒ, -1ₒ⟫`, as every stencil
#: writes them): one `SHIFTS` token, its offsets read by `inner_tokens`, not 2 tokens an offset
#: through the parser's loop.
_OFFSET = rf"(?:{_PLAIN}|-?\d++)ₒ[ \t]*+"
_SHIFT_LIST = rf"[ \t]*+{_OFFSET}(?:,[ \t]*+{_OFFSET})*+⟫"
#: A name in parentheses right after a shift (`⟪Iₒ, 1ₒ⟫(x)`, an iterator shifted): with the shift,
#: a `SHIFTED` token, not 4 through the parser's loop.
_APPLIED = rf"\([ \t]*+{_WORD}[ \t]*+\)"
_SHIFTS = rf"(?:{_SHIFT_LIST}(?:{_APPLIED}(?P<SHIFTED>)|(?P<SHIFTS>))|(?P<LSHIFT>))"
#: A named range whose bounds are plain names or digits, on one line (`IDim: [0, n)`, as every
#: closure's domain writes them): one `RANGE` token (its parts read by `range_parts`), not 7
#: through the parser's loop.
_BOUND = rf"[ \t]*+(?:\d++|{_WORD})[ \t]*+"
_RANGE_BODY = rf"[ \t]*+:[ \t]*+\[{_BOUND},{_BOUND}\)"
_RANGE_TAIL = rf"{_RANGE_BODY}(?P<RANGE>)"
#: A domain of such ranges with plain names (`c⟨ IDim: [0, n), JDim: [0, m) ⟩`, as every closure
#: writes it): one `CDOMAIN` or `UDOMAIN` token, not 5 through the parser's loop.
_DOMAIN_RANGE = rf"[ \t]*+{_WORD}{_RANGE_BODY}[ \t]*+"
_RANGES = rf"{_DOMAIN_RANGE}(?:,{_DOMAIN_RANGE})*+"
#: A range in a `CDOMAIN` or `UDOMAIN` token.
_RANGE_IN = re.compile(rf"{_WORD}{_RANGE_BODY}")
#: Operators each followed by a plain name (`+ b - c`, over lines too), where nothing follows the
#: name that joins it (`_ALONE`): one `CHAIN` token (its parts read by `chain_parts`), not 2
#: tokens an operator through the parser's loop.
#: The one-character operators, in a character class (`_OP`, and what parts a `CHAIN`).
_OP_CHARS = r"∨∧<>+\-×/"
_OP = rf"(?:==|[{_OP_CHARS}])"
_CHAIN_STEP = rf"[ \t\n]*+{_WORD}{_ALONE}"
#: A λ's parameters and arrow on one line, spaces aside (`λ(a, b) →`): one `LAMBDAS` token, not
#: 2 a parameter through the parser's loop.
_PARAM = rf"[ \t]*+{_WORD}[ \t]*+"
_LAMBDAS = rf"(?:\((?:{_PARAM}(?:,{_PARAM})*+|[ \t]*+)\)[ \t]*+→(?P<LAMBDAS>)|(?!\w)(?P<LAMBDA>))"
#: After a name's `(`: more of them over spaces and lines (`HEADS`), if the first name is plain (not
#: quoted: no `(` in it) and the others are plain names but keywords; else the one (`HEAD`).
_HEADS = rf"(?:(?<!`\()(?:[ \t\f\r\n]*+(?!(?:if|then|else|λ)\(){_PLAIN}\()++(?P<HEADS>)|(?P<HEAD>))"
_SUFFIXES = r"(?:i16|i32|i64|i8|u16|u32|u64|u8|f32|f64|b)"
_TOKEN = re.compile(
    r"((?:[ \t\f\r\n]++|#[^\n]*+)*+)(?:"
    + "|".join(
        [
            rf"c⟨(?:{_RANGES}⟩(?P<CDOMAIN>)|(?P<CDOM>))",
            rf"u⟨(?:{_RANGES}⟩(?P<UDOMAIN>)|(?P<UDOM>))",
            r"if(?!\w)(?P<IF>)",
            r"then(?!\w)(?P<THEN>)",
            r"else(?!\w)(?P<ELSE>)",
            r"λ" + _LAMBDAS,
            rf"(?:(?P<NAME>{_NAME})|-?\d++(?=ₒ))(?:ₒ(?P<OFFSET>)|ₐ(?P<AXIS>)|\({_HEADS}|{_RANGE_TAIL})?",
            rf"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?{_SUFFIXES}?(?P<NUMBER>)",
            rf'"(?:[^"\\\n]|\\.)*"{_SUFFIXES}(?P<QLITERAL>)',
            r"\((?P<LPAR>)",
            r"\)(?:(?:[ \t\f\r\n]*+\))++(?P<RPARS>)|(?P<RPAR>))",
            r",(?P<COMMA>)",
            rf"{_OP}(?:{_CHAIN_STEP}(?:[ \t\n]*+{_OP}{_CHAIN_STEP})*(?P<CHAIN>)|(?P<INFIX>))",
            r"[·¬↑](?P<PREFIX>)",
            r"→(?P<ARROW>)",
            r"⟪" + _SHIFTS,
            r"⟫(?P<RSHIFT>)",
            r"\[(?P<LSQB>)",
            r"\](?P<RSQB>)",
            r"\{(?P<LBRACE>)",
            r"\}(?P<RBRACE>)",
            r"⟩(?P<RANGLE>)",
            r";(?P<SEMI>)",
            r":(?P<COLON>)",
            r"=(?P<ASSIGN>)",
            r"@(?P<AT>)",
            r"←(?P<LARROW>)",
            r"[\s\S](?P<_BAD>)",
            r"\Z(?P<END>)",
        ]
    )
    + ")"
)


def tokens(text: str) -> Iterator[Tok]:
    """The tokens of `text`, positioned as lark positions them, then `END` (after spaces, twice:
    the parser stops at the first). Some kinds are several of lark's tokens, read in one match
    because a program is full of them and every token through the parser's loop costs Python
    work: `HEAD`, a name and the `(` right after it; `HEADS` and `RPARS`, runs of `name(` and of
    `)` (`split` parts these three where the parser meets them out of its hot paths); `CHAIN`, operators each with a name after it; and,
    on one line each, `LAMBDAS` (`λ(a, b) →`), `SHIFTS` (`⟪Iₒ, 1ₒ⟫`), `SHIFTED` (`⟪Iₒ, 1ₒ⟫(x)`),
    `RANGE` (`IDim: [0, n)`) and `CDOMAIN` or `UDOMAIN` (`c⟨ IDim: [0, n) ⟩`). Runs and chains
    take in the spaces and line breaks between (they are the only tokens that may span lines).
    Runs of `name(` and of `)` are what nested calls, as printed (each `f(` and each `)` on its line),
    are made of. An operator with its name as one token (`+ x1`), and a prefix operator with
    its name or shifted name (`·a`, `·⟪Iₒ⟫(x)`), gained nothing: the parser parted them again."""
    new = tuple.__new__  # a Tok without NamedTuple's Python-level __new__, for every token
    count, rfind = text.count, text.rfind
    line, line_start, end = 1, 0, 0
    for match in _TOKEN.finditer(text):
        gap, start = end, match.end(1)  # ignored text, then the token
        end = match.end()
        if gap != start:
            newline = rfind("\n", gap, start)
            if newline >= 0:
                line += count("\n", gap, newline + 1)
                line_start = newline + 1
        column = start - line_start + 1
        # The kind: every alternative closes a named group last.
        kind = match.lastgroup
        if kind in _RUNS:  # it may span lines: its end, and where the next line starts
            newline = rfind("\n", start, end)
            if newline >= 0:
                end_line = line + count("\n", start, newline + 1)
                yield new(Tok, (kind, text[start:end], line, column, end_line, end - newline))
                line, line_start = end_line, newline + 1
                continue
        yield new(Tok, (kind, text[start:end], line, column, line, column + end - start))


#: The kinds of tokens that are several of lark's.
SEVERAL = frozenset(["HEAD", "HEADS", "RPARS"])
#: The kinds of tokens that may span lines.
_RUNS = frozenset(["CHAIN", "HEADS", "RPARS"])


def split(tok: Tok) -> tuple[Tok, Tok]:
    """A token that is several of lark's (`HEAD`, `RPARS`): lark's first, and the rest (a run of
    `)` as `RPARS` while it is two or more, an `RPAR` then). Where the parser meets one where a
    single token is expected; its hot paths (a call's head, a run of `)` closing calls) take them
    apart in place."""
    new = tuple.__new__
    kind, value, line, column, _, end = tok
    if kind == "HEAD":
        first = new(Tok, ("NAME", value[:-1], line, column, line, end - 1))
        return first, new(Tok, ("LPAR", "(", line, end - 1, line, end))
    if kind == "HEADS":  # the first `name(` as a `HEAD`, and the others
        names = _heads(tok)
        head, second = _as_head(names[0]), names[1]
        value = value[value.index("(") + 1 :].lstrip()
        kind = "HEADS" if value.count("(") > 1 else "HEAD"
        rest = (kind, value, second.line, second.column, tok.end_line, tok.end_column)
        return head, new(Tok, rest)
    at = _run_offset(tok)
    first = new(Tok, ("RPAR", ")", line, column, line, column + 1))
    after = value.index(")", at + 1)  # a run has two or more left
    line, column = _past(value[at + 1 : after], line, column + 1)
    return first, _closers(tok, after, line, column)


#: The names or offsets in a `LAMBDAS` or `SHIFTS` token, after its first character.
_INNER = re.compile(r"[^ \t,()⟫→]++")


def inner_tokens(tok: Tok, kind: str, end: int) -> list[Tok]:
    """The parameters (`kind` "NAME") of a `LAMBDAS` token, or the offsets ("OFFSET") of a
    `SHIFTS` or `SHIFTED` token, before the offset `end` in it, as tokens (the token is one line:
    a column is its offset in it)."""
    _, value, line, column, _, _ = tok
    new, tokens = tuple.__new__, []
    for match in _INNER.finditer(value, 1, end):
        piece, start = match.group(), column + match.start()
        tokens.append(new(Tok, (kind, piece, line, start, line, start + len(piece))))
    return tokens


#: The parts of a `RANGE` token: the name (the last `:` ends it), `[`, the bounds, `)`.
_RANGE_PARTS = re.compile(
    r"(.*[^ \t])[ \t]*+:[ \t]*+(\[)[ \t]*+(\S+?)[ \t]*+,[ \t]*+(\S+?)[ \t]*+(\))"
)


def range_parts(tok: Tok) -> list[Tok]:
    """Lark's tokens of `tok`, a `RANGE` token (one line: a column is its offset in it), but for
    `:` and `,`: the name, `[`, the bounds (`NUMBER` if digits, else `NAME`), and `)`."""
    _, value, line, column, _, _ = tok
    match, new = cast("re.Match[str]", _RANGE_PARTS.fullmatch(value)), tuple.__new__
    parts = []
    for group, mark in enumerate(("NAME", "LSQB", "", "", "RPAR"), start=1):
        piece, start = match.group(group), column + match.start(group)
        kind = mark or ("NUMBER" if piece[0].isdecimal() else "NAME")
        parts.append(new(Tok, (kind, piece, line, start, line, start + len(piece))))
    return parts


#: The pieces of a `CHAIN` token, operators and names in turn: each as its line breaks (and the
#: spaces before them), its spaces, and its text.
_CHAIN_PIECE = re.compile(rf"((?:[ \t]*+\n)*+)([ \t]*+)({_OP}|[^ \t\n={_OP_CHARS}]++)")


def chain_parts(tok: Tok) -> list[Tok]:
    """Lark's tokens of `tok`, a `CHAIN` token: each operator (`INFIX`), then its name (`NAME`).
    Its pieces' texts by `findall`, placed in a loop that calls no method of a match (not each
    match's groups asked for their places)."""
    line, column, new, tokens = tok.line, tok.column, tuple.__new__, []
    kinds = ("INFIX", "NAME")
    for i, (breaks, spaces, piece) in enumerate(_CHAIN_PIECE.findall(tok.value)):
        if breaks:
            line, column = line + breaks.count("\n"), 1
        column += len(spaces)
        end = column + len(piece)
        tokens.append(new(Tok, (kinds[i & 1], piece, line, column, line, end)))
        column = end
    return tokens


def _heads(run: Tok) -> list[Tok]:
    """The names of the `name(`s of `run`, a `HEADS` token, as `NAME` tokens: a list, from the
    text parted at each `(`, each part's last line break found by `rpartition` (cheaper than a
    regular expression's matches)."""
    line, column, new = run.line, run.column, tuple.__new__
    names = []
    for piece in run.value.split("(")[:-1]:  # a piece: spaces and line breaks, then a name
        before, newline, rest = piece.rpartition("\n")
        if newline:
            line, column = line + (before.count("\n") + 1 if before else 1), 1
        name = rest.lstrip()
        column += len(rest) - len(name)
        end = column + len(name)
        names.append(new(Tok, ("NAME", name, line, column, line, end)))
        column = end + 1
    return names


def _as_head(name: Tok) -> Tok:
    """The `HEAD` token of `name` and the `(` right after it."""
    _, value, line, column, _, end = name
    return tuple.__new__(Tok, ("HEAD", value + "(", line, column, line, end + 1))


def _past(gap: str, line: int, column: int) -> tuple[int, int]:
    """The line and column right after `gap`, spaces and line breaks from `line`:`column`."""
    before, newline, rest = gap.rpartition("\n")
    if newline:
        return line + (before.count("\n") + 1 if before else 1), len(rest) + 1
    return line, column + len(gap)


class _Rest(Tok):
    """What is left of a run of `)` (`RPARS`) that a parse took apart: its `value` is the whole
    run, not a copy of its rest, and `at` the offset in it of the first `)` left. A run is parted
    wherever it stops closing calls (a λ's body or parentheses end in it); copying the rest each
    time made a deep program's parse quadratic in its depth."""

    at: int


def _run_offset(tok: Tok) -> int:
    """The offset of the first `)` of `tok`, an `RPARS` token, in its `value`."""
    return tok.at if type(tok) is _Rest else 0


def _closers(tok: Tok, offset: int, line: int, column: int) -> Tok:
    """What is left of `tok`, an `RPARS` token, from its `)` at `offset` on (at `line`:`column`):
    `RPARS` while it holds two or more, an `RPAR` then."""
    if offset == len(tok.value) - 1:  # a run ends with its last `)`
        return tuple.__new__(Tok, ("RPAR", ")", line, column, line, column + 1))
    rest = tuple.__new__(_Rest, ("RPARS", tok.value, line, column, tok.end_line, tok.end_column))
    rest.at = offset
    return rest


# Frames: a construct begun and waiting for an expression (its first item says which).
_LAMBDA, _IF, _PREFIX, _CHAIN, _PAREN, _CALL, _LIST, _INDEX, _RANGE, _ITEM, _FUNDEF, _BODY = range(
    12
)
#: What an expression position admits: anything; no λ (an `if` branch); neither λ nor `if` (an
#: operand of an operator).
_EXPR, _CONDITIONAL, _OPERAND = range(3)
#: Bracketed argument lists: opening token → (callback name, closing token).
_LISTS = {
    "LBRACE": ("make_tuple", "RBRACE"),
    "LSHIFT": ("shift", "RSHIFT"),
    "CDOM": ("cartesian_domain", "RANGLE"),
    "UDOM": ("unstructured_domain", "RANGLE"),
}
#: What the expression after a frame's opening admits, where it is not any expression.
_WANTS = {_IF: _CONDITIONAL, _PREFIX: _OPERAND}
_LEAVES = {"NUMBER": "number", "QLITERAL": "quoted_literal", "OFFSET": "offset", "AXIS": "axis"}


def parse(text: str, callbacks: Callbacks) -> Node:
    """The node `text` spells, built by `callbacks`; `Unsure` where lark must decide."""
    return _Parse(tokens(text), callbacks).run()


class _Parse:
    """One parse: the current token, and a stack of frames instead of recursion, so that nesting
    is bounded by memory only."""

    def __init__(self, tokens: Iterator[Tok], callbacks: Callbacks) -> None:
        self.next = tokens.__next__
        self.tok = self.next()
        self.cb = callbacks
        self.stack: list[list[Any]] = []
        self.leaves: dict[str, Callable[[list[Any]], Node]] = {
            kind: getattr(callbacks, name) for kind, name in _LEAVES.items()
        }

    def take(self, kind: str) -> Tok:
        """The current token, which must be of type `kind`; the next one becomes current."""
        tok = self.tok
        if tok.type != kind:
            if tok.type not in SEVERAL:
                raise Unsure
            tok, self.tok = split(tok)
            if tok.type != kind:
                raise Unsure
            return tok
        self.tok = self.next()
        return tok

    def lambda_head(self) -> list[Any]:
        """`λ(a, b) →`, the current token being its `λ` or all of it: the children of lark's rule
        so far (those that the callbacks read: the `λ`, for its place, and the parameters)."""
        tok = self.tok
        if tok.type == "LAMBDAS":
            self.tok = self.next()
            param = self.cb.param
            names = inner_tokens(tok, "NAME", len(tok.value))
            return [tok, None, [param([name]) for name in names], None, None]
        self.take("LAMBDA")
        lpar = self.tok
        return [tok, lpar, self.params(), self.take("RPAR"), self.take("ARROW")]

    def params(self) -> list[Node]:
        """`(a, b, …)`, the current token being `(`; annotated parameters are left to lark."""
        self.take("LPAR")
        params: list[Node] = []
        if self.tok.type != "RPAR":
            params.append(self.cb.param([self.take("NAME")]))
            while self.tok.type == "COMMA":
                self.tok = self.next()
                params.append(self.cb.param([self.take("NAME")]))
        return params

    def run(self) -> Node:
        self.stack.append([_ITEM])
        want = _EXPR
        while True:
            value = self.operand(want)
            if value is None:  # a frame was opened: an expression starts at the current token
                want = _WANTS.get(self.stack[-1][0], _EXPR)
                continue
            result = self.close(value)
            if isinstance(result, Node):
                return result
            want = result

    def operand(self, want: int) -> Node | None:
        """Read what starts an expression: an atom is returned; λ, `if`, prefix operators and
        brackets open a frame (None is returned)."""
        tok, cb, stack = self.tok, self.cb, self.stack
        kind = tok.type
        if kind == "HEADS":  # `f(g(…`: a call's frame opened for each but the last, then a HEAD
            symref, push = cb.symref, stack.append
            *outer, callee = _heads(tok)
            for head in outer:
                push([_CALL, symref([head]), None, []])
            tok, kind = _as_head(callee), "HEAD"
        if kind == "HEAD":  # `name(`: the callee, and the call's frame opened at once
            _, text, line, column, _, end = tok
            callee = tuple.__new__(Tok, ("NAME", text[:-1], line, column, line, end - 1))
            self.tok = self.next()
            if self.tok.type == "RPAR" or self.tok.type == "RPARS":  # `name()`
                right = self.take("RPAR")
                return cb.called(cb.symref([callee]), [], right.end_line, right.end_column)
            stack.append([_CALL, cb.symref([callee]), None, []])
            return None
        if kind == "NAME":
            self.tok = self.next()
            return self.name(tok)
        if kind == "RANGE":
            self.tok = self.next()
            return self.named_range(tok)
        if kind == "CDOMAIN" or kind == "UDOMAIN":  # `c⟨`, ranges, `⟩`
            self.tok = self.next()
            _, text, line, column, _, end = tok
            new, named_range = tuple.__new__, self.named_range
            ranges = []
            for match in _RANGE_IN.finditer(text, 2):
                at, piece = column + match.start(), match.group()
                ranges.append(
                    named_range(new(Tok, ("RANGE", piece, line, at, line, at + len(piece))))
                )
            opening = new(
                Tok, (kind[:4], text[:2], line, column, line, column + 2)
            )  # `CDOM`, `UDOM`
            closing = new(Tok, ("RANGLE", "⟩", line, end - 1, line, end))
            maker = cb.cartesian_domain if kind == "CDOMAIN" else cb.unstructured_domain
            return maker([opening, ranges, closing])
        if kind == "SHIFTS" or kind == "SHIFTED":
            self.tok = self.next()
            return self.shift(tok)
        value: Node
        if kind in self.leaves:
            self.tok = self.next()
            value = self.leaves[kind]([tok])
        elif (kind == "LAMBDAS" or kind == "LAMBDA") and want == _EXPR:
            stack.append([_LAMBDA, self.lambda_head()])
            return None
        elif kind == "IF" and want != _OPERAND:
            self.tok = self.next()
            stack.append([_IF, [tok]])
            return None
        elif kind == "PREFIX":
            self.tok = self.next()
            stack.append([_PREFIX, tok])
            return None
        elif kind == "LPAR":
            self.tok = self.next()
            stack.append([_PAREN, tok])
            return None
        elif kind in _LISTS:
            name, close = _LISTS[kind]
            self.tok = self.next()
            if self.tok.type == close:
                value = getattr(cb, name)([tok, [], self.take(close)])
            else:
                stack.append([_LIST, getattr(cb, name), tok, [], close])
                return None
        else:
            raise Unsure
        return value

    def named_range(self, tok: Tok) -> Node:
        """The named range of a `RANGE` token."""
        cb = self.cb
        axis, bracket, lower, upper, right = range_parts(tok)
        bounds = [
            cb.number([bound]) if bound.type == "NUMBER" else cb.symref([bound])
            for bound in (lower, upper)
        ]
        return cb.named_range([axis, None, bracket, bounds[0], None, bounds[1], right])

    def shift(self, tok: Tok) -> Node:
        """The shift of a `SHIFTS` token; of a `SHIFTED` token, that shift called with the name."""
        cb, new = self.cb, tuple.__new__
        _, value, line, column, _, end = tok
        close = value.index("⟫")
        offsets = [cb.offset([part]) for part in inner_tokens(tok, "OFFSET", close)]
        at = column + close
        opening = new(Tok, ("LSHIFT", "⟪", line, column, line, column + 1))
        shift = cb.shift([opening, offsets, new(Tok, ("RSHIFT", "⟫", line, at, line, at + 1))])
        if tok.type == "SHIFTS":
            return shift
        name = cast("re.Match[str]", _INNER.search(value, close + 2))
        at = column + name.start()
        arg = new(Tok, ("NAME", name.group(), line, at, line, at + len(name.group())))
        return cb.called(shift, [cb.symref([arg])], line, end)

    def name(self, tok: Tok) -> Node | None:
        """What the name `tok` starts, the token after it being current: a reference; or a frame
        opened (None is returned), a range's or a definition's."""
        following, stack = self.tok.type, self.stack
        if following == "COLON":  # `name: [lo, hi)`, or an annotation: lark's
            colon = self.take("COLON")
            stack.append([_RANGE, [tok, colon, self.take("LSQB")]])
            return None
        if following == "ASSIGN" and stack[-1] == [_ITEM]:  # `name = λ(…) → …;`
            stack[-1] = [_FUNDEF, [tok, self.take("ASSIGN"), *self.lambda_head()]]
            return None
        return self.cb.symref([tok])

    def close(self, value: Node) -> Node | int:
        """Apply to `value`, an atom, the calls and subscripts after it, and close the frames it
        completes, up to one that the current token continues or a call or subscript opens.
        Returns what the next expression admits, or at the end the result."""
        cb, stack = self.cb, self.stack
        while True:
            kind = self.tok.type
            while kind == "LPAR" or kind == "LSQB":
                opening = self.tok
                self.tok = self.next()
                if kind == "LSQB":
                    stack.append([_INDEX, value, opening])
                    return _EXPR
                if self.tok.type != "RPAR" and self.tok.type != "RPARS":
                    stack.append([_CALL, value, opening, []])
                    return _EXPR
                right = self.take("RPAR")
                value = cb.called(value, [], right.end_line, right.end_column)
                kind = self.tok.type
            while stack[-1][0] == _PREFIX:
                value = cb.prefix([stack.pop()[1], value])
            frame = stack[-1]
            if kind == "CHAIN":  # operators and names: all but the last name join the chain
                if frame[0] != _CHAIN:
                    frame = [_CHAIN, [value]]
                    stack.append(frame)
                else:
                    frame[1].append(value)
                operands, symref = frame[1], cb.symref
                parts = chain_parts(self.tok)
                self.tok = self.next()
                for op, name in zip(parts[::2], parts[1::2], strict=True):
                    operands.append(op)
                    operands.append(symref([name]))
                value = operands.pop()
                continue
            if kind == "INFIX":
                if frame[0] != _CHAIN:
                    frame = [_CHAIN, [value]]
                    stack.append(frame)
                else:
                    frame[1].append(value)
                frame[1].append(self.tok)
                self.tok = self.next()
                return _OPERAND
            if frame[0] == _CHAIN:
                frame[1].append(value)
                stack.pop()
                value = cb.infix_chain(frame[1])
                frame = stack[-1]
            # `value` is a conditional: the branches of `if` and the bodies of λ end here.
            while frame[0] == _IF:
                children = frame[1]
                children.append(value)
                if len(children) < 6:
                    children.append(self.take(("THEN", "ELSE")[len(children) // 4]))
                    return _CONDITIONAL
                stack.pop()
                value = cb.if_(children)
                frame = stack[-1]
            while frame[0] == _LAMBDA:
                stack.pop()
                value = cb.lambda_([*frame[1], value])
                frame = stack[-1]
            if frame[0] == _CALL:  # the commonest frame, continued here, not in continue_frame
                frame[3].append(value)
                if self.tok.type == "COMMA":
                    self.tok = self.next()
                    return _EXPR
                close = self.tok
                if close.type == "RPAR":
                    self.tok = self.next()
                elif close.type == "RPARS":  # a run of `)`: each closes the call on top at once
                    # Each `)` found from the one before, so that a run is read once however
                    # often frames other than calls part it.
                    run, at, last = close.value, _run_offset(close), len(close.value) - 1
                    line, column, index, called = close.line, close.column, run.index, cb.called
                    while True:
                        stack.pop()
                        column += 1
                        value = called(frame[1], frame[3], line, column)
                        if at == last:
                            self.tok = self.next()
                            break
                        after = index(")", at + 1)
                        if after != at + 1:  # spaces or line breaks before the next `)`
                            line, column = _past(run[at + 1 : after], line, column)
                        at = after
                        frame = stack[-1]
                        if frame[0] != _CALL:  # the rest closes something else
                            self.tok = _closers(close, at, line, column)
                            break
                        frame[3].append(value)
                    continue
                else:
                    raise Unsure
                stack.pop()
                value = cb.called(frame[1], frame[3], close.end_line, close.end_column)
                continue
            result = self.continue_frame(frame, value)
            if result is None:
                return _EXPR
            if not stack:
                return result
            value = result

    def continue_frame(self, frame: list[Any], value: Node) -> Node | None:
        """`value`, an expression, ends or continues `frame` (the frame on top, not a call's): the
        node made when it ends, None when another expression follows. The stack empties at the
        end."""
        cb, stack, kind = self.cb, self.stack, frame[0]
        if kind == _LIST:
            frame[3].append(value)
            if self.tok.type == "COMMA":
                self.tok = self.next()
                return None
            stack.pop()
            node: Node = frame[1]([frame[2], frame[3], self.take(frame[4])])
            return node
        if kind == _PAREN:
            stack.pop()
            return cb.paren([frame[1], value, self.take("RPAR")])
        if kind == _INDEX:
            stack.pop()
            return cb.tuple_get([frame[1], frame[2], value, self.take("RSQB")])
        if kind == _RANGE:
            children = frame[1]
            children.append(value)
            if len(children) == 4:
                children.append(self.take("COMMA"))
                return None
            stack.pop()
            return cb.named_range([*children, self.take("RPAR")])
        return self.item(frame, value)

    def item(self, frame: list[Any], value: Node) -> Node | None:
        """A fencil's header, a definition or a closure (its parts), at the top or in a body."""
        cb, stack, kind = self.cb, self.stack, frame[0]
        if kind == _FUNDEF:
            stack.pop()
            return self.finished(cb.fundef([*frame[1], value, self.take("SEMI")]))
        children = frame[1:]
        children.append(value)
        count = len(children)
        if count == 1:  # the expression an item starts with
            following = self.tok.type
            if following == "LARROW":
                children += [self.take("LARROW"), self.take("LPAR")]
                stack[-1] = [_ITEM, *children]
                return None
            if len(stack) > 1:  # in a fencil's body: only definitions and closures
                raise Unsure
            if following == "LBRACE":
                stack[-1] = [_BODY, value, self.take("LBRACE"), []]
                return self.body()
            stack.pop()
            return self.finished(value)
        if count == 4:  # `out ← (stencil` then `)(inputs…) @`
            children += [self.take("RPAR"), self.take("LPAR")]
            if self.tok.type != "RPAR":
                stack[-1] = [_ITEM, *children, []]
                return None
            children.append([])
            count = 7
        else:  # an input, or the domain
            if count == 8:
                children[6].append(children.pop())
                if self.tok.type == "COMMA":
                    self.tok = self.next()
                    stack[-1] = [_ITEM, *children]
                    return None
                count = 7
            else:
                stack.pop()
                closure = cb.closure([*children, self.take("SEMI")])
                return self.finished(closure)
        children += [self.take("RPAR"), self.take("AT")]
        stack[-1] = [_ITEM, *children]
        return None

    def body(self) -> Node | None:
        """After a fencil body's `{` or one of its items: the next item, or the end."""
        frame = self.stack[-1]
        if self.tok.type == "RBRACE":
            self.stack.pop()
            fencil = self.cb.fencil([frame[1], frame[2], frame[3], self.take("RBRACE")])
            return self.finished(fencil)
        self.stack.append([_ITEM])
        return None

    def finished(self, node: Node) -> Node | None:
        """A whole item: the result at the top (the input must end), the next item in a body."""
        if not self.stack:
            if self.tok.type != "END":
                raise Unsure
            return node
        self.stack[-1][3].append(node)
        return self.body()
