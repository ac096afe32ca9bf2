"""`docs/builtins.md` is generated from `builtins/*.sig`: it fails here when it is out of date."""

from __future__ import annotations

from tools.builtins_doc import PAGE, main, render
from typeinf.fencil.signatures import BUILTINS


def test_the_builtins_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), "run: python3 -m tools.builtins_doc"
    assert main(["--check"]) == 0


def test_the_builtins_page_names_every_builtin() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [name for name in BUILTINS if f"`{name}`" not in text]
    assert not missing, missing
