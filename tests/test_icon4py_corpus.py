"""The icon4py corpus (benchmarks/data/icon4py): every record reads, as its README says (count
and sha256), and the selection the benchmarks make of it is deterministic. The corpus is made
by `tools.icon4py_corpus`, whose environment-free parts are checked here too."""

from __future__ import annotations

import hashlib
import lzma
import re
import subprocess
import sys
from pathlib import Path

import pytest

import iterir
from benchmarks.icon4py_inference import CORPUS, load_corpus, select
from iterir.nodes import Program
from iterir.offset_types import offset_types_from_json
from tests.conftest import required_file
from tools.icon4py_corpus import spread

ROOT = Path(__file__).resolve().parent.parent
README = CORPUS.parent / "README.md"
RECORDS = load_corpus(required_file(CORPUS))
FIELDS = ["id", "text", "ir", "offset_provider_type", "gt4py_types", "nodes"]


def test_the_readme_states_the_count_and_the_sha256_of_the_file() -> None:
    readme = README.read_text(encoding="utf-8")
    count = re.search(r"holds (\d+) GTIR\s+`Program`s", readme)
    digest = re.search(r"sha256 of the uncompressed file: `([0-9a-f]{64})`", readme)
    assert count and digest, "the README states no count or no sha256"
    assert int(count.group(1)) == len(RECORDS)
    with lzma.open(CORPUS) as file:
        assert hashlib.sha256(file.read()).hexdigest() == digest.group(1)


def test_records_are_sorted_by_id_with_the_samples_fields() -> None:
    ids = [r["id"] for r in RECORDS]
    assert ids == sorted(set(ids))
    assert all(r["id"].startswith("icon4py.model.") for r in RECORDS)
    for record in RECORDS:
        fields = [k if k != "gt4py_error" else "gt4py_types" for k in record]
        assert fields == FIELDS, record["id"]


def test_every_program_reads_with_its_node_count_and_offset_types() -> None:
    for record in RECORDS:
        node = iterir.from_json(record["ir"])
        assert isinstance(node, Program), record["id"]
        assert sum(1 for _ in iterir.walk(node)) == record["nodes"], record["id"]
        assert offset_types_from_json(record["offset_provider_type"]), record["id"]


def test_the_selection_keeps_the_largest_and_spreads_the_rest() -> None:
    chosen = select(RECORDS, 5, 10)
    sizes = sorted((r["nodes"] for r in RECORDS), reverse=True)
    assert [r["nodes"] for r in chosen[:5]] == sizes[:5]
    assert len({r["id"] for r in chosen}) == 15 == len(chosen)
    assert chosen == select(RECORDS, 5, 10)
    assert spread(RECORDS, len(RECORDS) + 1, 3) == RECORDS


def test_an_id_names_one_record_by_its_full_id_or_last_part() -> None:
    biggest = max(RECORDS, key=lambda r: r["nodes"])
    assert select(RECORDS, 0, 0, [biggest["id"]]) == [biggest]
    assert select(RECORDS, 0, 0, [biggest["id"].rsplit(".", 1)[1]]) == [biggest]
    with pytest.raises(ValueError, match="names no record"):
        select(RECORDS, 0, 0, ["no_such_program"])


def test_the_tool_refuses_a_folder_that_is_no_environment(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.icon4py_corpus", "--venv", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "is no virtual environment (it has no bin/python)" in done.stderr
    assert "Traceback" not in done.stderr
