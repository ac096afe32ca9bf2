"""Trees built in Python that are no trees: a node made to hold itself (`object.__setattr__`)
and subtrees shared until they stand for more nodes than `iterir.traversal.MOST_NODES`. Each is
a located error (MalformedIRError from inference, TreeShapeError from iterir), never a loop."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import Node, SymRef, traversal
from iterir.builders import call, lam
from iterir.traversal import TreeShapeError
from typeinf.core.errors import MalformedIRError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    """A limit reached in milliseconds (the real one takes seconds to reach)."""
    monkeypatch.setattr(traversal, "MOST_NODES", 10_000)
    return 10_000


def cyclic() -> Node:
    inner = call("plus")(SymRef("a"), SymRef("a"))
    root = lam("a")(call("multiplies")(SymRef("a"), inner))
    object.__setattr__(inner, "args", (SymRef("a"), root.expr))  # inner holds its parent
    return root


def shared(levels: int) -> Node:
    node: Node = SymRef("a")
    for _ in range(levels):
        node = call("plus")(node, node)
    return lam("a")(node)


CYCLE = (
    "the IR is not a tree: this FunCall holds a FunCall that holds it (its `args` makes a cycle)"
)


@pytest.mark.usefixtures("small_limit")
def test_inference_says_a_cycle_is_malformed_ir() -> None:
    with pytest.raises(MalformedIRError) as raised:
        typeinf.infer(cyclic())
    assert raised.value.message == CYCLE
    (error,) = typeinf.check(cyclic()).errors
    assert isinstance(error, MalformedIRError) and error.message == CYCLE


@pytest.mark.usefixtures("small_limit")
@pytest.mark.parametrize(
    "operation", [iterir.pformat, iterir.to_json, lambda n: list(iterir.walk(n))]
)
def test_printers_and_walks_say_a_cycle(operation) -> None:
    with pytest.raises(TreeShapeError, match="its `args` makes a cycle"):
        operation(cyclic())


def test_a_node_holding_itself_is_named() -> None:
    node = call("plus")(SymRef("a"), SymRef("a"))
    object.__setattr__(node, "args", (SymRef("a"), node))
    with pytest.raises(TreeShapeError, match="this FunCall holds itself"):
        traversal.check_tree(node)


def test_too_many_shared_nodes_is_a_limit(small_limit: int) -> None:
    with pytest.raises(MalformedIRError, match=f"more than {small_limit:,} nodes, counting"):
        typeinf.infer(shared(61))
    with pytest.raises(TreeShapeError, match="more than"):
        iterir.pformat(shared(61))


@pytest.mark.usefixtures("small_limit")
def test_shared_subtrees_under_the_limit_are_typed_as_their_copies() -> None:
    assert typeinf.pformat(typeinf.infer(shared(8))) == typeinf.pformat(
        typeinf.infer(iterir.parse(iterir.pformat(shared(8))))
    )


def test_2_to_the_61_nodes_end_at_the_real_limit() -> None:
    """Before, this did not finish; a hang shows as the timeout."""
    script = (
        "import typeinf\n"
        "from tests.test_cyclic_trees import shared\n"
        "try:\n"
        "    typeinf.infer(shared(61))\n"
        "except typeinf.TypeInferenceError as error:\n"
        "    print(type(error).__name__, error.message)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.stdout.startswith(
        f"MalformedIRError the IR has more than {traversal.MOST_NODES:,} nodes"
    ), done.stderr


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=30))
def test_a_shared_tree_is_refused_exactly_when_it_stands_for_too_many_nodes(
    picks: list[tuple[int, int]],
) -> None:
    """Each step adds `plus(x, y)` of two earlier nodes (shared, not copied); the last one
    stands for as many nodes as its expansion has, which is what the limit counts."""
    made: list[Node] = [SymRef("a")]
    expanded = [1]
    for left, right in picks:
        i, j = left % len(made), right % len(made)
        made.append(call("plus")(made[i], made[j]))
        expanded.append(2 + expanded[i] + expanded[j])  # the call, its callee, its arguments
    limit = 200
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(traversal, "MOST_NODES", limit)
        if expanded[-1] > limit:
            with pytest.raises(TreeShapeError, match=f"more than {limit:,} nodes"):
                traversal.preorder(made[-1])
            with pytest.raises(TreeShapeError, match=f"more than {limit:,} nodes"):
                traversal.check_tree(made[-1])
        else:
            nodes, sizes = traversal.preorder(made[-1])
            assert len(nodes) == sizes[0] == expanded[-1]
            traversal.check_tree(made[-1])
