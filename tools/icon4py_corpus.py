"""The icon4py corpus (benchmarks/data/icon4py): every GT4Py `Program` and `FieldOperator` (scan
operators included) of icon4py 0.4.1's common, dycore and diffusion packages, lowered to GTIR as
GT4Py 1.2.1's backends lower them, in the JSON-lines form of tests/data/gtir-samples.

    python3 -m tools.icon4py_corpus [--venv PATH] [--out FOLDER] [--max-bytes N]

It runs in a Python ≥ 3.12 virtual environment of its own holding `ICON4PY_PINS` (which pin
GT4Py 1.2.1) and this checkout's dependencies, made once by `tools.gt4py_venv` (`ensure_venv`
with those pins: `~/.cache/typeinf/gt4py-venv-<key>`) and reused; `--venv PATH` or
`$TYPEINF_ICON4PY_VENV` names an existing one instead (it must hold bin/python, GT4Py 1.2.1,
the three icon4py packages and lark). The extraction itself runs there, with this checkout first
on PYTHONPATH:

1. every submodule of `PACKAGES` is imported; one that fails to import is skipped and named;
2. each module's attributes that are GT4Py `Program`s or `FieldOperator`s are collected, once
   per object, under `<module>.<name>` (the module and name of its definition where it is
   bound there, else the first module that binds it);
3. each is lowered by GT4Py's `backend.DEFAULT_TRANSFORMS` (the frontend transforms of the
   gtfn and roundtrip backends) from its definition stage with compile-time arguments of its own
   parameter types (a field operator's `out` last, as calling it does) and the simple grid's
   connectivities: a field operator goes through `func_to_foast` and `field_view_op_to_prog`
   (GT4Py's operator-to-program step), a program through `func_to_past`; both then through
   `past_lint`, `field_view_prog_args_transform` and `past_to_itir`, whose GTIR `Program` is what
   the backend's pass manager receives. A failure skips the object, with its reason;
4. the program becomes our node (`typeinf.gt4py.from_gt4py`) and JSON (`iterir.to_json`); it is
   kept only if the JSON read back (`iterir.from_json`, `typeinf.gt4py.to_gt4py`) equals
   GT4Py's node and prints as it does;
5. GT4Py 1.2.1's own inference types it with the simple grid's offset-provider types
   (`common.offset_provider_to_type`), giving the record's `gt4py_types` (or `gt4py_error`).

The records are sorted by id, written xz-compressed, whole or not at all, with the README that
states their provenance and counts. If the compressed file would exceed `--max-bytes`, the 100
largest programs are kept with an even spread of the rest, and the README says so. What goes
wrong outside one program is a message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import lzma
import os
import pkgutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iterir.files import write_bytes
from tools import gt4py_venv

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "icon4py"
CORPUS_NAME = "programs.jsonl.xz"
#: What the environment holds besides this checkout's dependencies. The packages pin GT4Py
#: 1.2.1; xarray is imported by icon4py.model.common's grid modules (the simple grid among
#: them) but only listed in icon4py-common's heavy `io` extra, so it is named alone here.
ICON4PY_PINS = (
    "icon4py-common==0.4.1",
    "icon4py-atmosphere-dycore==0.4.1",
    "icon4py-atmosphere-diffusion==0.4.1",
    "xarray>=2024.10.0,<2026.4",
)
PACKAGES = (
    "icon4py.model.common",
    "icon4py.model.atmosphere.dycore",
    "icon4py.model.atmosphere.diffusion",
)
VENV_VARIABLE = "TYPEINF_ICON4PY_VENV"
#: Above this many compressed bytes the corpus keeps the largest `KEEP_LARGEST` and a spread.
MAX_BYTES = 5_000_000
KEEP_LARGEST = 100
SPREAD = 100
EXTRACTION_TIMEOUT = 3600


class CorpusError(Exception):
    """The corpus could not be made: why."""


# --- outside the environment -----------------------------------------------------------------


def environment(given: str | None) -> Path:
    """The environment's python: the one named (`--venv`, else `$TYPEINF_ICON4PY_VENV`), or the
    one `tools.gt4py_venv` makes with `ICON4PY_PINS`."""
    named = given or os.environ.get(VENV_VARIABLE)
    if named:
        python = Path(named) / "bin" / "python"
        if not python.exists():
            raise CorpusError(f"{named} is no virtual environment (it has no bin/python)")
        return python
    if os.environ.get("TYPEINF_GT4PY_VENV"):
        raise CorpusError(
            "TYPEINF_GT4PY_VENV names the GT4Py 1.2.3 environment, not icon4py's: unset it, "
            f"or name icon4py's with --venv or {VENV_VARIABLE}"
        )
    try:
        python312 = gt4py_venv.find_python312()
        if python312 is None:
            raise CorpusError("no Python ≥ 3.12 found (set TYPEINF_PYTHON312)")
        venv, seconds = gt4py_venv.ensure_venv(python312, pins=ICON4PY_PINS)
    except gt4py_venv.VenvError as error:
        raise CorpusError(str(error)) from None
    made = "reused" if seconds is None else f"made in {seconds:.0f} s"
    print(f"icon4py environment: {venv} ({made})", flush=True)
    return venv / "bin" / "python"


def run_in(python: Path, out: Path, max_bytes: int) -> int:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    command = [str(python), "-m", "tools.icon4py_corpus", "--in-venv", "--out", str(out)]
    command += ["--max-bytes", str(max_bytes)]
    try:
        return subprocess.run(command, cwd=ROOT, env=env, timeout=EXTRACTION_TIMEOUT).returncode
    except subprocess.TimeoutExpired:
        raise CorpusError(f"the extraction did not finish in {EXTRACTION_TIMEOUT} s") from None
    except OSError as error:
        raise CorpusError(f"`{python}` cannot run: {error}") from None


# --- the files ---------------------------------------------------------------------------------


def encoded(records: list[dict[str, Any]]) -> bytes:
    """The records as JSON lines (the samples' spelling: `json.dumps` defaults, UTF-8)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def compressed(data: bytes) -> bytes:
    return lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)


def spread(records: list[dict[str, Any]], largest: int, count: int) -> list[dict[str, Any]]:
    """The `largest` records with the most nodes and `count` more evenly spaced over the rest
    by size (deterministic: ties broken by id); in id order."""
    by_size = sorted(records, key=lambda r: (-r["nodes"], r["id"]))
    rest = by_size[largest:]
    step = max(1, len(rest) / count) if count else 0
    picked = [rest[int(i * step)] for i in range(min(count, len(rest)))] if step else []
    return sorted([*by_size[:largest], *picked], key=lambda r: r["id"])


# --- inside the environment --------------------------------------------------------------------


@dataclass
class Harvest:
    modules: int = 0
    import_failures: dict[str, str] = field(default_factory=dict)
    found: int = 0
    found_by_kind: Counter[str] = field(default_factory=Counter)
    skipped: dict[str, str] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    gt4py_errors: int = 0
    trimmed_from: int | None = None


def reason(error: BaseException) -> str:
    """One line: the exception's class and the first line of its message, shortened."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    text = text if len(text) <= 160 else text[:157] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def modules(harvest: Harvest) -> Iterator[Any]:
    """Every module of `PACKAGES` that imports, in name order; the others are recorded."""
    names: set[str] = set()
    for package_name in PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except Exception as error:
            harvest.import_failures[package_name] = reason(error)
            continue
        names.add(package_name)

        def failed(name: str) -> None:
            harvest.import_failures[name] = reason(sys.exc_info()[1] or ImportError(name))

        for info in pkgutil.walk_packages(package.__path__, f"{package_name}.", onerror=failed):
            names.add(info.name)
    for name in sorted(names):
        try:
            module = importlib.import_module(name)
        except BaseException as error:  # a module may exit or raise anything while importing
            if isinstance(error, KeyboardInterrupt):
                raise
            harvest.import_failures[name] = reason(error)
            continue
        harvest.modules += 1
        yield module


def entry_points(harvest: Harvest) -> list[tuple[str, Any]]:
    """(id, object) for every Program and FieldOperator bound in the modules, once each."""
    from gt4py.next.ffront import decorator

    seen: dict[int, tuple[Any, list[tuple[str, str]]]] = {}
    for module in modules(harvest):
        for name, value in sorted(vars(module).items()):
            if isinstance(value, (decorator.Program, decorator.FieldOperator)):
                seen.setdefault(id(value), (value, []))[1].append((module.__name__, name))
    chosen: dict[str, Any] = {}
    for value, places in seen.values():
        definition = value.definition_stage.definition
        home = getattr(definition, "__module__", None)
        own = [p for p in places if p == (home, definition.__name__)]
        local = [p for p in places if p[0] == home]
        module_name, name = (own or local or places)[0]
        chosen.setdefault(f"{module_name}.{name}", value)
        harvest.found_by_kind[kind_of(value)] += 1
    harvest.found = len(chosen)
    return sorted(chosen.items())


def kind_of(value: Any) -> str:
    """ "program", "field operator" or "scan operator" (the class of its FOAST node)."""
    node_class = getattr(value.definition_stage, "node_class", None)
    if node_class is None:
        return "program"
    return "scan operator" if node_class.__name__ == "ScanOperator" else "field operator"


def lowered(value: Any, connectivities: Any) -> Any:
    """GT4Py's GTIR Program for a Program or FieldOperator, as a backend's transforms make it."""
    from gt4py.next import backend
    from gt4py.next.ffront import decorator
    from gt4py.next.ffront import type_info as ffront_type_info
    from gt4py.next.otf import arguments, definitions

    if isinstance(value, decorator.Program):
        args = tuple(p.type for p in value.past_stage.past_node.params)
    else:
        program_type = ffront_type_info.type_in_program_context(value.foast_stage.foast_node.type)
        signature = program_type.definition
        args = (
            *signature.pos_only_args,
            *signature.pos_or_kw_args.values(),
            *signature.kw_only_args.values(),
        )
    compile_time = arguments.CompileTimeArgs(
        args=args,
        kwargs={},
        offset_provider=connectivities,
        column_axis=None,
        argument_descriptor_contexts={},
    )
    stage = definitions.ConcreteProgramDef(data=value.definition_stage, args=compile_time)
    return backend.DEFAULT_TRANSFORMS(stage).data


def type_json(value: Any) -> dict[str, Any] | None:
    """A GT4Py type as the samples hold it: `{"str": str(type), "json": …}`, or None."""
    from iterir.gtir_types import type_to_json
    from typeinf.gt4py import type_from_gt4py

    if value is None:
        return None
    if type(value).__name__ == "ProgramType":
        params = {str(k): type_to_json(type_from_gt4py(v)) for k, v in value.params.items()}
        return {"str": str(value), "json": {"t": "ProgramType", "params": params}}
    return {"str": str(value), "json": type_to_json(type_from_gt4py(value))}


def gt4py_types(node: Any, offset_provider_type: Any) -> dict[str, Any]:
    """GT4Py 1.2.1's inference of `node` (a copy), in the samples' `gt4py_types` form."""
    from gt4py.next.iterator import ir
    from gt4py.next.iterator.type_system import inference

    import iterir
    from typeinf.gt4py import from_gt4py

    typed = inference.infer(node, offset_provider_type=offset_provider_type)
    set_ats: list[dict[str, Any]] = []
    pending = [(str(i), s) for i, s in enumerate(typed.body)][::-1]
    while pending:
        path, statement = pending.pop()
        if isinstance(statement, ir.SetAt):
            set_ats.append(
                {
                    "path": path,
                    "target": iterir.pformat(from_gt4py(statement.target)),
                    "expr": type_json(statement.expr.type),
                    "target_type": type_json(statement.target.type),
                    "domain": type_json(statement.domain.type),
                }
            )
        elif isinstance(statement, ir.IfStmt):
            branches = [(f"{path}.t.{i}", s) for i, s in enumerate(statement.true_branch)]
            branches += [(f"{path}.f.{i}", s) for i, s in enumerate(statement.false_branch)]
            pending.extend(reversed(branches))
    exprs = [n for n in typed.pre_walk_values() if isinstance(n, ir.Expr)]
    typed_exprs = [repr(n.type) for n in exprs if n.type is not None]
    return {
        "root": type_json(typed.type),
        "params": {str(p.id): type_json(p.type) for p in typed.params},
        "function_definitions": {str(d.id): type_json(d.type) for d in typed.function_definitions},
        "temporaries": {str(t.id): type_json(t.type) for t in typed.declarations},
        "set_ats": set_ats,
        "stats": {
            "expr_nodes": len(exprs),
            "untyped": len(exprs) - len(typed_exprs),
            "with_deferred": sum("DeferredType" in t for t in typed_exprs),
            "with_unknown_position": sum("position_dims='unknown'" in t for t in typed_exprs),
        },
    }


def offset_types_json(offset_provider_type: Any) -> dict[str, Any]:
    """GT4Py's offset-provider types in the samples' JSON form (derived fields included)."""
    from iterir.gtir_types import type_to_json
    from iterir.offset_types import NeighborConnectivityType
    from typeinf.gt4py import offset_types_from_gt4py

    out: dict[str, Any] = {}
    for name, value in offset_types_from_gt4py(offset_provider_type).items():
        if not isinstance(value, NeighborConnectivityType):
            out[name] = type_to_json(value)
            continue
        out[name] = {
            "t": "NeighborConnectivityType",
            "domain": [type_to_json(d) for d in value.domain],
            "codomain": type_to_json(value.codomain),
            "skip_value": value.skip_value,
            "dtype": value.dtype,
            "max_neighbors": value.max_neighbors,
            "source_dim": type_to_json(value.source_dim),
            "neighbor_dim": type_to_json(value.neighbor_dim),
            "has_skip_values": value.has_skip_values,
        }
    return out


def record(
    name: str, node: Any, offset_provider_type: Any, offsets_json: dict[str, Any]
) -> dict[str, Any]:
    """The corpus record of GT4Py's `node`; a ValueError if its JSON does not give it back."""
    from gt4py.next.iterator import pretty_printer

    import iterir
    from typeinf.gt4py import from_gt4py, to_gt4py

    ours = from_gt4py(node)
    data = iterir.to_json(ours)
    back = to_gt4py(iterir.from_json(json.loads(json.dumps(data))))
    text = pretty_printer.pformat(node)
    if back != node or pretty_printer.pformat(back) != text:
        raise ValueError("the JSON does not give GT4Py's node back (round trip)")
    entry: dict[str, Any] = {"id": name, "text": text, "ir": data}
    entry["offset_provider_type"] = offsets_json
    try:
        entry["gt4py_types"] = gt4py_types(node, offset_provider_type)
    except Exception as error:
        entry["gt4py_error"] = {
            "class": type(error).__name__,
            "message": str(error),
            "where": "gt4py.next.iterator.type_system.inference.infer",
        }
    entry["nodes"] = sum(1 for _ in iterir.walk(ours))
    return entry


def harvest_all() -> tuple[Harvest, int]:
    """Everything found, lowered, converted and typed; and the grid's connectivity count."""
    from gt4py.next import common
    from icon4py.model.common.grid import simple

    harvest = Harvest()
    grid = simple.simple_grid()
    connectivities = grid.connectivities
    offset_provider_type = common.offset_provider_to_type(connectivities)
    offsets_json = offset_types_json(offset_provider_type)
    for name, value in entry_points(harvest):
        try:
            node = lowered(value, connectivities)
        except Exception as error:
            harvest.skipped[name] = f"lowering: {reason(error)}"
            continue
        try:
            entry = record(name, node, offset_provider_type, offsets_json)
        except Exception as error:
            harvest.skipped[name] = f"conversion: {reason(error)}"
            continue
        harvest.gt4py_errors += "gt4py_error" in entry
        harvest.records.append(entry)
    harvest.records.sort(key=lambda r: r["id"])
    return harvest, len(connectivities)


def readme(harvest: Harvest, raw: bytes, packed: bytes, connectivities: int) -> str:
    import gt4py

    records = harvest.records
    nodes = [r["nodes"] for r in records]
    biggest = max(records, key=lambda r: (r["nodes"], r["id"]))
    per_package = Counter(
        next(p for p in PACKAGES if r["id"].startswith(p + ".")).rsplit(".", 1)[1] for r in records
    )
    kinds = ", ".join(f"{n} {k}s" for k, n in sorted(harvest.found_by_kind.items()))
    skipped = "\n".join(f"- `{name}`: {why}" for name, why in sorted(harvest.skipped.items()))
    failures = "\n".join(
        f"- `{name}`: {why}" for name, why in sorted(harvest.import_failures.items())
    )
    trimmed = (
        f"The whole corpus ({harvest.trimmed_from} records) was over {MAX_BYTES:,} bytes "
        f"compressed, so this file keeps the {KEEP_LARGEST} largest and {SPREAD} more spread "
        "evenly over the rest by size.\n\n"
        if harvest.trimmed_from is not None
        else ""
    )
    return f"""# Real programs: icon4py 0.4.1, lowered to GTIR by GT4Py {gt4py.__version__}

`{CORPUS_NAME}` (xz-compressed JSON lines; Python's `lzma` reads it) holds {len(records)} GTIR
`Program`s: every GT4Py program, field operator and scan operator of icon4py 0.4.1's
`icon4py.model.common`, `icon4py.model.atmosphere.dycore` and
`icon4py.model.atmosphere.diffusion` that lowers, as GT4Py's backends lower it before their
pass manager. {sum(nodes):,} IR nodes in all (`Sym`s included); the largest,
`{biggest["id"]}`, has {biggest["nodes"]:,}; the median has {sorted(nodes)[len(nodes) // 2]:,}.
Generated data, not written by hand, and no icon4py or GT4Py source code: made by
`python3 -m tools.icon4py_corpus` (its docstring says how), which rewrites this README too.

{trimmed}## Where they come from

- Packages (PyPI): `icon4py-common==0.4.1`, `icon4py-atmosphere-dycore==0.4.1`,
  `icon4py-atmosphere-diffusion==0.4.1` (they pin `gt4py==1.2.1`), with `xarray` (imported by
  the grid modules), in Python {sys.version.split()[0]}; GT4Py {gt4py.__version__}.
- Modules: every submodule of the three packages is imported ({harvest.modules} did);
  {len(harvest.import_failures)} failed to import and were skipped{":" if failures else "."}

{failures}

- Lowering: GT4Py's `backend.DEFAULT_TRANSFORMS` (the frontend transforms of its gtfn and
  roundtrip backends), given the definition stage and compile-time arguments of the object's
  own parameter types (a field operator's `out` last, as its call passes it) and the simple
  grid's connectivities. A field operator becomes a program by GT4Py's own
  `field_view_op_to_prog` step (its program is named `__field_operator_<name>`), a program is
  parsed by `func_to_past`; both then pass `past_lint`, `field_view_prog_args_transform` and
  `past_to_itir`. The record is the GTIR `Program` that step gives: the pass manager's input.
- Grid: `icon4py.model.common.grid.simple.simple_grid()`; its {connectivities} connectivities as
  offset-provider types (`gt4py.next.common.offset_provider_to_type`), the same in every record.
  Vertical shifts (`Koff`) are `CartesianOffset` nodes in GT4Py 1.2.1's GTIR and need none.
- Checked: each record's `ir` read back (`iterir.from_json`, `typeinf.gt4py.to_gt4py`) equals
  GT4Py's node and prints as it does.

## Counts

- Found: {harvest.found} ({kinds}), one per object, named where defined.
- Lowered and kept: {len(records)} ({", ".join(f"{n} from {p}" for p, n in sorted(per_package.items()))}).
- Skipped: {len(harvest.skipped)}{":" if skipped else "."}

{skipped}

- GT4Py's own inference rejects {harvest.gt4py_errors} of the kept programs (`gt4py_error`).

sha256 of the uncompressed file: `{hashlib.sha256(raw).hexdigest()}`
({len(raw):,} bytes; {len(packed):,} compressed).

## Fields

As tests/data/gtir-samples/README.md describes them, in the same order: `id`
(`<icon4py module>.<object name>`), `text` (GT4Py's pretty-printed text), `ir` (lossless, GT4Py's
class and field names), `offset_provider_type`, `gt4py_types` (what GT4Py {gt4py.__version__}'s
inference gives with those offset-provider types: `root`, `params`, `function_definitions`,
`temporaries`, `set_ats`, `stats`; `stats` counts the `Expr` nodes of its typed copy, those left
untyped, and those whose type holds a `DeferredType` or an iterator of unknown position) or
`gt4py_error`, and `nodes`.

Used by `benchmarks/icon4py_inference.py` and `benchmarks/gt4py_pass_manager.py --corpus
icon4py`, and by `tests/test_icon4py_corpus.py` and `tests/with_gt4py/test_icon4py_dropin.py`.
"""


def extract(out: Path, max_bytes: int) -> int:
    start = time.monotonic()
    try:
        harvest, connectivities = harvest_all()
    except ImportError as error:
        raise CorpusError(
            f"this environment lacks what the extraction needs ({error}): it needs "
            f"{', '.join(ICON4PY_PINS)} and lark, and this checkout on PYTHONPATH"
        ) from None
    if not harvest.records:
        raise CorpusError("no program was lowered: nothing to write")
    raw = encoded(harvest.records)
    packed = compressed(raw)
    if len(packed) > max_bytes:
        harvest.trimmed_from = len(harvest.records)
        harvest.records = spread(harvest.records, KEEP_LARGEST, SPREAD)
        raw = encoded(harvest.records)
        packed = compressed(raw)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_bytes(out / CORPUS_NAME, packed)
        text = readme(harvest, raw, packed, connectivities)
        write_bytes(out / "README.md", text.encode("utf-8"))
    except OSError as error:
        raise CorpusError(f"cannot write to {out}: {error}") from None
    print(
        f"found {harvest.found}, kept {len(harvest.records)}, skipped {len(harvest.skipped)}, "
        f"modules not imported {len(harvest.import_failures)}; "
        f"{len(packed):,} bytes at {out / CORPUS_NAME} ({time.monotonic() - start:.0f} s)"
    )
    for name, why in sorted(harvest.skipped.items()):
        print(f"  skipped {name}: {why}")
    for name, why in sorted(harvest.import_failures.items()):
        print(f"  not imported {name}: {why}")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", help=f"an existing environment (else ${VENV_VARIABLE})")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder written")
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    parser.add_argument("--in-venv", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    try:
        if options.in_venv:
            return extract(options.out.resolve(), options.max_bytes)
        return run_in(environment(options.venv), options.out.resolve(), options.max_bytes)
    except CorpusError as error:
        print(f"tools.icon4py_corpus: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
