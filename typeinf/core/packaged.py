"""Data folders that ship with typeinf: the builtin signatures and the documentation pages.

Installed from a wheel they are inside the package (`typeinf/builtins`, `typeinf/docs`); in a
checkout they are top-level folders beside it (`builtins/`, `docs/`)."""

from __future__ import annotations

from pathlib import Path

from typeinf.core import messages

#: The `typeinf` package folder (this module is in `typeinf/core`).
_PACKAGE = Path(__file__).resolve().parent.parent


def data_folder(name: str, pattern: str) -> Path:
    """The folder `name` that holds files matching `pattern`; none is a broken installation."""
    candidates = (_PACKAGE / name, _PACKAGE.parent / name)
    for folder in candidates:
        if any(folder.glob(pattern)):
            return folder
    raise FileNotFoundError(messages.no_data_files(pattern, candidates))
