"""GT4Py's iterator IR (ITIR): nodes, the text syntax, JSON snapshots, traversal and scoping.

parse(text, filename=None)   text → node            pformat(node)   node → text
load(path)                   a .itir/.json file      from_json/to_json  decoded JSON ↔ node
"""

from iterir.errors import ParseError
from iterir.files import load, loads_ir
from iterir.json_codec import from_json, to_json
from iterir.nodes import (
    AxisLiteral,
    Expr,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    SourceSpan,
    StencilClosure,
    Sym,
    SymRef,
)
from iterir.parser import parse
from iterir.printer import pformat, pformat_short
from iterir.symbols import Binding, BindingKind, SymbolTable, resolve
from iterir.traversal import NodeTranslator, NodeVisitor, walk

__all__ = [
    "AxisLiteral",
    "Binding",
    "BindingKind",
    "Expr",
    "FencilDefinition",
    "FunCall",
    "FunctionDefinition",
    "Lambda",
    "Literal",
    "Node",
    "NodeTranslator",
    "NodeVisitor",
    "OffsetLiteral",
    "ParseError",
    "SourceSpan",
    "StencilClosure",
    "Sym",
    "SymRef",
    "SymbolTable",
    "from_json",
    "load",
    "loads_ir",
    "parse",
    "pformat",
    "pformat_short",
    "resolve",
    "to_json",
    "walk",
]
