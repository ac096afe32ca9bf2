"""An error as the `typeinf` command prints it, for programs that type IR themselves:
`typeinf.render(error, text, filename)`."""

from __future__ import annotations

from types import NoneType

from iterir import Node
from typeinf.core import arguments, diagnostics
from typeinf.core.diagnostics import Source, source_of
from typeinf.core.errors import TypeInferenceError


def render(
    error: TypeInferenceError,
    text: str | None = None,
    filename: str | None = None,
    program: Node | None = None,
    *,
    color: bool = False,
) -> str:
    """The diagnostic `typeinf infer` prints for `error`, several lines without a final newline:
    where it is (`file:line:col`, a JSON path, or the node itself), the line of `text` with the
    offending expression underlined, the conflicting types, and the reasons, each with where.

    `text` and `filename` are what the program was read from, as given to `iterir.parse` or
    `iterir.loads_ir`; without `text` no line is quoted. A program read from JSON has no lines
    and columns: given the tree read as `program` (with its JSON `text`, or without a text, as
    after `iterir.load`), its nodes are located by their JSON paths in it. `color`: the
    terminal's colours, as `typeinf infer --color always` prints them."""
    name = "typeinf.render"
    arguments.an_instance(name, "error", error, TypeInferenceError, "a TypeInferenceError")
    arguments.an_instance(name, "text", text, (str, NoneType), "None or a str")
    arguments.an_instance(name, "filename", filename, (str, NoneType), "None or a str")
    arguments.an_instance(name, "program", program, (Node, NoneType), "None or an IR node")
    arguments.a_flag(name, "color", color)
    if program is None:
        source = Source(filename, text)
    elif text is None:
        source = Source(filename, json_root=program)
    else:
        source = source_of(filename, text, program)
    return diagnostics.render(error, source, color)
