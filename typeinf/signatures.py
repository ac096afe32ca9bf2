"""The builtins' types, read from the signature files in `builtins/`, and the registry that a
compiler extends with its own builtins."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from pathlib import Path

from typeinf.constructors import FUN, fixed_params
from typeinf.matching import Matcher, compiled_matcher
from typeinf.packaged import data_folder
from typeinf.reader import TypeSyntaxError, parse_type
from typeinf.schemes import Scheme, compiled
from typeinf.terms import Cell, Sort, Type, find


class Signature:
    """How a builtin is typed: by a signature (`type`), by a grammar rule, or as a type name.

    A signature's text is read, and its code generated, when first used: reading all of them
    would add half a second to every start-up (a program uses a handful)."""

    def __init__(
        self, name: str, how: str, text: str | None = None, type_: Cell | None = None
    ) -> None:
        self.name = name
        self.how = how  # "signature", "rule" or "dtype"
        self.text = text
        if type_ is not None:
            self.__dict__["type"] = type_  # read already: what `type` would give

    @cached_property
    def type(self) -> Cell | None:
        if self.how != "signature":
            return None
        type_ = _parsed(self.text)  # type: ignore[arg-type]
        if not isinstance(type_, Cell) or find(type_).sort is not Sort.TYPE:
            raise TypeSyntaxError(
                f"the signature of {self.name!r} must be a type, not {self.text!r}"
            )
        return type_

    @cached_property
    def scheme(self) -> Scheme | None:
        return None if self.type is None else Scheme(self.type)

    @cached_property
    def instantiate(self) -> Callable[[], Cell] | None:
        """A fresh instance of `type` (`scheme.instantiate`, compiled)."""
        return None if self.scheme is None else compiled(self.scheme)

    @cached_property
    def instantiate_call(self) -> Callable[[], tuple[Cell, ...]] | None:
        """For a direct call: fresh parameters and result, result last (see `terms.compiled`)."""
        return None if self.scheme is None else compiled(self.scheme, call=True)

    @cached_property
    def takes_any_arity(self) -> bool:
        """Whether its first parameter is a function of any number of parameters (`lift`, `scan`,
        `reduce`, `map_`): a call is then typed by `shaped.for_arity`."""
        params = None if self.type is None else fixed_params(self.type)
        return bool(params) and find(params[0]).ctor is FUN and fixed_params(params[0]) is None  # type: ignore[index]

    @cached_property
    def match(self) -> Matcher | None:
        """For a direct call without history: its type from its arguments' (see `matching`)."""
        return None if self.scheme is None else compiled_matcher(self.scheme)


@lru_cache(maxsize=None)
def _parsed(text: str) -> Type:
    """A signature's text read once, for every builtin it types (`plus`, `minus`, …): schemes
    only read the cells."""
    return parse_type(text)


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
    return Signature(name, signature if signature in ("rule", "dtype") else "signature", signature)


def typed_by(name: str, type_: Cell) -> Signature:
    """The signature of `name` with the type `type_`."""
    return Signature(name, "signature", type_=type_)


def signature_files() -> list[tuple[Path, str, list[tuple[list[str], str]]]]:
    """Each signature file, its text and its `(names, signature)` entries, in file-name order:
    what the registry is built from, and `docs/builtins.md` generated from."""
    files = []
    for path in sorted(data_folder("builtins", "*.sig").glob("*.sig")):
        text = path.read_text(encoding="utf-8")
        files.append((path, text, _entries(text)))
    return files


def _load() -> dict[str, Signature]:
    registry: dict[str, Signature] = {}
    for path, _, entries in signature_files():
        for names, signature in entries:
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
    read = _read(name, signature)
    read.match  # noqa: B018 - read and compiled now, so that a malformed signature is an error here
    BUILTINS[name] = read
