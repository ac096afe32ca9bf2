"""IR snapshot regression files: the printed types of a program, kept beside it.

A program `NAME.itir` or `NAME.json` (with an optional offset provider `NAME.offsets.json`)
has its expected types in `NAME.types`: for a fencil, one line per function definition, then
the fencil's own signature; for an expression, its type; for a program with type errors, one
`line:col: error: …` line per error. Types are in the located notation, so that nothing a later
pass could change is hidden. A GTIR program's (docs/gtir.md): one line per function definition,
then its own `p(…)`; its offset provider is GT4Py's offset-provider types.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import iterir
from iterir.files import read_text
from typeinf.core.diagnostics import Source, source_of
from typeinf.core.errors import TypeInferenceError
from typeinf.fencil.infer import Solved
from typeinf.fencil.notation import pformat_lines
from typeinf.frontends.gtir_report import type_lines
from typeinf.gtir.infer import GtirSolved
from typeinf.route import read_provider, solve_either

EXPECTED_SUFFIX = ".types"
PROVIDER_SUFFIX = ".offsets.json"
IR_SUFFIXES = (".itir", ".json")


def expected_text(checked: Solved | GtirSolved, source: Source) -> str:
    """What an expected-types file holds for a program solved: its types, or its errors."""
    if checked.errors:
        return "".join(
            f"{_where(error, source)}: error: {error.message}\n" for error in checked.errors
        )
    type_ = checked.type
    assert type_ is not None  # `solve` gives the program's type when it finds no errors
    if isinstance(checked, GtirSolved):
        return "".join(line + "\n" for line in type_lines(type_))  # type: ignore[arg-type]  # GTIR's
    return "".join(line + "\n" for line in pformat_lines(type_, locations=True))  # type: ignore[arg-type]  # the fencil IR's


def _where(error: TypeInferenceError, source: Source) -> str:
    """A location that does not depend on how the file was named on the command line."""
    node = error.node
    if node is not None and node.loc is not None:
        return f"{node.loc.line}:{node.loc.column}"
    return source.at(node) if node is not None else "<program>"


@dataclass
class Snapshot:
    """One program of a snapshot folder, and what became of it."""

    program: Path
    expected: Path
    target: Path  # where the expected file is written: `expected`, or what a symlink points to
    stored: str | None = None  # the expected file's text; None: there is none yet
    actual: str | None = None  # None: the program (or its expected file) could not be read
    problem: str | None = None  # why not, when it could not
    errors: int = 0  # the type errors in `actual`

    def diff(self) -> str:
        stored = self.stored or ""
        return "".join(
            difflib.unified_diff(
                stored.splitlines(keepends=True),
                (self.actual or "").splitlines(keepends=True),
                f"{self.expected} (expected)",
                f"{self.program} (inferred)",
            )
        )


def programs(folder: Path) -> Iterator[Path]:
    """The IR files under `folder`, in sorted order (offset providers are not programs). Whatever
    is not a folder counts, a FIFO or a broken symlink too: it is then named as unreadable
    rather than silently left out."""
    for path in sorted(folder.rglob("*")):
        if (
            path.suffix in IR_SUFFIXES
            and not path.name.endswith(PROVIDER_SUFFIX)
            and not path.is_dir()
        ):
            yield path


def sibling_provider(program: Path) -> Path:
    """Where the offset provider of `program` is kept, if it has one: `NAME.offsets.json` beside
    `NAME.itir` (the snapshots and the command line look in the same place)."""
    return program.with_name(program.stem + PROVIDER_SUFFIX)


def take(program: Path, folder: Path) -> Snapshot:
    """Infer `program` of the snapshot folder `folder` (with its sibling offset provider, if any)
    as its snapshot would. A file that is there in any form (a dangling symlink too) is read, and
    an expected file that leads out of `folder` is refused: `update` would write there."""
    expected = program.with_name(program.stem + EXPECTED_SUFFIX)
    snapshot = Snapshot(program, expected, Path(os.path.realpath(expected)))
    provider_path = sibling_provider(program)
    try:
        if not snapshot.target.is_relative_to(os.path.realpath(folder)):
            raise iterir.ParseError(
                f"a symlink to {snapshot.target}, outside {folder}: neither read nor written",
                str(expected),
            )
        text = read_text(program)
        node = iterir.loads_ir(text, str(program))
        given = os.path.lexists(provider_path)
        provider = read_provider(node, str(provider_path) if given else None)
        snapshot.stored = read_text(expected) if os.path.lexists(expected) else None
    except iterir.ParseError as error:
        snapshot.problem = str(error)
        return snapshot
    checked = solve_either(node, provider)
    snapshot.actual = expected_text(checked, source_of(str(program), text, node))
    snapshot.errors = len(checked.errors)
    return snapshot
