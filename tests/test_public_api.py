"""What the packages promise to export is there: every name in `__all__` imports."""

from __future__ import annotations

import importlib

import pytest

import iterir
import typeinf


@pytest.mark.parametrize("package", [typeinf, iterir], ids=lambda p: p.__name__)
def test_every_name_in_all_imports(package: object) -> None:
    for name in package.__all__:  # type: ignore[attr-defined]
        assert hasattr(package, name), f"{package.__name__}.{name} is in __all__ but not defined"


@pytest.mark.parametrize("name", ["typeinf", "iterir"])
def test_star_import(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)  # the import a user writes
    assert set(importlib.import_module(name).__all__) <= set(namespace)


def test_duplicate_name_error_is_exported() -> None:
    assert issubclass(typeinf.DuplicateNameError, typeinf.TypeInferenceError)


def test_one_version() -> None:
    from importlib.metadata import version

    assert typeinf.__version__ == version("itir-typeinf")
