"""Visitors and translators: dispatch by class, keyword arguments, results, sharing."""

from __future__ import annotations

from typing import Any

import iterir
from iterir import FunCall, Node, NodeTranslator, NodeVisitor, SymRef
from iterir.builders import deref, lam


class _CountRefs(NodeVisitor):
    def visit_SymRef(self, node: SymRef, **kwargs: Any) -> int:
        return 1

    def visit_Literal(self, node: Node, **kwargs: Any) -> int:
        return 0

    def generic_visit(self, node: Node, **kwargs: Any):  # type: ignore[override]
        results = yield from super().generic_visit(node, **kwargs)
        return sum(r for r in results if r is not None)


class _Rename(NodeTranslator):
    def visit_SymRef(self, node: SymRef, *, mapping: dict[str, str]) -> SymRef:
        return SymRef(mapping[node.id], loc=node.loc) if node.id in mapping else node


class _DepthOfDerefs(NodeVisitor):
    """Passes a changing keyword argument down, as a scoping pass would."""

    def visit_FunCall(self, node: FunCall, depth: int = 0):  # type: ignore[no-untyped-def]
        inner = depth + (node.fun == SymRef("deref"))
        best = inner
        for child in node.iter_children():
            best = max(best, (yield child, {"depth": inner}) or 0)
        return best

    def generic_visit(self, node: Node, depth: int = 0):  # type: ignore[override]
        best = depth
        for child in node.iter_children():
            best = max(best, (yield child, {"depth": depth}) or 0)
        return best


def test_visitor_results_and_dispatch() -> None:
    # plus, deref, x, f, y: the operators are SymRefs too
    assert _CountRefs().visit(iterir.parse("λ(x) → ·x + f(y, 1)")) == 5


def test_translator_rewrites_and_shares_unchanged_subtrees() -> None:
    program = iterir.parse("λ(x) → ·x + g(·y)", "p.itir")
    renamed = _Rename().visit(program, mapping={"x": "z"})
    assert renamed == iterir.parse("λ(x) → ·z + g(·y)")
    assert renamed.expr.args[1] is program.expr.args[1]  # type: ignore[attr-defined]
    assert renamed.expr.loc == program.expr.loc  # type: ignore[attr-defined]
    assert _Rename().visit(program, mapping={}) is program


def test_keyword_arguments_flow_down() -> None:
    assert _DepthOfDerefs().visit(lam("x")(deref(deref(deref("x"))))) == 3
    assert _DepthOfDerefs().visit(iterir.parse("f(·x, ··y)")) == 2
