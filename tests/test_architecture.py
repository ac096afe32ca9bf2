"""The layout's rules (docs/architecture.md, "Layout"), read from the sources' imports:

- the core imports neither dialect, nor re-inference, the front ends or the GT4Py bridge; a
  dialect imports the core, never the other dialect (a module kept at an old path for old code,
  whose docstring starts "Deprecated", is the public API's, wherever it stands);
- no module imports another module's private name (`_name`);
- the solver's imports, followed through the package (inside functions and under
  `if TYPE_CHECKING:` too), reach no dialect's type language: no reader, conversions or words;
- no import circle at run time, but the ones listed in `KNOWN_CIRCLES` with their reason
  (imports under `if TYPE_CHECKING:` are annotations only and do not count);
- no function of one dialect's driver has a twin in the other's;
- every message-building call of the core and the dialects lives in a reporting module.
"""

from __future__ import annotations

import ast
import builtins
import itertools
import re
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("typeinf", "iterir")

#: What each layer may import, besides the standard library, lark and itself. `typeinf.types`,
#: the public names of the type values, is the API's: it names what `typeinf.core.values` and
#: `typeinf.fencil.values` hold.
MAY_IMPORT: dict[str, set[str]] = {
    "iterir": set(),
    "core": {"iterir"},
    "fencil": {"iterir", "core"},
    "gtir": {"iterir", "core"},
}

#: Circles through function-local imports that remain, each with why (a ratchet: a circle not
#: listed fails, and so does a listed one that is gone, so that the list shrinks with the code).
KNOWN_CIRCLES: dict[frozenset[str], str] = {
    frozenset({"iterir.nodes", "iterir.printer", "iterir.traversal"}): (
        "a node's repr prints it; the printer walks nodes"
    ),
    frozenset(
        {
            "typeinf.core.constructors",
            "typeinf.core.notation",
            "typeinf.core.sizes",
            "typeinf.core.terms",
        }
    ): "a cell's repr prints it in the notation, which is made of cells",
    frozenset({"typeinf.fencil.convert", "typeinf.fencil.values"}): (
        "a fencil value's str() converts it to cells to print it"
    ),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {
    module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
}


#: The modules kept at an old path for old code (their docstring starts "Deprecated"): the
#: public API's, whose names they forward, wherever they stand.
DEPRECATED = {
    module
    for module, path in MODULES.items()
    if (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").startswith(
        "Deprecated"
    )
}


def layer(module: str) -> str:
    """The layer of `module`: its package's, but for the `DEPRECATED` ones (the API's)."""
    parts = module.split(".")
    if module in DEPRECATED:
        return "api"
    if parts[0] == "iterir":
        return "iterir"
    return parts[1] if len(parts) > 1 and (ROOT / "typeinf" / parts[1]).is_dir() else "api"


def runtime_imports(module: str) -> Iterator[tuple[str, ast.ImportFrom | ast.Import]]:
    """(imported module, the import) for each import of `module` of a module of ours, outside
    `if TYPE_CHECKING:` blocks; `from package import module` imports the module only."""
    return imports_in(MODULES[module].read_text(encoding="utf-8"), MODULES, typing_too=False)


def imports_in(
    source: str, modules: Collection[str], typing_too: bool
) -> Iterator[tuple[str, ast.ImportFrom | ast.Import]]:
    """(imported module, the import) for each import in `source` of one of `modules`, those
    inside a function included, those under `if TYPE_CHECKING:` only if `typing_too`; `from
    package import module` imports the module only."""
    tree = ast.parse(source)
    typing_only = (
        set()
        if typing_too
        else {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
    )
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, node
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            submodules = [f"{node.module}.{a.name}" for a in node.names]
            if not all(name in modules for name in submodules):
                yield node.module, node
            yield from ((name, node) for name in submodules if name in modules)


IMPORTS: dict[str, set[str]] = {
    module: {imported for imported, _ in runtime_imports(module)} - {module} for module in MODULES
}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) in MAY_IMPORT))
def test_a_layer_imports_only_those_below_it(module: str) -> None:
    own = layer(module)
    wrong = sorted(
        imported
        for imported in IMPORTS[module]
        if layer(imported) != own and layer(imported) not in MAY_IMPORT[own]
    )
    assert not wrong, f"{module} ({own}) imports {wrong}"


def test_no_module_imports_a_private_name_of_another() -> None:
    reached = [
        f"{module} imports {node.module}.{alias.name}"
        for module in MODULES
        for _, node in runtime_imports(module)
        if isinstance(node, ast.ImportFrom) and node.module != module
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert sorted(set(reached)) == []


def circles() -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(IMPORTS):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(IMPORTS[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(IMPORTS[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def test_no_import_circles_but_the_known_ones() -> None:
    found = circles()
    assert sorted(map(sorted, found - KNOWN_CIRCLES.keys())) == []
    assert sorted(map(sorted, KNOWN_CIRCLES.keys() - found)) == [], "gone: take it off the list"


def test_the_rules_are_read_from_real_imports() -> None:
    """The walk sees imports at all: the core's solver imports the unifier, and a module that
    imports only under TYPE_CHECKING (each dialect's runs, for its collector) is not counted."""
    assert "typeinf.core.unify" in IMPORTS["typeinf.core.solve"]
    assert "typeinf.fencil.collect" not in IMPORTS["typeinf.fencil.runs"]
    assert "typeinf.gtir.collect" not in IMPORTS["typeinf.gtir.runs"]
    assert layer("typeinf.gtir.rules") == "gtir" and layer("typeinf.infer") == "api"


# -- the engine: the solver reaches no dialect's type language ------------------------------------
#: The core's modules that both dialects' type languages share but the engine does not use: the
#: tokens and variables both readers read, the public values' machinery, the API's argument
#: checks, the words both dialects say. None of them is the engine's, so the solver reaches none
#: of them; the dialects' own packages are outside the engine anyway.
TYPE_LANGUAGE_IN_CORE = frozenset(
    {
        "typeinf.core.typetokens",
        "typeinf.core.cellbuilder",
        "typeinf.core.values",
        "typeinf.core.arguments",
        "typeinf.core.diagnostics",
    }
)


def reached(start: str, sources: Mapping[str, str]) -> set[str]:
    """The modules `start` imports, those they import, and so on, among `sources` (each
    module's source by name): every import counts, inside a function or under
    `if TYPE_CHECKING:` too. A package's `__init__` that an import runs is not followed, so
    that what `typeinf/__init__.py` imports (the whole API) is not counted as the solver's."""
    seen, pending = {start}, [start]
    while pending:
        for imported, _ in imports_in(sources[pending.pop()], sources, typing_too=True):
            if imported not in seen:
                seen.add(imported)
                pending.append(imported)
    return seen - {start}


def outside_the_engine(module: str) -> bool:
    """Whether `module` is none of the engine's: a dialect's (its package, or its type language
    still in the core), the public values (`typeinf.types`), or anything above the core."""
    engine = module.startswith(("iterir", "typeinf.core.")) or module == "typeinf.core"
    return not engine or module in TYPE_LANGUAGE_IN_CORE


SOURCES = {module: path.read_text(encoding="utf-8") for module, path in MODULES.items()}


def test_the_solver_reaches_no_dialects_type_language() -> None:
    """The engine is dialect-neutral: the solver's imports, followed through the package, reach
    neither dialect's reader, conversions nor messages (a dialect gives its words through its
    solver's hooks, `Solver.unsatisfiable` and `Solver.cannot_hold`)."""
    closure = reached("typeinf.core.solve", SOURCES)
    assert "typeinf.core.unify" in closure and "typeinf.core.relations" in closure
    assert sorted(filter(outside_the_engine, closure)) == []


def test_a_planted_reach_into_a_dialect_is_caught(tmp_path: Path) -> None:
    """A small tree, written out and read back as the package is: the solver imports a helper
    inside a function, which imports the fencil IR's words under `if TYPE_CHECKING:`, which
    import its conversions; all three are reached, and the check names the two outside the engine.
    GTIR's notation, which only `typeinf/__init__.py` imports, is not reached."""
    tree = {
        "typeinf/__init__.py": "from typeinf.gtir import notation\n",
        "typeinf/core/__init__.py": "",
        "typeinf/fencil/__init__.py": "",
        "typeinf/core/solve.py": "def f() -> None:\n    from typeinf.core import helper\n",
        "typeinf/core/helper.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from typeinf.fencil.messages import said\n"
        ),
        "typeinf/fencil/messages.py": "import typeinf.fencil.convert\n",
        "typeinf/fencil/convert.py": "",
        "typeinf/gtir/notation.py": "",
    }
    for name, text in tree.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    sources = {
        ".".join(path.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): (
            path.read_text(encoding="utf-8")
        )
        for path in tmp_path.rglob("*.py")
    }
    closure = reached("typeinf.core.solve", sources)
    assert closure == {"typeinf.core.helper", "typeinf.fencil.messages", "typeinf.fencil.convert"}
    assert sorted(filter(outside_the_engine, closure)) == [
        "typeinf.fencil.convert",
        "typeinf.fencil.messages",
    ]


# -- one driver: no function of one dialect has a twin in the other -------------------------------
#: How many statements (nested ones counted, a docstring not) a function holds before a twin of
#: it counts: shorter ones (`return x`, a test and a raise) are alike by nature.
TWIN_STATEMENTS = 3


class _Anonymous(ast.NodeTransformer):
    """A function's shape: every name, attribute, argument, keyword and constant made one and the
    same, annotations, decorators and the docstring dropped; what is left is its statements and
    expressions, nested as they are."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name("_", node.ctx)

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        return ast.Attribute(self.visit(node.value), "_", node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.arg("_")

    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        return ast.keyword(None if node.arg is None else "_", self.visit(node.value))

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant(None)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.Constant:
        return ast.Constant(None)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        return ast.FunctionDef(
            "_", self.visit(node.args), [self.visit(s) for s in body] or [ast.Pass()], [], None
        )


def shapes(source: str) -> Iterator[tuple[str, str]]:
    """(name, shape) of each function and method of `source` that holds `TWIN_STATEMENTS`
    statements or more."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            count = sum(isinstance(inner, ast.stmt) for s in body for inner in ast.walk(s))
            if count >= TWIN_STATEMENTS:
                yield f"{node.name}:{node.lineno}", ast.dump(_Anonymous().visit(node))


def twins(dialects: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """The pairs of functions of the same shape in two dialects (each dialect: its modules'
    sources by name), each as `dialect.module.function:line`."""
    seen: dict[str, list[tuple[str, str]]] = {}
    for dialect, modules in sorted(dialects.items()):
        for module, source in sorted(modules.items()):
            for name, shape in shapes(source):
                seen.setdefault(shape, []).append((dialect, f"{dialect}.{module}.{name}"))
    return [
        (first, second)
        for places in seen.values()
        for (one, first), (other, second) in itertools.combinations(places, 2)
        if one != other
    ]


DIALECTS = {
    dialect: {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "typeinf" / dialect).glob("*.py"))
    }
    for dialect in ("fencil", "gtir")
}


def test_no_function_of_one_dialect_has_a_twin_in_the_other() -> None:
    """What both dialects do alike is written once, in the core (`typeinf.core.driver`), and
    parametrized by the dialect: a function copied from one dialect into the other, with other
    names, fails here."""
    assert twins(DIALECTS) == []


def test_a_planted_twin_is_caught() -> None:
    """A function of GTIR's collector copied into the fencil IR with every name and constant
    changed is a twin; with one statement more, it is not."""
    source = DIALECTS["gtir"]["collect"]
    original = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "_statement"
    )
    line = original.lineno
    renamed = ast.unparse(_Renamed().visit(original))
    planted = {**DIALECTS, "fencil": {**DIALECTS["fencil"], "planted": renamed}}
    assert twins(planted) == [
        ("fencil.planted._statement_copy:1", f"gtir.collect._statement:{line}")
    ]
    planted["fencil"]["planted"] = renamed + "\n    pending_copy.clear()"
    assert twins(planted) == []


class _Renamed(ast.NodeTransformer):
    """Every name, attribute and argument with `_copy` added, every number one more, every
    string another."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(f"{node.id}_copy", node.ctx)

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        return ast.Attribute(self.visit(node.value), f"{node.attr}_copy", node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.arg(f"{node.arg}_copy")

    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return ast.Constant(node.value + 1)
        return ast.Constant(f"{node.value!r}, copied")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.generic_visit(node)
        node.name = f"{node.name}_copy"
        node.lineno = 1
        return node


# -- words only in the reporting modules ----------------------------------------------------------
#: The layers whose messages are checked: the engine and the dialects. The front ends
#: (`typeinf.frontends`: the command line, the JSON report, the rendering of an error with its
#: source) and the bridge (`typeinf.gt4py`) are where the tool speaks to its users: every module
#: of theirs reports, and they are not scanned; nor are the `DEPRECATED` modules (the API's).
SCANNED = ("core", "fencil", "gtir")

#: The modules that turn reasons into words, each with why.
REPORTING: dict[str, str] = {
    "typeinf.gtir.messages": "GTIR's words",
    "typeinf.fencil.messages": "the fencil IR's words",
    # apart from `messages`, which reads the registry: the registry imports its words
    "typeinf.fencil.signature_messages": "the fencil IR's words of its builtins' registry",
    "typeinf.fencil.constructor_messages": "the fencil IR's words of its constructors' registry",
    "typeinf.core.messages": "the engine's words, and those of the core's public side",
    "typeinf.core.offset_messages": "the words of an offset provider's format",
    "typeinf.core.diagnostics": "the words both dialects say alike, and their rendering",
    # Input formats: a reader's syntax error says where in the text it stopped, and what it
    # expected there, which only the grammar's own step knows; moved out, each step would pass
    # its position and its expectation to another module to be put back together.
    "typeinf.gtir.reader": "GTIR's notation, read",
    "typeinf.core.typetokens": "the notations' tokens, read",
    "typeinf.core.cellbuilder": "the notations' variables, built as read",
    "typeinf.fencil.cellbuilder": "the fencil IR's notation, its cells built as read",
    "typeinf.fencil.reader": "the fencil IR's notation, read",
    "typeinf.fencil.typeparser": "the fencil IR's notation, read",
}


def exception_classes(sources: list[str]) -> set[str]:
    """The names of Python's exceptions and of every class of `sources` derived from one, its
    bases followed by name (`CannotHold`, `TypeInferenceError`, `GrammarBuiltinError`, …)."""
    names = {
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    bases = {
        node.name: {ast.unparse(base).rpartition(".")[2] for base in node.bases}
        for source in sources
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef)
    }
    while grown := {name for name, of in bases.items() if name not in names and of & names}:
        names |= grown
    return names


def message_methods(sources: list[str], exceptions: set[str]) -> set[str]:
    """The methods of those exceptions that take a message first (`reworded(message, …)`)."""
    return {
        method.name
        for source in sources
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and node.name in exceptions
        for method in node.body
        if isinstance(method, ast.FunctionDef)
        and method.name != "__init__"
        and [a.arg for a in method.args.args[1:2]] == ["message"]
    }


_WORD = re.compile(r"[^\W\d_]{2}")


def is_wording(node: ast.expr) -> bool:
    """Whether `node` makes text of words: a string literal with a word (two letters in a row)
    in it, an f-string, a `+` or `%` with wording on a side, or `.format(…)`/`.join(…)` of
    wording. A name, an attribute or a call of anything else (`messages.undefined(name)`,
    `str(error)`) passes on a message made elsewhere."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _WORD.search(node.value) is not None
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return is_wording(node.left) or is_wording(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("format", "join") and is_wording(node.func.value)
    return False


def message_building(
    source: str, exceptions: set[str], methods: set[str], reasons: set[str]
) -> list[str]:
    """`callee:line` of each message-building call of `source`: a call of an exception class
    (`exceptions`, by its name or as an attribute) or of a method that rewords an error
    (`methods`) whose first argument, or `message=`, is wording (`is_wording`); or a call of a
    reason's class (`reasons`) with wording for any of its fields."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        name = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", None)
        if name in exceptions or (name in methods and isinstance(callee, ast.Attribute)):
            given = node.args[:1] + [k.value for k in node.keywords if k.arg == "message"]
        elif name in reasons:
            given = node.args + [k.value for k in node.keywords]
        else:
            continue
        if any(is_wording(argument) for argument in given):
            found.append(f"{name}:{node.lineno}")
    return found


SOURCES = {module: path.read_text(encoding="utf-8") for module, path in MODULES.items()}
EXCEPTIONS = exception_classes(list(SOURCES.values()))
MESSAGE_METHODS = message_methods(list(SOURCES.values()), EXCEPTIONS)
#: The typed reasons a constraint carries: the classes of the `constraints` module, wherever
#: it is (`typeinf.core.constraints` now).
REASONS = {
    node.name
    for module, source in SOURCES.items()
    if module.rpartition(".")[2] == "constraints"
    for node in ast.parse(source).body
    if isinstance(node, ast.ClassDef)
}


def test_every_message_building_call_lives_in_a_reporting_module() -> None:
    """The rules raise errors with what they found; only the reporting modules (`REPORTING`) make
    the words: GTIR's `typeinf.gtir.messages`; the fencil IR's `typeinf.fencil.messages` and, for
    its builtins' registry, `signature_messages`; the engine's `typeinf.core.messages` (recursion,
    an infinite type, a type too large, …, which the solver's modules raise, so it imports nothing
    of typeinf's), which also says what the core's public side refuses (a public function's
    argument, a constructor registered wrongly, a value that cannot be converted to cells, a format
    spec of `typeinf.types`); an offset provider's format, `typeinf.core.offset_messages`; what both
    dialects say alike, `typeinf.core.diagnostics` (the reasons, a call's arity, a name declared
    twice, the rendering); and the readers of the two notations (GTIR's `reader`; the fencil IR's
    `reader` and `typeparser`; the tokens and the cells both build, `typetokens` and `cellbuilder`),
    which report on their input format: a syntax error says where the text stopped and what the
    grammar's step expected there, which only that step knows. The front ends and the bridge are not
    scanned (`SCANNED`): speaking to users is what they are for. No module is left out: every
    message-building call of the scanned layers is in one of these. Not seen: text made into a
    variable first and then raised; review catches that."""
    found = {
        module: calls
        for module, source in sorted(SOURCES.items())
        if layer(module) in SCANNED and module not in REPORTING
        if (calls := message_building(source, EXCEPTIONS, MESSAGE_METHODS, REASONS))
    }
    assert found == {}


def test_a_planted_message_is_caught() -> None:
    """Words made at a raise are caught, however they are made; a message made elsewhere and
    passed on is not."""
    planted = """
raise GrammarBuiltinError(f"`{name}` takes two", node)
raise CannotHold("tuples of different lengths")
raise typeinf.core.errors.MalformedIRError("a " + kind + " here", node)
raise ValueError("not %s" % what)
error.reworded(message="{} takes {}".format(name, count))
raise TypeInferenceError(messages.undefined(name), node)
raise CannotHold(str(error))
raise ValueError(", ")
print(f"{name} is not an error")
UNSAID = GtirRule("a relation")
GtirRule(messages.A_RELATION)
"""
    assert message_building(planted, EXCEPTIONS, MESSAGE_METHODS, REASONS) == [
        "GrammarBuiltinError:2",
        "CannotHold:3",
        "MalformedIRError:4",
        "ValueError:5",
        "reworded:6",
        "GtirRule:11",
    ]
    assert {"CannotHold", "GrammarBuiltinError", "ValueError"} <= EXCEPTIONS
    assert {"Argument", "GtirRule", "RelationOf"} <= REASONS
    assert "reworded" in MESSAGE_METHODS
    fencil_words = {m for m, why in REPORTING.items() if why == "the fencil IR's words"}
    assert "typeinf.gtir.messages" in MODULES and fencil_words & MODULES.keys()


# -- the core holds no dialect's type language ---------------------------------------------------
def defined_constructors(source: str) -> dict[str, str]:
    """The constructors a module defines at its top (`NAME = Constructor("Name", …)`), and the
    constants made of them (`T_EMPTY = constant(TEMPTY)`): each name, with the constructor's."""
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call, names = node.value, [t.id for t in node.targets if isinstance(t, ast.Name)]
            callee = getattr(call.func, "id", None)
            if callee == "Constructor":
                found.update(dict.fromkeys(names, names[0]))
            elif callee == "constant" and call.args and isinstance(call.args[0], ast.Name):
                found.update(dict.fromkeys(names, call.args[0].id))
    return found


def names_used(source: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)} | {
        alias.asname or alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_every_constructor_of_the_core_is_the_engines_or_both_dialects() -> None:
    """A constructor stays in the core only if the engine reads types by it (a module of the
    core other than the constructors' own and the printer uses it) or both dialects build types
    of it; any other is a dialect's, and lives in its package (the fencil IR's
    `typeinf.fencil.constructors`, GTIR's `typeinf.gtir.terms`)."""
    defined = defined_constructors(SOURCES["typeinf.core.constructors"])
    assert {"FUN", "PRIM", "DTUPLE"} <= defined.keys()

    def users(package: str, leave_out: tuple[str, ...] = ()) -> set[str]:
        return {
            name
            for module, source in SOURCES.items()
            if module.startswith(package) and module not in leave_out
            for name in names_used(source)
        }

    engine = users("typeinf.core.", ("typeinf.core.constructors", "typeinf.core.notation"))
    # and what the core's functions on constructors that the engine calls use (`fixed_params`)
    functions = {
        node.name: names_used(ast.unparse(node))
        for node in ast.parse(SOURCES["typeinf.core.constructors"]).body
        if isinstance(node, ast.FunctionDef)
    }
    engine |= {name for function in engine & functions.keys() for name in functions[function]}
    both = users("typeinf.fencil.") & users("typeinf.gtir.")
    unused = {
        ctor
        for ctor in set(defined.values())
        if not any(name in engine | both for name, of in defined.items() if of == ctor)
    }
    assert sorted(unused) == []


def test_the_core_printer_has_arms_only_for_the_cores_constructors() -> None:
    """The engine's printer prints its own constructors; a dialect's arms are in its printer."""
    from typeinf.core import constructors
    from typeinf.core.notation import Printer

    core = {v for v in vars(constructors).values() if isinstance(v, constructors.Constructor)}
    assert set(Printer.ARMS) <= core
