"""The switch (`typeinf.gt4py.install`, `uninstall`, `installed`): installed, GT4Py's passes
call typeinf's inference and not GT4Py's; undone, GT4Py's again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gt4py.next.iterator.transforms import pass_manager
from gt4py.next.iterator.type_system import inference as theirs

import iterir
import typeinf.gt4py
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from tests.with_gt4py.providers import offset_provider
from typeinf.gt4py import inference as ours
from typeinf.gt4py import (
    install,
    installed,
    is_installed,
    offset_types_to_gt4py,
    to_gt4py,
    uninstall,
)

GT4PYS = (theirs.infer, theirs.reinfer, pass_manager.infer)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often each inference runs: ours (`_inferred`, behind both of our functions) and
    GT4Py's (its inference's `visit`)."""
    counts = {"ours": 0, "theirs": 0}
    inferred, visit = ours._inferred, theirs.ITIRTypeInference.visit

    def counted_ours(*args: object, **kwargs: object) -> object:
        counts["ours"] += 1
        return inferred(*args, **kwargs)  # type: ignore[arg-type]

    def counted_theirs(self: object, node: object, **kwargs: object) -> object:
        if node is not None and not isinstance(node, list):
            counts["theirs"] += 1
        return visit(self, node, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ours, "_inferred", counted_ours)
    monkeypatch.setattr(theirs.ITIRTypeInference, "visit", counted_theirs)
    yield counts
    uninstall()


def _ours(*sites: object) -> tuple[object, ...]:
    """What each installed site calls first (the drop-in's `ours`); None where it is no drop-in."""
    return tuple(getattr(site, "ours", None) for site in sites)


def _pass_manager_run() -> None:
    sample = next(s for s in SAMPLES if s["id"] == "test_hdiff.test_hdiff.pre.00")
    node = to_gt4py(iterir.from_json(sample["ir"]))
    types = offset_types_to_gt4py(offset_types_from_json(sample["offset_provider_type"]))
    pass_manager.apply_common_transforms(node, offset_provider=offset_provider(types))


def test_installed_gt4pys_passes_call_ours_and_uninstalled_theirs(calls: dict[str, int]) -> None:
    assert not is_installed()
    install(strict=True)
    assert is_installed()
    assert _ours(theirs.infer, theirs.reinfer, pass_manager.infer) == (
        typeinf.gt4py.infer,
        typeinf.gt4py.reinfer,
        typeinf.gt4py.infer,
    )
    _pass_manager_run()
    assert calls["ours"] > 0 and calls["theirs"] == 0
    uninstall()
    assert not is_installed()
    assert (theirs.infer, theirs.reinfer, pass_manager.infer) == GT4PYS
    calls["ours"] = 0
    _pass_manager_run()
    assert calls["ours"] == 0 and calls["theirs"] > 0


def test_install_twice_and_uninstall_twice_change_nothing_more() -> None:
    install()
    install()
    uninstall()
    assert (theirs.infer, theirs.reinfer, pass_manager.infer) == GT4PYS
    uninstall()
    assert (theirs.infer, theirs.reinfer, pass_manager.infer) == GT4PYS


def test_installed_leaves_the_switch_as_it_found_it() -> None:
    with installed():
        assert _ours(theirs.infer) == (typeinf.gt4py.infer,)
        with installed():
            assert is_installed()
        assert is_installed()  # the inner block found it installed
    assert (theirs.infer, theirs.reinfer, pass_manager.infer) == GT4PYS
    install()
    try:
        with pytest.raises(RuntimeError), installed():
            raise RuntimeError("inside the block")
        assert is_installed()
    finally:
        uninstall()
    with pytest.raises(RuntimeError), installed():
        raise RuntimeError("inside the block")
    assert not is_installed()
