"""Straight-line code generated from a scheme's plan (`schemes.Scheme.plan`): instantiation
(`compiled`, `compiled_call`) and matching (`compiled_matcher`), the one place where code is
generated from a plan (the others are made from a class's field list: `types.fast_maker`,
`iterir.nodes`' constructors). It runs for nearly every call of a builtin, so it keeps those
calls off the interpreted plan and off unifying fresh parameters, both slower (docs/performance.md,
"Fencil inference throughput").

Each generated function's source is registered with `linecache` under a name of its own
(`<typeinf codegen N: what>`), so that a traceback through it shows its lines. With the
environment variable `TYPEINF_NO_CODEGEN=1`, the interpreted forms run instead (the plan's
`Scheme.copy`, `Scheme.instantiate_call`, `matching.walk_match`): CI runs the property tests
once so, to keep both forms honest.
"""

from __future__ import annotations

import itertools
import linecache
import os
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from typeinf.core.constructors import TTUPLE, fixed_params
from typeinf.core.matching import Matcher, in_family, walk_match
from typeinf.core.schemes import Build, Fresh, Scheme, Step
from typeinf.core.terms import Cell, find
from typeinf.core.unify import unify

#: Whether code is generated at all (`TYPEINF_NO_CODEGEN=1`: the interpreted forms only).
CODEGEN = os.environ.get("TYPEINF_NO_CODEGEN", "") != "1"
_numbers = itertools.count()


def _define(lines: list[str], names: dict[str, object], what: str) -> Callable[..., Any]:
    """The function the generated `lines` define (the first line names it), compiled under a file
    name of its own that `linecache` knows, so that tracebacks show the generated lines."""
    source = "\n".join(lines) + "\n"
    filename = f"<typeinf codegen {next(_numbers)}: {what}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), names)  # our own code, from our own plan
    # The function the first line defines (`def name(…):`), which `exec` left in `names`.
    return cast("Callable[..., Any]", names[lines[0].split()[1].split("(")[0]])


#: A type of more cells than this (a tuple of many elements, say) is instantiated and matched
#: without generated code: its code would cost more to compile than it saves, for a shape that
#: is used a few times.
MOST_COMPILED_CELLS = 128


def compiled(scheme: Scheme) -> Callable[[], Cell]:
    """`scheme.instantiate` as straight-line code, for the builtins, which are instantiated at
    nearly every use."""
    return _instantiation(scheme, False) or scheme.instantiate


def compiled_call(scheme: Scheme) -> Callable[[], tuple[Cell, ...]] | None:
    """For a direct call: code that makes only what the call needs, fresh parameters and result
    (result last), not the function and argument-row cells around them; None if the type is not
    a function of a fixed number of parameters."""
    if fixed_params(scheme.cells[-1]) is None:
        return None
    # `instantiate_call` gives None only for a type that is not a function of a fixed number of
    # parameters, which this one is.
    return _instantiation(scheme, True) or cast(
        "Callable[[], tuple[Cell, ...]]", scheme.instantiate_call
    )


def _instantiation(scheme: Scheme, call: bool) -> Callable[[], Any] | None:
    """The generated instantiation (see `compiled` and `compiled_call`); None where the plan is
    interpreted instead: without code generation, past `MOST_COMPILED_CELLS`, or where a cell a
    call leaves out is part of another."""
    cells = scheme.cells
    if not CODEGEN or len(cells) > MOST_COMPILED_CELLS:
        return None
    position = {id(c): i for i, c in enumerate(cells)}
    returned, skipped = [len(cells) - 1], set()
    if call:
        root, params = cells[-1], fixed_params(cells[-1])
        assert params is not None  # `compiled_call` asked
        skipped.add(len(cells) - 1)
        row = find(root.args[0])
        while row.ctor is TTUPLE:
            skipped.add(position[id(row)])
            row = find(row.args[1])
        returned = [position[id(find(p))] for p in params] + [position[id(find(root.args[1]))]]
        if any(
            position[id(find(a))] in skipped
            for i, c in enumerate(cells)
            if i not in skipped
            for a in c.args
        ):
            return None  # a skipped cell is part of another: make them all
    names: dict[str, object] = {"new": Cell.__new__, "Cell": Cell}
    lines = ["def instantiate():"]
    for i, step in enumerate(scheme.plan):
        if i in skipped:
            continue
        if type(step) is Cell:
            names[f"k{i}"] = step
            lines.append(f"    c{i} = k{i}")
            continue
        lines.append(
            creation(
                f"c{i}",
                i,
                step,
                [f"c{a}" for a in step.args] if type(step) is Build else [],
                "    ",
                names,
            )
        )
    if call:
        lines.append(f"    return ({', '.join(f'c{i}' for i in returned)},)")
    else:
        lines.append(f"    return c{returned[0]}")
    return _define(lines, names, "call" if call else "instantiation")


def creation(
    target: str,
    i: int,
    step: Fresh | Build,
    arguments: list[str],
    indent: str,
    names: dict[str, object],
) -> str:
    """A line of generated code that makes `target`, a fresh copy of step `i` of a scheme's plan
    (a variable, or a structure of the cells named `arguments`), with the values it refers to
    added to `names`. The slots are filled directly, without `Cell.__init__`'s call."""
    line = f"{indent}{target} = new(Cell); {target}.parent = None; {target}.rank = 0; {target}.mark = None; "
    if type(step) is Fresh:
        names[f"s{i}"], names[f"f{i}"] = step.sort, step.family
        return (
            line
            + f"{target}.ctor = None; {target}.label = None; {target}.args = (); {target}.sort = s{i}; {target}.family = f{i}"
        )
    assert type(step) is Build
    names[f"t{i}"], names[f"l{i}"], names[f"s{i}"] = step.ctor, step.label, step.ctor.sort
    return line + (
        f"{target}.ctor = t{i}; {target}.label = l{i}; {target}.args = ({', '.join(arguments)},); "
        f"{target}.sort = s{i}; {target}.family = None"
    )


def compiled_matcher(scheme: Scheme) -> Matcher | None:
    """The matcher of a builtin whose type is a function of a fixed number of parameters (else
    None). Past `MOST_COMPILED_CELLS`, a walk (`matching.walk_match`): such a shape (a
    `tuple_get` of a far element) is used a few times, and compiling it would cost more than it
    saves.

    Unifying fresh parameters with the arguments' types mostly binds each fresh variable to the
    part of an argument's type it stands for. The matcher does that directly: it reads the parts
    off the arguments' types (no parameter cells are made) and leaves to `unify` only what
    reading cannot settle: a variable seen twice, a family to check, a constant against a
    variable, or a structure against something else."""
    cells = scheme.cells
    root, params = cells[-1], fixed_params(cells[-1])
    if params is None:
        return None
    if not CODEGEN or len(cells) > MOST_COMPILED_CELLS:
        return partial(walk_match, root)
    index = {id(c): i for i, c in enumerate(cells)}
    writer = _Writer(scheme)
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
    return _define(lines, writer.names, "match")


#: The deepest indentation of generated code. A tuple nests a level per element, and each level's
#: other branch makes the rest of it, so the code would grow with the square of the depth (and
#: Python refuses more than 100 levels). A part below is made and left to `unify`; the builtins'
#: signatures nest 4 levels at most.
_DEEPEST = 4 * 8


class _Writer:
    """The generated code's lines, and the name that holds each pattern cell's match once it has
    one (`bound`: the same in every branch, so that later lines may use it)."""

    def __init__(self, scheme: Scheme) -> None:
        self.plan: list[Step] = scheme.plan
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
        # `terms.root_of` inline: see there
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
        elif type(step) is Fresh:  # a variable: the part itself, if it has the sort and family
            self.names[f"s{i}"], self.names[f"f{i}"] = step.sort, step.family
            # The part itself stands for the variable: `unify.binds_directly` with the pattern's
            # variable as the variable, inlined; with a family, `in_family`.
            fits = f"y.sort is s{i}" if step.family is None else f"in_family(y, f{i})"
            lines += [f"{indent}if {fits}: v{i} = y", f"{indent}else:"]
            lines.append(creation(f"v{i}", i, step, [], f"{indent}    ", self.names))
            lines.append(f"{indent}    pairs.append((v{i}, y))")
        elif len(indent) > _DEEPEST:  # a structure too deep to nest into: made, and left to `unify`
            self.build(i, indent)
            lines.append(f"{indent}pairs.append((v{i}, y))")
        else:  # a structure: its parts, if the type has the same constructor
            assert type(step) is Build
            self.names[f"t{i}"], arguments = step.ctor, list(step.args)
            parts = [f"m{i}_{n}" for n in range(len(arguments))]
            lines += [
                f"{indent}if y.ctor is t{i}:",
                f"{indent}    v{i} = y",
                f"{indent}    {', '.join(parts)}, = y.args",
            ]
            before = set(self.bound)
            for part, argument in zip(parts, arguments, strict=True):
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
            step = self.plan[j]
            pending = (
                [a for a in step.args if a not in self.bound and a not in seen]
                if type(step) is Build
                else []
            )
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
                arguments = [self.name(a) for a in step.args] if type(step) is Build else []
                self.lines.append(creation(f"v{j}", j, step, arguments, indent, self.names))
            self.bound.add(j)
        return self.name(i)
