"""Shared test configuration: hypothesis profiles, the real GT4Py samples, and which tests are
slow (`python3 -m pytest -m "not slow"`: the suite without them, for a contributor's loop)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: `pytester` runs a test suite inside a test (for the typeinf pytest plugin's own tests).
pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES_PATH = DATA / "gt4py-ir-samples" / "samples.jsonl"

settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("TYPEINF_HYPOTHESIS_PROFILE", "default"))

#: The tests marked `slow` (file, test function; every parametrization of it): each takes
#: seconds to minutes where the others take milliseconds. Together they are most of the
#: suite's time: GT4Py's side in its own venv alone is about half of it.
SLOW: frozenset[tuple[str, str]] = frozenset(
    {
        ("test_gt4py_bridge.py", "test_the_gt4py_side_passes_in_a_python_312_venv"),
        ("test_gtir_deep.py", "test_deep_gtir_round_trips"),
        ("test_deep.py", "test_deep_program_round_trips"),
        ("test_deep.py", "test_deep_json_text_round_trips"),
        ("test_types.py", "test_a_100000_level_type"),
        ("test_cyclic_trees.py", "test_inference_says_a_cycle_is_malformed_ir"),
        ("test_cyclic_trees.py", "test_2_to_the_61_nodes_end_at_the_real_limit"),
        ("test_cyclic_trees.py", "test_too_many_shared_nodes_is_a_limit"),
        ("test_reader.py", "test_deep_types_read_and_print_back"),
        (
            "test_shared_graphs.py",
            "test_the_value_of_a_graph_of_100000_cells_converts_compares_and_hashes",
        ),
        ("test_wheel.py", "test_wheel_installs_and_infers"),
        ("test_inference.py", "test_deep_programs_infer"),
        ("test_icon4py_dropin.py", "test_our_types_are_gt4pys_on_icon4py"),
    }
)


def compiled_build() -> bool:
    """Whether the core imported is the compiled build (`python3 -m tools.compile`)."""
    import typeinf.core.solve

    return not (typeinf.core.solve.__file__ or "").endswith(".py")


#: For tests that replace a method of a class the compiled build compiles (a compiled class's
#: methods cannot be patched): they run on the pure-Python build, which CI runs in full.
needs_pure_python = pytest.mark.skipif(
    compiled_build(), reason="patches a class that the compiled build compiles"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    found = set()
    for item in items:
        key = (item.path.name, getattr(item, "originalname", item.name))
        if key in SLOW:
            item.add_marker(pytest.mark.slow)
            found.add(key)
    collected = {item.path.name for item in items}
    gone = sorted(f"{file}::{test}" for file, test in SLOW - found if file in collected)
    if gone:  # a renamed or deleted test must leave the list too
        raise pytest.UsageError(f"tests/conftest.py SLOW names tests that do not exist: {gone}")


class MissingTestData(AssertionError):
    """A data file the tests need is not in the checkout: a failure that names it, never a skip."""


def required_file(path: Path) -> Path:
    """`path`, which must exist: the test data ship with the repository (tests/data)."""
    if not path.is_file():
        raise MissingTestData(
            f"test data missing: {path} (it ships with the repository under tests/data)"
        )
    return path


def load_samples(path: Path = SAMPLES_PATH) -> list[dict]:
    """The real GT4Py fencils of tests/data/gt4py-ir-samples (see its README for provenance)."""
    with required_file(path).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def samples() -> list[dict]:
    return load_samples()
