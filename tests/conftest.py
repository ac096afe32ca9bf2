"""Shared test configuration: hypothesis profiles and the real GT4Py samples."""

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
