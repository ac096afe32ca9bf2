"""The garbage-collector pause leaves the process's collector as it found it."""

from __future__ import annotations

import gc

import pytest

from iterir.gcpause import gc_paused


@pytest.mark.parametrize("age", [True, False])
@pytest.mark.parametrize("enabled", [True, False])
def test_restores_the_enabled_state(enabled: bool, age: bool) -> None:
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with gc_paused(age):
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_what_was_built_meanwhile_is_not_left_young() -> None:
    with gc_paused():
        built = [[i] for i in range(50_000)]
    assert gc.get_count()[0] < 1_000  # the next young collection does not scan `built`
    assert gc.get_freeze_count() == 0  # and nothing stays frozen
    del built


def test_objects_the_caller_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_paused():
            [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_an_error_in_the_block_resumes_the_collector() -> None:
    assert gc.isenabled()
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()
