"""Parse GT4Py's ITIR text syntax into nodes: `parse` reads either dialect, `parse_fencil` the
fencil IR's (grammar.lark).

The fencil IR's text is read by the fast path (iterir/fast_parser.py) where it can vouch for it,
else by lark's LALR parser, which calls the callbacks (iterir/node_building.py) as it reduces each
rule, so that no parse tree is built and nothing recurses: a 100,000-level expression parses
within the default recursion limit. Every node gets the span of the text it came from.
"""

from __future__ import annotations

import functools

import lark

from iterir import fast_parser, tables
from iterir.ascii_text import from_ascii
from iterir.errors import ParseError, source_line
from iterir.node_building import Callbacks
from iterir.nodes import Node
from iterir.parse_driver import run

#: The fencil IR's callbacks, lark's transformer: one object, set for each parse under the lock.
callbacks = Callbacks()


@functools.cache
def lark_parser() -> lark.Lark:
    """The fencil IR's lark parser, made when first needed (`import iterir` stays cheap) from
    cached tables."""
    return tables.text_parser("grammar.lark", callbacks)


def parse(text: str, filename: str | None = None) -> Node:
    """Parse ITIR text: an expression, a function definition, a stencil closure or a fencil; or
    GTIR: a program, a statement, a temporary (iterir/gtir_parser.py).

    The two dialects have a grammar each. Text that shows GTIR's marks (`gtir_parser.hints`) is
    read as GTIR first, other text as the fencil IR first; where the first grammar fails the
    other is tried, and where both fail the first one's error is raised. Both read the ASCII
    spelling of the notation's characters (`iterir.ascii_text`).
    """
    from iterir import gtir_parser  # imported by the first parse: `import iterir` stays cheap

    read = from_ascii(text)  # its lines and columns are the text's
    first, second = parse_fencil, gtir_parser.parse
    if gtir_parser.hints(read):
        first, second = second, first
    try:
        return first(read, filename)
    except ParseError as error:
        try:
            return second(read, filename)
        except ParseError:
            if error.line is not None and read is not text:
                error.source_line = source_line(text, error.line)  # as the user wrote it
            raise error from None


def parse_fencil(text: str, filename: str | None = None) -> Node:
    """Parse text of the fencil IR only."""
    return run(lark_parser, callbacks, text, filename, fast_parser.parse)


def parse_fencil_by_lark(text: str, filename: str | None = None) -> Node:
    """`parse_fencil` by lark's parser alone: the reference the fast path is tested against."""
    return run(lark_parser, callbacks, text, filename)
