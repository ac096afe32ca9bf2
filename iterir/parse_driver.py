"""One parse of text by either dialect's parser: lark's, its fast path tried first where the
dialect has one; and lark's errors as located `ParseError`s that say what was expected.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import cast

import lark
from lark import Token
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from iterir.ascii_text import hint
from iterir.errors import ParseError, source_line
from iterir.fast_parser import Unsure
from iterir.gcpause import gc_paused
from iterir.node_building import Annotated, Callbacks, HeaderArgs, Place, one_line_end
from iterir.nodes import Node

#: How each terminal is named in "expected …" messages.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "NUMBER": "a number",
    "QLITERAL": "a quoted literal",
    "OFFSET": "an offset literal",
    "AXIS": "an axis literal",
    "INFIX": "an operator",
    "PREFIX": "`·`, `¬` or `↑`",
    "$END": "the end of the input",
    # GTIR's grammar (gtir_grammar.lark) only:
    "RANGE_END": "`[`",
    "INFINITY": "`∞`",
    "FLOAT_WORD": "a number",
    "BOOL": "a typed boolean",
    "PROGRAM": "`program`",
}
#: The tokens an operand can start with; λ and `if` also start an expression, but not an operand.
_OPERAND_STARTS = frozenset(
    [
        "NAME",
        "NUMBER",
        "QLITERAL",
        "OFFSET",
        "AXIS",
        "LPAR",
        "LBRACE",
        "LSHIFT",
        "CDOM",
        "UDOM",
        "PREFIX",
    ]
)

#: Held through a parse: each dialect's callbacks are one object, whose `filename` and
#: `annotated_calls` are that parse's.
LOCK = threading.Lock()


def run(
    parser: Callable[[], lark.Lark],
    callbacks: Callbacks,
    text: str,
    filename: str | None,
    fast: Callable[[str, Callbacks], Node] | None = None,
) -> Node:
    """Parse `text` with `parser()`, whose transformer is `callbacks`; errors are located.
    `fast`, where given, is tried first: lark parses what it is unsure of."""
    with LOCK:
        callbacks.filename = filename
        callbacks.annotated_calls = []
        try:
            with gc_paused():
                if fast is not None:
                    try:
                        return fast(text, callbacks)
                    except (Unsure, ParseError):
                        pass  # lark decides, and locates the error
                result = cast(Node, parser().parse(text))  # the transformer builds nodes
        except (LarkError, ParseError) as exc:
            raise _from_lark(exc, text, filename, parser()) from None
        finally:
            leftover, callbacks.annotated_calls = callbacks.annotated_calls, []
    if leftover:
        args: HeaderArgs = leftover[0].args
        annotated = next(a for a in args if isinstance(a, Annotated))
        raise _at(
            ParseError("a parameter annotation is only allowed in a parameter list", filename),
            annotated.token,
            text,
        )
    return result


def _at(error: ParseError, token: Token, text: str) -> ParseError:
    place = cast(Place, token)  # a token from the lexer
    error.line, error.column = place.line, place.column
    error.end_column = one_line_end(place)
    error.source_line = source_line(text, place.line)
    return error


def _at_end(message: str, text: str, filename: str | None) -> ParseError:
    """An error just after the last non-blank character, where the input stopped too early."""
    content = text.rstrip()
    line = content.count("\n") + 1
    column = len(content) - (content.rfind("\n") + 1) + 1
    return ParseError(message, filename, line, column)


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of input"
    return f"`{token.value}`"


def _acceptable(exc: UnexpectedCharacters | UnexpectedToken | UnexpectedEOF) -> set[str]:
    """The terminals the parser would have taken. The lexer's own list lacks keywords (`if`, `λ`),
    which it reads as names, so the parse table is asked where there is one."""
    accepts = getattr(exc, "accepts", None)
    if accepts:
        return set(accepts)
    state = getattr(exc, "state", None)
    if state is not None:
        table = state.parse_conf.states[state.position]
        return {name for name in table if name.isupper() or name == "$END"}
    # An UnexpectedCharacters, the one without `expected`, brings `allowed`.
    return set(
        getattr(exc, "allowed", None) or cast("UnexpectedToken | UnexpectedEOF", exc).expected
    )


def _expected(
    exc: UnexpectedCharacters | UnexpectedToken | UnexpectedEOF, parser: lark.Lark
) -> str:
    names = _acceptable(exc)
    parts = []
    if names >= _OPERAND_STARTS:
        parts.append("an expression" if {"LAMBDA", "IF"} <= names else "an operand")
        names = names - _OPERAND_STARTS - {"LAMBDA", "IF", "BOOL", "INFINITY", "FLOAT_WORD"}
    for name in sorted(names):
        if name in _TERMINAL_NAMES:
            parts.append(_TERMINAL_NAMES[name])
        else:
            pattern = parser.get_terminal(name).pattern
            parts.append(f"`{pattern.value}`")
    return ", ".join(sorted(set(parts)))


def _from_lark(
    exc: LarkError | ParseError, text: str, filename: str | None, parser: lark.Lark
) -> ParseError:
    """Turn lark's exception into a ParseError with a location and what was expected."""
    if isinstance(exc, ParseError):
        error = exc
    elif isinstance(exc, UnexpectedCharacters):
        char = text[cast(int, exc.pos_in_stream)]
        error = ParseError(
            f"unexpected character `{char}`; expected " + _expected(exc, parser) + hint(char),
            filename,
            exc.line,
            exc.column,
        )
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            error = _at_end(
                f"unexpected end of input; expected {_expected(exc, parser)}", text, filename
            )
        else:
            message = f"unexpected {_describe(token)}; expected {_expected(exc, parser)}"
            error = _at(ParseError(message, filename), token, text)
    elif isinstance(exc, UnexpectedEOF):
        error = _at_end(
            f"unexpected end of input; expected {_expected(exc, parser)}", text, filename
        )
    else:
        error = ParseError(str(exc), filename)
    if error.line is not None and error.source_line is None:
        error.source_line = source_line(text, error.line)
    return error
