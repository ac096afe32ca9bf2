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
SAMPLES_PATH = ROOT.parent / "shared" / "gt4py-ir-samples" / "samples.jsonl"

settings.register_profile("default", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
settings.load_profile(os.environ.get("TYPEINF_HYPOTHESIS_PROFILE", "default"))


def load_samples() -> list[dict]:
    """The real GT4Py fencils of ../shared; every test that uses them fails if they are missing."""
    with SAMPLES_PATH.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def samples() -> list[dict]:
    return load_samples()
