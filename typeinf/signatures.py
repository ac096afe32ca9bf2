"""The builtins' types, read from the signature files in `builtins/`, and the registry that a
compiler extends with its own builtins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from typeinf.matching import Matcher, compiled_matcher
from typeinf.reader import TypeSyntaxError, parse_type
from typeinf.terms import Cell, Scheme, Sort, compiled, find

_HERE = Path(__file__).resolve().parent
#: Installed, the wheel puts the files inside the package; in a checkout they are beside it.
_FOLDERS = (_HERE / "builtins", _HERE.parent / "builtins")


@dataclass(frozen=True)
class Signature:
    """How a builtin is typed: by a signature (`type`), by a grammar rule, or as a type name."""

    name: str
    how: str  # "signature", "rule" or "dtype"
    type: Cell | None = None
    scheme: Scheme | None = None
    #: A fresh instance of `type` (`scheme.instantiate`, compiled).
    instantiate: Callable[[], Cell] | None = None
    #: For a direct call: fresh parameters and result, result last (see `terms.compiled`).
    instantiate_call: Callable[[], tuple[Cell, ...]] | None = None
    #: For a direct call without history: its type from its arguments' (see `matching`).
    match: Matcher | None = None


def _folder() -> Path:
    for folder in _FOLDERS:
        if any(folder.glob("*.sig")):
            return folder
    raise FileNotFoundError(f"no builtin signature files (*.sig) in {' or '.join(map(str, _FOLDERS))}")


def _entries(text: str) -> list[tuple[list[str], str]]:
    """`names :: signature` entries; indented lines continue the entry above."""
    entries: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        if line[0].isspace() and entries:
            entries[-1].append(stripped.strip())
        else:
            entries.append([stripped])
    out = []
    for parts in entries:
        names, _, signature = " ".join(parts).partition("::")
        out.append((names.split(), signature.strip()))
    return out


def _read(name: str, signature: str) -> Signature:
    if signature in ("rule", "dtype"):
        return Signature(name, signature)
    type_ = parse_type(signature)
    if not isinstance(type_, Cell) or find(type_).sort is not Sort.TYPE:
        raise TypeSyntaxError(f"the signature of {name!r} must be a type, not {signature!r}")
    return typed_by(name, type_)


def typed_by(name: str, type_: Cell) -> Signature:
    """The signature of `name` with the type `type_`, compiled."""
    scheme = Scheme(type_)
    return Signature(name, "signature", type_, scheme, compiled(scheme), compiled(scheme, call=True),
                     compiled_matcher(scheme))  # fmt: skip


def _load() -> dict[str, Signature]:
    registry: dict[str, Signature] = {}
    for path in sorted(_folder().glob("*.sig")):
        for names, signature in _entries(path.read_text(encoding="utf-8")):
            for name in names:
                if name in registry:
                    raise TypeSyntaxError(f"{path.name}: builtin {name!r} has two signatures")
                registry[name] = _read(name, signature)
    return registry


BUILTINS: dict[str, Signature] = _load()


def register_builtin(name: str, signature: str, *, replace: bool = False) -> None:
    """Add a builtin typed by `signature`, e.g. `"(T₀¹, T₀¹) → T₀¹ where T₀: float"`.

    A malformed signature raises `TypeSyntaxError` (a ValueError); an existing builtin is only
    replaced when asked to.
    """
    if not name.isidentifier():
        raise ValueError(f"a builtin's name must be an identifier, not {name!r}")
    if name in BUILTINS and not replace:
        raise ValueError(f"{name!r} is a builtin already; pass replace=True to replace it")
    BUILTINS[name] = _read(name, signature)
