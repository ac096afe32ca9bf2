"""The engine's words: what the engine itself finds wrong, in both dialects alike (recursion, an
infinite type, a type too large, a typing rule that gave no reason, the two runs disagreeing, a
builtin signed twice, a broken installation), made here from what it found. The modules that
find it raise their error with these words, so a message is made only when an error is. It
imports nothing of typeinf's, so that any module of the engine, the solver's included, may use
it; what the dialects' reports say alike (the reasons, a call's arity, a name declared twice,
the rendering) is `typeinf.core.diagnostics`', which the solver does not reach.
"""

from __future__ import annotations

from collections.abc import Sequence


# -- the program (order, solve, sizes) ------------------------------------------------------------
def recursion(cycle: list[str]) -> str:
    """Definitions that reach themselves: `cycle` names them, the first one again last."""
    return "recursion is not allowed: " + " → ".join(cycle)


def infinite_type(shown: str) -> str:
    """A type that would contain itself, `shown` in the dialect's notation (`…`: itself)."""
    return f"this would need an infinite type (`{shown}`, where `…` is the type itself)"


#: A type that would contain itself where no node's type shows it.
INFINITE_PROGRAM = "the program would need an infinite type"


def type_too_large(name: str | None, most: int) -> str:
    """The type of the definition `name` (None: one without a name) has more than `most` cells."""
    named = "this definition" if name is None else name
    return (
        f"the type of `{named}` is too large: its graph has more than "
        f"{most:,} cells (a definition that uses another one several times can double its type; "
        "see the limits in docs/rules.md)"
    )


# -- the reason of a constraint whose rule gives none (constraints.rule_of) ----------------------
def rule_of_callee(name: str) -> str:
    """The typing rule of a call of, or a reference to, `name`."""
    return f"`{name}`"


def rule_of_kind(kind: str) -> str:
    """The typing rule of a node of the class `kind`."""
    return f"a {kind}"


# -- our own faults (errors, schemes, the signature files, packaged) ------------------------------
def runs_disagree(found: str, other: str, error: object) -> str:
    """The `found` run of inference found `error`, which the `other` run did not find."""
    return f"the {found} run of inference found a type error that the {other} run did not: {error}"


def two_signatures(file: str, name: str) -> str:
    """The signature file `file` (either dialect's: `signature_entries` reads both) gives the
    builtin `name` a second signature."""
    return f"{file}: builtin {name!r} has two signatures"


#: A cyclic type to generalize: `check_finite` reports an infinite type before.
CYCLIC_SCHEME = "cannot generalize a cyclic type"


def no_data_files(pattern: str, candidates: Sequence[object]) -> str:
    """None of the folders `candidates` holds files matching `pattern`."""
    return f"no {pattern} files in {' or '.join(map(str, candidates))}"
