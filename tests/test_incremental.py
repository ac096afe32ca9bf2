"""Incremental re-inference (`typeinf.Reinference`): after every edit of a chain, its result is a
full `check`'s (and `infer_all`'s), node for node, errors included; and it re-infers only the
definitions an edit can have changed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeAlias

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import (
    FencilDefinition,
    FunctionDefinition,
    Lambda,
    Node,
    NodeTranslator,
    StencilClosure,
    Sym,
    SymRef,
)
from iterir.nodes import Expr, IfStmt, Program, SetAt, Temporary
from tests.strategies import expressions
from tests.test_gtir_samples import SAMPLES
from tests.test_mutations import MUTATIONS, OTHER_LITERALS
from tests.welltyped import well_typed_fencils
from typeinf.fencil.signatures import BUILTINS


def _shown(checked: typeinf.Checked) -> tuple[object, ...]:
    """Everything `check` says, as text: the type, every node's (in order), the errors."""
    return (
        str(checked.type),
        [(key, str(value)) for key, value in checked.types.items()],
        [(type(e).__name__, str(e), id(e.node)) for e in checked.errors],
    )


def _same_as_full(context: typeinf.Reinference, root: Root) -> None:
    provider = context.offset_provider
    full = typeinf.check(root, provider)
    incremental = context.check(root)
    assert _shown(incremental) == _shown(full)
    if not incremental.errors:
        everything = typeinf.infer_all(root, provider)
        assert [(k, str(v)) for k, v in incremental.types.items()] == [
            (k, str(v)) for k, v in everything.items()
        ]


class _Rewrite(NodeTranslator):
    """Replaces the node `target` (by identity) with `replacement(target)`, and renames the
    names in `names` (declarations and uses) throughout; the rest is shared."""

    def __init__(
        self,
        target: Node | None = None,
        replacement: Callable[[Node], Node] = lambda n: n,
        names: dict[str, str] | None = None,
    ) -> None:
        self.target, self.replacement, self.names = target, replacement, names or {}

    def generic_visit(self, node: Node, **kwargs: Any) -> Any:
        if node is self.target:
            return self.replacement(node)
        rebuilt = yield from super().generic_visit(node, **kwargs)
        if isinstance(rebuilt, (Sym, SymRef, FunctionDefinition)) and rebuilt.id in self.names:
            return dataclasses.replace(rebuilt, id=self.names[rebuilt.id])
        return rebuilt


#: A root of either dialect.
Root: TypeAlias = FencilDefinition | Program


def _parts(root: Root) -> tuple[Node, ...]:
    """The definitions and closures of a fencil; the definitions, declarations and statements
    of a GTIR program."""
    if isinstance(root, Program):
        return (*root.function_definitions, *root.declarations, *root.body)
    return (*root.function_definitions, *root.closures)


def _expressions(root: Root) -> list[Node]:
    parts = _parts(root)
    return [
        n
        for part in parts
        for n in iterir.walk(part)
        if not isinstance(n, (Sym, FunctionDefinition, StencilClosure, SetAt, IfStmt, Temporary))
    ]


def _replace_subtree(draw: st.DrawFn, root: Root) -> Root:
    """A subtree replaced: by a mutation of it, a literal, another subtree of the program or
    an arbitrary expression (mostly ill-typed)."""
    candidates = _expressions(root)
    target = draw(st.sampled_from(candidates))
    how = draw(st.sampled_from(["mutation", "literal", "subtree", "arbitrary"]))
    event(f"replace a subtree: {how}")
    if how == "mutation":
        fitting = [name for name, (applies, _) in MUTATIONS.items() if applies(target)]
        if fitting:
            mutate = MUTATIONS[draw(st.sampled_from(fitting))][1]
            return _Rewrite(target, lambda n: mutate(n, draw)).visit(root)  # type: ignore[no-any-return]
        how = "literal"
    replacement: Node
    if how == "literal":
        replacement = draw(st.sampled_from(OTHER_LITERALS))
    elif how == "subtree":
        replacement = draw(st.sampled_from(candidates))
    else:
        replacement = draw(expressions)
    return _Rewrite(target, lambda n: replacement).visit(root)  # type: ignore[no-any-return]


def _rename_parameter(draw: st.DrawFn, root: Root) -> Root:
    """A definition's first parameter renamed, in it: an equal signature."""
    definition = draw(st.sampled_from([d for d in root.function_definitions if d.params]))
    old = definition.params[0].id
    renamed = _Rewrite(names={old: old + "_r"}).visit(definition)
    return _Rewrite(definition, lambda n: renamed).visit(root)  # type: ignore[no-any-return]


def _rename_definition(draw: st.DrawFn, root: Root) -> Root:
    old = draw(st.sampled_from(root.function_definitions)).id
    return _Rewrite(names={old: old + "_r"}).visit(root)  # type: ignore[no-any-return]


def _inline_definition(draw: st.DrawFn, root: Root) -> Root:
    """Every use of a definition replaced by its lambda; the definition dropped or kept."""
    definition = draw(st.sampled_from(root.function_definitions))
    inlined = Lambda(definition.params, definition.expr)

    class Inline(NodeTranslator):
        def visit_SymRef(self, node: SymRef) -> Node:
            return inlined if node.id == definition.id else node

    new = Inline().visit(root)
    if draw(st.booleans()):
        kept = tuple(d for d in new.function_definitions if d is not definition)
        new = dataclasses.replace(new, function_definitions=kept)
    return new  # type: ignore[no-any-return]


def _add_definition(draw: st.DrawFn, root: Root) -> Root:
    """A copy of a definition added under a new name (before or after the others)."""
    copied = draw(st.sampled_from(root.function_definitions))
    copy = dataclasses.replace(copied, id=f"{copied.id}_copy{len(root.function_definitions)}")
    definitions = root.function_definitions
    new = (copy, *definitions) if draw(st.booleans()) else (*definitions, copy)
    return dataclasses.replace(root, function_definitions=new)


def _remove_definition(draw: st.DrawFn, root: Root) -> Root:
    """A definition removed: its users then name nothing (an error), unless it had none."""
    index = draw(st.integers(0, len(root.function_definitions) - 1))
    definitions = root.function_definitions
    return dataclasses.replace(
        root, function_definitions=definitions[:index] + definitions[index + 1 :]
    )


def _add_closure(draw: st.DrawFn, root: FencilDefinition) -> FencilDefinition:
    """A closure repeated (the same node object, or a copy applying another definition)."""
    closure = draw(st.sampled_from(root.closures))
    if draw(st.booleans()):
        stencil = SymRef(draw(st.sampled_from(root.function_definitions)).id)
        closure = dataclasses.replace(closure, stencil=stencil)
    return dataclasses.replace(root, closures=(*root.closures, closure))


def _remove_closure(draw: st.DrawFn, root: FencilDefinition) -> FencilDefinition:
    index = draw(st.integers(0, len(root.closures) - 1))
    return dataclasses.replace(root, closures=root.closures[:index] + root.closures[index + 1 :])


def _add_statement(draw: st.DrawFn, root: Program) -> Program:
    """A statement repeated (the same node object), or a `SetAt` copied writing what another
    one writes (a well- or ill-typed one), at the end."""
    statement = draw(st.sampled_from(root.body))
    set_ats = [s for s in root.body if isinstance(s, SetAt)]
    if draw(st.booleans()) and set_ats:
        statement = dataclasses.replace(draw(st.sampled_from(set_ats)), expr=_written(draw, root))
    return dataclasses.replace(root, body=(*root.body, statement))


def _written(draw: st.DrawFn, root: Program) -> Expr:
    """What some `SetAt` of `root` writes."""
    return draw(st.sampled_from([s.expr for s in root.body if isinstance(s, SetAt)]))


def _remove_statement(draw: st.DrawFn, root: Program) -> Program:
    index = draw(st.integers(0, len(root.body) - 1))
    return dataclasses.replace(root, body=root.body[:index] + root.body[index + 1 :])


#: Edit name → (whether it applies, the edit), for both dialects.
EDITS: dict[str, tuple[Callable[[Root], bool], Any]] = {
    "replace a subtree": (lambda r: bool(_expressions(r)), _replace_subtree),
    "rename a parameter": (
        lambda r: any(d.params for d in r.function_definitions),
        _rename_parameter,
    ),
    "rename a definition": (lambda r: bool(r.function_definitions), _rename_definition),
    "inline a definition": (lambda r: bool(r.function_definitions), _inline_definition),
    "add a definition": (lambda r: bool(r.function_definitions), _add_definition),
    "remove a definition": (lambda r: bool(r.function_definitions), _remove_definition),
}
#: The edits of one dialect: closures of a fencil, statements of a GTIR program.
FENCIL_EDITS: dict[str, tuple[Callable[[Any], bool], Any]] = {
    **EDITS,
    "add a closure": (lambda r: bool(r.closures and r.function_definitions), _add_closure),
    "remove a closure": (lambda r: bool(r.closures), _remove_closure),
}
GTIR_EDITS: dict[str, tuple[Callable[[Any], bool], Any]] = {
    **EDITS,
    "add a statement or SetAt": (lambda r: bool(r.body), _add_statement),
    "remove a statement": (lambda r: bool(r.body), _remove_statement),
}


def _chain(
    draw: st.DrawFn, root: Root, edits: dict[str, tuple[Callable[[Any], bool], Any]]
) -> list[Root]:
    """`root`, then each program a chain of random edits makes of it."""
    chain = [root]
    for _ in range(draw(st.integers(1, 6))):
        fitting = [name for name, (applies, _) in edits.items() if applies(chain[-1])]
        if not fitting:
            break
        name = draw(st.sampled_from(fitting))
        event(name)
        chain.append(edits[name][1](draw, chain[-1]))
    return chain


@st.composite
def edit_chains(draw: st.DrawFn) -> list[Root]:
    """A generated fencil, then each program a chain of random edits makes of it."""
    return _chain(draw, draw(well_typed_fencils())[0], FENCIL_EDITS)


def _gtir_programs() -> list[tuple[Program, dict[str, Any]]]:
    """The GTIR sample programs of at most 400 nodes with a function definition or more than
    one statement, with their offset providers' types."""
    programs = []
    for sample in SAMPLES:
        if sample["ir"]["node"] != "Program" or sample["nodes"] > 400:
            continue
        program = iterir.from_json(sample["ir"])
        assert isinstance(program, Program)
        if program.function_definitions or len(program.body) > 1 or program.declarations:
            programs.append((program, sample["offset_provider_type"]))
    return programs


GTIR_PROGRAMS = _gtir_programs()


@st.composite
def gtir_edit_chains(draw: st.DrawFn) -> tuple[dict[str, Any], list[Root]]:
    """A GTIR sample program (and its offset provider), then each program a chain of random
    edits makes of it."""
    program, provider = draw(st.sampled_from(GTIR_PROGRAMS))
    return provider, _chain(draw, program, GTIR_EDITS)


def _checked_along(context: typeinf.Reinference, chain: list[Root]) -> None:
    for root in chain:
        _same_as_full(context, root)
        event("incremental" if not context.last.full else "full (an error)")
        if context.last.reused:
            event("reused a definition")


@settings(deadline=None)
@given(edit_chains())
def test_after_every_edit_the_result_is_a_full_checks(chain: list[Root]) -> None:
    """Over chains of 1 to 6 random edits of generated fencils: 100 chains under the default
    hypothesis profile, 2,000 under `TYPEINF_HYPOTHESIS_PROFILE=thorough`."""
    _checked_along(typeinf.Reinference(), chain)


@settings(deadline=None)
@given(gtir_edit_chains())
def test_after_every_edit_of_a_gtir_program_the_result_is_a_full_checks(
    chain: tuple[dict[str, Any], list[Root]],
) -> None:
    """Over chains of 1 to 6 random edits of GTIR sample programs (replace a subtree, rename,
    inline or add or remove a definition, add or remove a statement or `SetAt`): 100 chains
    under the default hypothesis profile, 2,000 under `TYPEINF_HYPOTHESIS_PROFILE=thorough`."""
    provider, programs = chain
    _checked_along(typeinf.Reinference(offset_provider=provider), programs)


# -- what is reused -------------------------------------------------------------------------------

PROGRAM = """
p(n, a, out1, out2) {
  base = λ(x) → ·x;
  mid = λ(x) → base(x) + 1.0;
  top = λ(x) → mid(x) × 2.0;
  other = λ(y) → ·y;
  out1 ← (top)(a) @ c⟨ IDim: [0, n) ⟩;
  out2 ← (other)(a) @ c⟨ IDim: [0, n) ⟩;
}
"""


def _edit_definition(root: FencilDefinition, name: str, text: str) -> FencilDefinition:
    """`root` with the definition `name` replaced by the one `text` says (in a fencil)."""
    (new,) = iterir.parse(f"p(n) {{ {name} = {text}; }}").function_definitions  # type: ignore[attr-defined]
    old = next(d for d in root.function_definitions if d.id == name)
    return _Rewrite(old, lambda n: new).visit(root)  # type: ignore[no-any-return]


def _checked_twice(text: str, name: str) -> tuple[typeinf.Reinference, FencilDefinition]:
    context, root = typeinf.Reinference(), iterir.parse(PROGRAM)
    assert isinstance(root, FencilDefinition)
    context.check(root)
    assert context.last == typeinf.Reused((), ("base", "mid", "top", "other"), full=False)
    edited = _edit_definition(root, name, text)
    _same_as_full(context, edited)
    return context, edited


def test_an_unchanged_program_reuses_every_definition() -> None:
    context, root = typeinf.Reinference(), iterir.parse(PROGRAM)
    assert isinstance(root, FencilDefinition)
    context.check(root)
    _same_as_full(context, root)
    assert context.last == typeinf.Reused(("base", "mid", "top", "other"), (), full=False)


def test_an_edit_keeping_the_signature_re_infers_only_its_definition() -> None:
    context, _ = _checked_twice("λ(z) → ·z", "base")  # renamed: equal up to renaming
    assert context.last == typeinf.Reused(("mid", "top", "other"), ("base",), full=False)


def test_a_changed_signature_re_infers_the_users_whose_dependency_changed() -> None:
    # `mid` is float64 already: `base` taking only float64 changes `mid`'s callee, not `mid`.
    context, _ = _checked_twice("λ(x) → ·x + 0.5", "base")
    assert context.last == typeinf.Reused(("top", "other"), ("base", "mid"), full=False)


def test_a_change_propagates_as_far_as_signatures_change() -> None:
    context, _ = _checked_twice("λ(x) → 2", "base")  # now a mistake: int32 + float64
    assert context.last.full and context.last.reused == ()
    context, _ = _checked_twice("λ(x) → ·x × 1.0", "mid")  # the same type: `top` reused


def test_after_an_error_the_fixed_program_reuses_the_cache() -> None:
    context, broken = _checked_twice("λ(y) → ·y + True", "other")
    assert context.last.full and context.check(broken).errors
    fixed = _edit_definition(broken, "other", "λ(y) → ·y + ·y")
    _same_as_full(context, fixed)
    assert context.last == typeinf.Reused(("base", "mid", "top"), ("other",), full=False)


def test_an_expression_is_checked_in_full() -> None:
    context = typeinf.Reinference()
    expression = iterir.parse("λ(x) → ·x + 1.0")
    assert _shown(context.check(expression)) == _shown(typeinf.check(expression))
    assert context.last.full


def test_a_name_that_comes_to_name_a_definition_re_infers_its_users() -> None:
    # `other` used the builtin `minus`; a definition `minus` of another type now shadows it.
    context = typeinf.Reinference()
    root = iterir.parse(
        "p(n, a, o) { other = λ(y) → minus(·y, 1.0); o ← (other)(a) @ c⟨ IDim: [0, n) ⟩; }"
    )
    assert isinstance(root, FencilDefinition)
    context.check(root)
    (minus,) = iterir.parse("p(n) { minus = λ(u, v) → True; }").function_definitions  # type: ignore[attr-defined]
    shadowed = dataclasses.replace(root, function_definitions=(minus, *root.function_definitions))
    _same_as_full(context, shadowed)
    assert context.last == typeinf.Reused((), ("minus", "other"), full=False)


def test_a_builtin_registered_again_re_infers_its_users(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUILTINS, "my_op", BUILTINS["deref"])  # taken out again after the test
    typeinf.register_builtin("my_op", "(T₀¹) → T₀¹", replace=True)
    root = iterir.parse(PROGRAM.replace("base(x) + 1.0", "my_op(base(x)) + 1.0"))
    assert isinstance(root, FencilDefinition)
    context = typeinf.Reinference()
    context.check(root)
    typeinf.register_builtin("my_op", "(T₀¹) → float64¹", replace=True)
    _same_as_full(context, root)  # the same nodes: `mid` (and `top`, whose callee changed) again
    assert context.last == typeinf.Reused(("base", "other"), ("mid", "top"), full=False)
