"""Parser fuzzing: mutated programs (truncated, with stray Unicode, unbalanced brackets, enormous
literals), deep nesting, and mutated JSON documents either parse or raise ParseError, never
anything else, and never hang (each input runs under a limit of CPU time)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import iterir
from iterir.jsontext import dumps
from tests.conftest import load_samples
from tests.welltyped import well_typed_programs

#: A guard against hangs, not a speed test: CPU seconds of this process, so that a loaded machine
#: (11.7 s of wall time for 4.6 s of CPU seen on 2 busy cores) cannot fail it; speed is measured
#: by `benchmarks/`.
CPU_SECONDS_PER_INPUT = 20
SAMPLE_TEXTS = [s["text"] for s in load_samples()][:8]


@contextmanager
def cpu_time_limit(seconds: float) -> Iterator[None]:
    """Fail (rather than hang) when the body spends more than `seconds` of CPU time."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _parses_or_fails_cleanly(text: str, filename: str) -> str:
    """Load `text` as the command line would; return which way it went."""
    with cpu_time_limit(CPU_SECONDS_PER_INPUT):
        try:
            iterir.loads_ir(text, filename)
        except iterir.ParseError as error:
            assert str(error).startswith(f"{filename}:")
            return "ParseError"
    return "parsed"


STRAY = st.sampled_from(
    [
        "\x00",
        "\u2028",
        "\ufeff",
        "é",
        "ₒ",
        "⟨",
        "⟫",
        "→",
        "λ",
        "\U0001f600",
        "\\",
        '"',
        "`",
        "\ud800",
    ]
)
BRACKETS = "()[]{}⟨⟩⟪⟫"


@st.composite
def mutated_text(draw: st.DrawFn, source: st.SearchStrategy[str]) -> str:
    text = draw(source)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(
            st.sampled_from(["truncate", "insert", "drop bracket", "duplicate", "huge literal"])
        )
        if how == "truncate":
            text = text[:at]
        elif how == "insert":
            text = text[:at] + draw(STRAY) + text[at:]
        elif how == "drop bracket":
            positions = [i for i, c in enumerate(text) if c in BRACKETS]
            if positions:
                i = draw(st.sampled_from(positions))
                text = text[:i] + text[i + 1 :]
        elif how == "duplicate":
            end = draw(st.integers(at, min(len(text), at + 40)))
            text = text[:end] + text[at:end] + text[end:]
        else:
            text = (
                text[:at]
                + draw(
                    st.sampled_from(
                        ["9" * 100_000, "1." + "5" * 50_000 + "e99999", "9" * 5000 + "ₒ"]
                    )
                )
                + text[at:]
            )
    return text


program_texts = st.one_of(
    well_typed_programs.map(lambda g: iterir.pformat(g[0])), st.sampled_from(SAMPLE_TEXTS)
)


@given(mutated_text(program_texts))
def test_mutated_program_text_parses_or_raises_parse_error(text: str) -> None:
    event(_parses_or_fails_cleanly(text, "mutant.itir"))


@given(mutated_text(well_typed_programs.map(lambda g: dumps(iterir.to_json(g[0])))))
def test_mutated_json_parses_or_raises_parse_error(text: str) -> None:
    event(_parses_or_fails_cleanly(text, "mutant.json"))


DEEP = 100_000


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("(" * DEEP + "x" + ")" * DEEP, "parsed"),
        ("(" * DEEP + "x", "ParseError"),
        ("x" + ")" * DEEP, "ParseError"),
        ("[" * DEEP, "ParseError"),
        ("f(" * DEEP + ")" * DEEP, "parsed"),  # f(f(…f()…))
        ("f(" * DEEP + "x" + ")" * DEEP, "parsed"),
        ("{" * DEEP + "x" + "}" * DEEP, "parsed"),  # tuples of tuples
        ("{" * DEEP + "x" + "]" * DEEP, "ParseError"),
        ("¬" * DEEP + "x", "parsed"),
        ("9" * DEEP, "parsed"),
    ],
    ids=[
        "parens",
        "unclosed",
        "unopened",
        "brackets",
        "empty calls",
        "calls",
        "braces",
        "mismatched",
        "negations",
        "huge literal",
    ],
)
def test_deep_and_huge_text(text: str, outcome: str) -> None:
    assert _parses_or_fails_cleanly(text, "deep.itir") == outcome


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("[" * DEEP + "]" * DEEP, "ParseError"),
        ("[" * DEEP, "ParseError"),
        ('{"node": "SymRef", "id": ' + "[" * DEEP + "]" * DEEP + "}", "ParseError"),
        ('{"node": "Literal", "value": "' + "9" * DEEP + '", "type": "int32"}', "parsed"),
    ],
    ids=["nested lists", "unclosed lists", "deep field", "huge literal"],
)
def test_deep_and_huge_json(text: str, outcome: str) -> None:
    assert _parses_or_fails_cleanly(text, "deep.json") == outcome


def test_the_hang_guard_counts_cpu_time_not_waiting() -> None:
    """A body that waits (as on a loaded machine) is not cut off; one that spins is."""
    with cpu_time_limit(0.2):
        time.sleep(0.5)
    with pytest.raises(TimeoutError, match="CPU time"), cpu_time_limit(0.2):
        while True:
            pass
