"""Walking and rewriting IR trees without recursion.

`NodeVisitor` and `NodeTranslator` follow the pattern of GT4Py's eve: `visit(node)` dispatches to
`visit_<ClassName>` or to `generic_visit`. To stay safe on 100,000-level programs they do not
recurse: a `visit_…` method that needs its children's results is a generator that yields the
child (or `(child, kwargs)`) and receives the child's result:

    class CountDerefs(NodeVisitor):
        def visit_FunCall(self, node):
            inner = yield from self.generic_visit(node)       # visits fun and args
            return sum(inner) + (node.fun == SymRef("deref"))

A plain (non-generator) `visit_…` method is a leaf: its return value is the result. The driver
keeps the pending generators on a list, so depth costs memory, never Python stack.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from itertools import repeat
from types import GeneratorType
from typing import Any, TypeAlias

from iterir.nodes import PLACEMENT, FunCall, MisplacedNodeError, Node

Visit = Generator[Any, Any, Any]

#: The most node occurrences a tree may have, a node object used in several places (a tree
#: built in Python may share subtrees) counted at each: 61 shared nodes can stand for 2^61.
#: Ten times the largest benchmarked program (docs/rules.md, Limits).
MOST_NODES = 10_000_000


class TreeShapeError(MisplacedNodeError):
    """A tree built in Python that is no tree: a node inside itself (a cycle, made with
    `object.__setattr__`), or more than `MOST_NODES` occurrences of nodes once shared subtrees
    are counted at each place they stand. `parent` is the node it is about."""

    def __init__(self, message: str, child: object, parent: Node, field: str) -> None:
        Exception.__init__(self, message)
        self.child, self.parent, self.field = child, parent, field


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree in pre-order (parents before children, children in field order).
    Raises TreeShapeError past `MOST_NODES` nodes (a cycle, or too many shared subtrees)."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    for _ in repeat(None, MOST_NODES):  # counts without a counter: `pop` ends the loop
        try:
            current = pop()
        except IndexError:
            return
        yield current
        push(reversed(current.children()))
    if stack:
        _search(node)


def check_tree(root: Node) -> None:
    """Raise TreeShapeError if `root` holds itself (naming the node on the cycle and its field)
    or stands for more than `MOST_NODES` nodes once shared subtrees are written out. Printers
    call it first: their output is the tree. The nodes are counted first (no more than
    `MOST_NODES`), which keeps a large tree off the search, much slower, which only a tree that
    is no tree then needs (docs/performance.md, "Figures from the code's comments")."""
    stack = [root]
    pop, push = stack.pop, stack.extend
    for _ in repeat(None, MOST_NODES):
        try:
            push(pop().children())
        except IndexError:
            return
        except AttributeError:  # not a node: built in Python; the search steps over it
            break
    _search(root)


def _search(root: Node) -> None:
    """`check_tree`'s search, linear in the number of distinct node objects."""
    sizes: dict[int, int] = {}  # id of a finished node → its subtree's size, capped
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        key = id(node)
        if ready:
            on_path.discard(key)
            size = 1 + sum(sizes.get(id(c), 0) for c in _nodes(node))
            sizes[key] = min(size, MOST_NODES + 1)
            continue
        if key in sizes:
            continue
        on_path.add(key)
        stack.append((node, True))
        for name in node.child_fields:
            value = getattr(node, name)
            for child in value if type(value) is tuple else (value,):
                if type(child) in PLACEMENT:
                    if id(child) in on_path:
                        held = (
                            "itself" if child is node else f"a {type(child).__name__} that holds it"
                        )
                        raise TreeShapeError(
                            f"the IR is not a tree: this {type(node).__name__} holds {held} "
                            f"(its `{name}` makes a cycle)",
                            child,
                            node,
                            name,
                        )
                    stack.append((child, False))
    if sizes[id(root)] > MOST_NODES:
        raise TreeShapeError(
            f"the IR has more than {MOST_NODES:,} nodes, counting a node used in several places "
            "at each (see the limits in docs/rules.md)",
            root,
            root,
            "",
        )


def _nodes(node: Node) -> Iterator[Node]:
    """The children of `node` that are nodes (a tree built in Python may hold anything)."""
    return (child for child in node.children() if type(child) in PLACEMENT)


#: What `preorder` pushes below a node's children: met again, the walk has left its subtree.
_END: Node = object()  # type: ignore[assignment]  # never read as a node


#: A tree numbered in pre-order (`preorder`): its nodes, and the size of the subtree at each
#: position.
Tree: TypeAlias = tuple[list[Node], list[int]]


def preorder(root: Node, checked: bool = False) -> Tree:
    """Every node occurrence in pre-order, and the size of the subtree at each position.

    The children of the node at position i start at i + 1, each after the previous one's
    subtree. A node object used in two places occurs twice; past `MOST_NODES` occurrences (a
    cycle, or too many shared subtrees), TreeShapeError. `checked` makes sure first that
    each node's children may stand where they do (`PLACEMENT`), raising MisplacedNodeError: a
    tree built in Python may hold anything.
    """
    nodes: list[Node] = []
    # Each subtree's size is set when the walk leaves it: a node with children pushes, below
    # them, `_END`, and its position on `opened`, rather than counting each node's children and
    # summing the counts in a second pass, which made the walk slower (docs/performance.md,
    # "Figures from the code's comments").
    sizes: list[int] = []
    opened: list[int] = []
    stack = [root]
    pop, push, add, one = stack.pop, stack.extend, nodes.append, sizes.append
    enter, leave, end = opened.append, opened.pop, _END
    placement = PLACEMENT
    (_, _, callees), (_, _, arguments) = PLACEMENT[FunCall]
    # One turn a node; the `_END`s met before it are taken in the same turn, so that a cycle
    # is cut after as many nodes as before them (not twice as many, with an `_END` each).
    for _ in repeat(None, MOST_NODES + 1):  # counts without a counter: `pop` ends the loop
        try:
            node = pop()
            while node is end:
                position = leave()
                sizes[position] = len(nodes) - position
                node = pop()
        except IndexError:
            break
        cls = type(node)
        if cls is FunCall:  # the most frequent inner node: its fields are read here
            call: FunCall = node  # type: ignore[assignment]  # cls is FunCall
            fun, args = call.fun, call.args
            if checked:
                if type(fun) not in callees:
                    raise MisplacedNodeError(fun, node, "fun")
                if type(args) is not tuple:
                    raise MisplacedNodeError(args, node, "args")
                for child in args:
                    if type(child) not in arguments:
                        raise MisplacedNodeError(child, node, "args")
            enter(len(nodes))
            add(node)
            one(1)
            stack.append(end)
            push(reversed(args))
            stack.append(fun)
            continue
        add(node)
        one(1)
        fields = placement[cls]
        if not fields:  # a leaf: about half of every program
            continue
        if checked:  # inline, not a call: this loop runs once per node of every program
            for name, many, allowed in fields:
                value = getattr(node, name)
                if not many:
                    if type(value) not in allowed:
                        raise MisplacedNodeError(value, node, name)
                elif type(value) is not tuple:
                    raise MisplacedNodeError(value, node, name)
                else:
                    for child in value:
                        if type(child) not in allowed:
                            raise MisplacedNodeError(child, node, name)
        enter(len(nodes) - 1)
        stack.append(end)
        push(reversed(node.children()))
    if stack or len(nodes) > MOST_NODES:  # a cycle or too many shared subtrees, said where
        _search(root)
    return nodes, sizes


def depths(sizes: list[int]) -> list[int]:
    """How many ancestors each pre-order position has (`sizes` as `preorder` gives them)."""
    out = [0] * len(sizes)
    ends: list[int] = []  # where the subtrees of the current ancestors end
    for position, size in enumerate(sizes):
        while ends and ends[-1] <= position:
            ends.pop()
        out[position] = len(ends)
        ends.append(position + size)
    return out


def child_positions(sizes: list[int], position: int, count: int) -> list[int]:
    """The positions of the first `count` children of the node at `position`."""
    out, child = [], position + 1
    for _ in range(count):
        out.append(child)
        child += sizes[child]
    return out


class NodeVisitor:
    """Dispatch on node class; `generic_visit` visits every child and returns their results."""

    def visit(self, node: Node, **kwargs: Any) -> Any:
        """Visit `node` (and whatever its visit method yields), returning its result."""
        frames: list[tuple[Visit, dict[str, Any]]] = []  # suspended visit methods, innermost last
        result = self._dispatch(node, kwargs)
        fresh = True  # `result` comes straight from a visit method (it may be a generator)
        while True:
            if fresh and isinstance(result, GeneratorType):
                frames.append((result, kwargs))
                sent = None
            elif not frames:
                return result
            else:
                sent = result
            generator, frame_kwargs = frames[-1]
            try:
                request = generator.send(sent)
            except StopIteration as stop:
                frames.pop()
                result, fresh = stop.value, False
                continue
            child, kwargs = request if isinstance(request, tuple) else (request, frame_kwargs)
            result, fresh = self._dispatch(child, kwargs), True

    def _dispatch(self, node: Node, kwargs: dict[str, Any]) -> Any:
        method = getattr(self, "visit_" + type(node).__name__, self.generic_visit)
        return method(node, **kwargs)

    def generic_visit(self, node: Node, **kwargs: Any) -> Visit:
        """Visit every child in field order; the result is the list of their results."""
        results = []
        for child in node.iter_children():
            results.append((yield child))
        return results


class NodeTranslator(NodeVisitor):
    """A visitor whose default rebuilds each node from its children's results.

    A node whose children all come back unchanged is returned as it is, so an unchanged
    subtree is shared rather than copied.
    """

    def generic_visit(self, node: Node, **kwargs: Any) -> Visit:
        changes: dict[str, Any] = {}
        for name in node.child_fields:
            value = getattr(node, name)
            if type(value) is tuple:
                new = []
                for child in value:
                    new.append((yield child))
                if any(a is not b for a, b in zip(new, value)):  # noqa: B905  # same length; a keyword costs time
                    changes[name] = tuple(new)
            elif value is not None:  # an optional child (a Temporary's domain) may be absent
                new_child = yield value
                if new_child is not value:
                    changes[name] = new_child
        if not changes:
            return node
        fields = {name: getattr(node, name) for name in (*node.value_fields, *node.child_fields)}
        rebuild: Callable[..., Node] = type(node)  # a node class: its fields are its arguments
        return rebuild(**{**fields, **changes}, loc=node.loc)
