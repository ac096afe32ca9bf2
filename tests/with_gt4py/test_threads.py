"""The drop-in (`typeinf.gt4py.infer`) called from several threads at once, as GT4Py may call it:
on real programs (benchmarks/data/icon4py) and on GTIR's type errors, each call leaves on every
node of its copy the types it leaves alone, byte for byte (their reprs), or raises the error it
raises alone, with the same words; with a `Reuse` of its own per thread, and with one `Reuse`
shared by all, as the drop-ins `install` puts in GT4Py share one (tests/test_threads.py runs the
fencil IR and GTIR through `typeinf.infer` so)."""

from __future__ import annotations

from typing import Any

import pytest

import iterir
from benchmarks.icon4py_inference import built, load_corpus, select, walk
from tests.test_gtir_errors import ERRORS
from tests.test_threads import THREADS, assert_as_alone
from typeinf import TypeInferenceError
from typeinf.gt4py import Reuse, infer, offset_types_to_gt4py, to_gt4py

#: icon4py's programs with the most function definitions used more than once, which the drop-in
#: generalizes (a `Scheme` each; one used once is typed at its use).
GENERALIZING = [
    "_init_diffusion_local_fields_for_regular_timestep",
    "_apply_diffusion_to_theta_and_exner",
    "_calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
    "_compute_perturbed_quantities_and_interpolation",
    "arc_distance_of_far_edges_in_diamond",
    "_calculate_divdamp_fields",
    "_compute_exner_from_rhotheta",
    "_identity_c_k",
]


def _programs() -> list[tuple[Any, Any, bool]]:
    """GT4Py's node, its offset-provider types and whether names may be declared nowhere: a
    spread of icon4py's programs, small to large, those that generalize most, and GTIR's type
    errors as GT4Py's nodes."""
    records = load_corpus()
    chosen = select(records, 0, 0, GENERALIZING) + select(records, 2, 6)
    real = [(*built(record), False) for record in chosen]
    errors = [
        (
            to_gt4py(iterir.parse(text, "e.itir")),
            None if provider is None else offset_types_to_gt4py(provider),
            True,
        )
        for _, text, provider, _ in ERRORS
    ]
    return [*real, *errors]


PROGRAMS = _programs()


def outcome(node: Any, offsets: Any, undeclared: bool, reuse: Reuse | None) -> str:
    """What the drop-in says of `node`: the repr of the type it leaves on each node of its copy,
    in pre-order, or its error's class and words."""
    try:
        typed = infer(
            node, offset_provider_type=offsets, allow_undeclared_symbols=undeclared, reuse=reuse
        )
    except TypeInferenceError as error:
        return f"{type(error).__name__}: {error}"
    return "\n".join(repr(getattr(each, "type", None)) for each in walk(typed))


@pytest.mark.parametrize("shared", [False, True], ids=["a Reuse per thread", "one Reuse for all"])
def test_the_dropin_in_threads_types_as_alone(shared: bool) -> None:
    alone = [outcome(node, offsets, undeclared, None) for node, offsets, undeclared in PROGRAMS]
    assert any(said.startswith("GT4PyTypeInferenceError") for said in alone)  # errors, too
    common = Reuse()
    reuses = [common if shared else Reuse() for _ in range(THREADS)]

    def call(thread: int, program: int) -> str:
        """The drop-in twice: the second call may take the first's inference (`Reuse`), or
        with one for all another thread's, or find it replaced by another program's."""
        node, offsets, undeclared = PROGRAMS[program]
        first = outcome(node, offsets, undeclared, reuses[thread])
        again = outcome(node, offsets, undeclared, reuses[thread])
        return first if again == first else f"{first}\nand then\n{again}"

    assert_as_alone(alone, call)


def test_the_programs_are_real_and_typed() -> None:
    """The programs above are icon4py's, several of them large, and typed."""
    sizes = [sum(1 for _ in walk(node)) for node, _, undeclared in PROGRAMS if not undeclared]
    assert len(sizes) == 16 and max(sizes) > 3000
    typed = [outcome(node, offsets, False, None) for node, offsets, undeclared in PROGRAMS[:16]]
    assert all("FieldType" in said for said in typed)
