"""A call typed by matching the callee's type against the arguments' types: for a builtin, as
straight-line code generated once per builtin (and per shape of `make_tuple`, `tuple_get` and
closures); for a function definition, by a walk.

Unifying fresh parameters with the arguments' types mostly binds each fresh variable to the part
of an argument's type it stands for. The matcher does that directly: it reads the parts off the
arguments' types (no parameter cells are made) and leaves to `unify` only what reading cannot
settle: a variable seen twice, a family to check, a constant against a variable, or a structure
against something else. The result is made from the parts read. It gives the types unification
gives; it is used only where the solver keeps no history (errors are reported by a second run).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from typeinf.constructors import PRIM, fixed_params
from typeinf.schemes import MOST_COMPILED_CELLS, Scheme, copy_graph, creation
from typeinf.terms import Cell, find, root_of, var
from typeinf.unify import unify

#: `match(argument_types, undecided)` → the call's type (None for a wrong number of arguments);
#: raises `Mismatch`, and adds to `undecided` the pairs `unify` could not decide yet.
Matcher = Callable[..., Cell]


def compiled_matcher(scheme: Scheme) -> Matcher | None:
    """The matcher of a builtin whose type is a function of a fixed number of parameters (else
    None). Past `MOST_COMPILED_CELLS`, a walk (`walk_match`): such a shape (a `tuple_get` of a
    far element) is used a few times, and compiling it would cost more than it saves."""
    cells = scheme.cells
    root, params = cells[-1], fixed_params(cells[-1])
    if params is None:
        return None
    if len(cells) > MOST_COMPILED_CELLS:
        return partial(walk_match, root)
    index = {id(c): i for i, c in enumerate(cells)}
    writer = _Writer(scheme, index)
    arguments = [f"a{n}" for n in range(len(params))]
    for n, param in enumerate(params):
        writer.match(index[id(find(param))], arguments[n], "    ")
    result = writer.build(index[id(find(root.args[1]))], "    ")
    lines = [
        "def match(types, undecided):",
        f"    if len(types) != {len(params)}: return None",
        *([f"    {', '.join(arguments)}, = types"] if arguments else []),
        "    pairs = []",
        *writer.lines,
        "    for p, q in pairs:",
        "        undecided += unify(p, q)",
        f"    return {result}",
    ]
    exec("\n".join(lines), writer.names)  # noqa: S102 - our own generated code, from our own plan
    return writer.names["match"]  # type: ignore[no-any-return]


def in_family(actual: Cell, family: frozenset[str]) -> bool:
    """Whether `actual` (a root) may stand for a dtype variable of `family` as it is: a dtype of
    the family, or a variable restricted to (a part of) it already."""
    if actual.ctor is PRIM:
        return actual.label in family
    return actual.ctor is None and actual.family is not None and actual.family <= family


#: The deepest indentation of generated code. A tuple nests a level per element, and each level's
#: other branch makes the rest of it, so the code would grow with the square of the depth (and
#: Python refuses more than 100 levels). A part below is made and left to `unify`; the builtins'
#: signatures nest 4 levels at most.
_DEEPEST = 4 * 8


class _Writer:
    """The generated code's lines, and the name that holds each pattern cell's match once it has
    one (`bound`: the same in every branch, so that later lines may use it)."""

    def __init__(self, scheme: Scheme, index: dict[int, int]) -> None:
        self.cells, self.plan, self.index = scheme.cells, scheme.plan, index
        self.names: dict[str, object] = {
            "new": Cell.__new__,
            "Cell": Cell,
            "unify": unify,
            "in_family": in_family,
        }
        self.lines: list[str] = []
        self.bound: set[int] = set()

    def name(self, i: int) -> str:
        return f"k{i}" if type(self.plan[i]) is Cell else f"v{i}"

    def root(self, cell: str, indent: str) -> None:
        self.lines += [f"{indent}y = {cell}", f"{indent}while y.parent is not None: y = y.parent"]

    def match(self, i: int, actual: str, indent: str) -> None:
        """Lines that bind pattern cell `i` to the type in `actual`, or pair them for `unify`."""
        step, lines = self.plan[i], self.lines
        self.root(actual, indent)
        if type(step) is Cell:  # a constant (constants are never linked to anything)
            self.names[f"k{i}"] = step
            lines.append(f"{indent}if y is not k{i}: pairs.append((k{i}, y))")
        elif i in self.bound:  # seen before: the two must be one
            lines += [
                f"{indent}z = {self.name(i)}",
                f"{indent}while z.parent is not None: z = z.parent",
                f"{indent}if y is not z: pairs.append((z, y))",
            ]
        elif step[0] is None:  # a variable: the part itself, if it has the sort and family
            self.names[f"s{i}"], self.names[f"f{i}"] = step[1], step[2]
            # The part itself stands for the variable: `unify.binds_directly` with the pattern's
            # variable as the variable, inlined; with a family, `in_family`.
            fits = f"y.sort is s{i}" if step[2] is None else f"in_family(y, f{i})"
            lines += [f"{indent}if {fits}: v{i} = y", f"{indent}else:"]
            lines.append(creation(f"v{i}", i, step, [], f"{indent}    ", self.names))
            lines.append(f"{indent}    pairs.append((v{i}, y))")
        elif len(indent) > _DEEPEST:  # a structure too deep to nest into: made, and left to `unify`
            self.build(i, indent)
            lines.append(f"{indent}pairs.append((v{i}, y))")
        else:  # a structure: its parts, if the type has the same constructor
            self.names[f"t{i}"], arguments = (
                step[0],
                [self.index[id(find(a))] for a in self.cells[i].args],
            )
            parts = [f"m{i}_{n}" for n in range(len(arguments))]
            lines += [
                f"{indent}if y.ctor is t{i}:",
                f"{indent}    v{i} = y",
                f"{indent}    {', '.join(parts)}, = y.args",
            ]
            before = set(self.bound)
            for part, argument in zip(parts, arguments):
                self.match(argument, part, indent + "    ")
            matched, self.bound = self.bound, before
            lines.append(f"{indent}else:")
            self.build(i, indent + "    ")  # makes only v… names: `y` stays
            lines.append(f"{indent}    pairs.append((v{i}, y))")
            assert self.bound == matched | {i}  # both branches bind the same cells
        self.bound.add(i)

    def build(self, i: int, indent: str) -> str:
        """Lines that make pattern cell `i` from the cells bound so far and fresh ones; its name."""
        order: list[int] = []
        stack, seen = [i], set()
        while stack:  # post-order of the unbound cells under `i`
            j = stack[-1]
            if j in self.bound or j in seen:
                stack.pop()
                continue
            pending = [
                a
                for a in (self.index[id(find(c))] for c in self.cells[j].args)
                if a not in self.bound and a not in seen
            ]
            if pending:
                stack += reversed(pending)
                continue
            stack.pop()
            seen.add(j)
            order.append(j)
        for j in order:
            step = self.plan[j]
            if type(step) is Cell:
                self.names[f"k{j}"] = step
            else:
                arguments = [self.name(self.index[id(find(a))]) for a in self.cells[j].args]
                self.lines.append(creation(f"v{j}", j, step, arguments, indent, self.names))
            self.bound.add(j)
        return self.name(i)


def walk_match(type_: Cell, types: list[Cell], undecided: list[tuple[Cell, Cell]]) -> Cell | None:
    """The type of a call of a function of type `type_` (solved: nothing changes it any more), as
    a compiled matcher gives it (see `Matcher`), by walking its parameters against the arguments'
    types and copying only the result: for a definition, called too few times for generated code
    to pay, and for a shape too large to compile. With it and `shaped.for_arity` retired, the
    chained-definitions shape ran at 0.86× (`python3 -m benchmarks.compare`, 5 interleaved
    pairs at 100k nodes)."""
    root, params = root_of(type_), fixed_params(type_)
    if params is None or len(params) != len(types):
        return None
    matches: dict[int, Cell] = {}  # id of a parameter's cell → what stands for it
    pairs: list[tuple[Cell, Cell]] = []
    stack = list(zip(params, types, strict=True))
    while stack:
        pattern, actual = stack.pop()
        pattern, actual = root_of(pattern), root_of(actual)
        known = matches.get(id(pattern))
        if known is not None:  # seen before: the two must be one
            known = root_of(known)
            if known is not actual:
                pairs.append((known, actual))
        elif pattern.ctor is None:  # a variable: the part itself, if it has the sort and family
            family = pattern.family
            if not (actual.sort is pattern.sort if family is None else in_family(actual, family)):
                fresh = var(pattern.sort, family)  # type: ignore[arg-type]
                pairs.append((fresh, actual))
                actual = fresh
            matches[id(pattern)] = actual
        elif not pattern.args:  # a constant
            if actual is not pattern:
                pairs.append((pattern, actual))
        elif actual.ctor == pattern.ctor:  # a structure: its parts, if the type has its constructor
            matches[id(pattern)] = actual
            stack += zip(pattern.args, actual.args)
        else:
            pairs.append((copy_graph(pattern, matches), actual))
    result = copy_graph(root.args[1], matches)
    for x, y in pairs:
        undecided += unify(x, y)
    return result
