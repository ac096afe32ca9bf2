"""Inference throughput of two commits side by side, interleaved in one pair of processes.

    python3 -m benchmarks.compare BASE [HEAD] [--pairs 5] [--size 100000] [--shapes …]
                                  [--compiled] [--compiled-base] [--call infer|infer_all|check]

BASE and HEAD are git revisions; HEAD defaults to this checkout's working tree ("worktree").
`--compiled` compiles HEAD's core with mypyc in its worktree first (`tools/compile.py`): with
BASE and HEAD the same commit, it measures the compiled build against the pure-Python one;
`--compiled-base` compiles BASE's too, to compare two commits both compiled. `--call` says what
is timed: `typeinf.infer` (the default; a fencil's type is made only when read), or `infer_all`
or `check` with every node's type then read once (what converting the types costs).
Each revision other than the working tree is checked out with `git worktree add --detach` into
a temporary folder, removed at the end (also on an error or Ctrl-C). One long-lived worker
process per version imports that version's `iterir` and `typeinf` (PYTHONPATH set to its root,
checked and printed) and takes commands as JSON lines on stdin.

Both versions infer the same programs: this checkout builds each shape
(`benchmarks.shapes.SHAPES`, or GTIR's `benchmarks.gtir_shapes.GTIR_SHAPES`, typed with the
offset-provider types they name) and prints it to text, and each worker parses that text with its
own parser (not timed), infers it once to warm up, then times the call on request. The workload
`gt4py_samples` is GT4Py's own programs instead: the `--size` largest records of
tests/data/gtir-samples (20 if `--size` is larger); and `icon4py`, real programs: the `--size`
largest of benchmarks/data/icon4py (60 if `--size` is larger). Each comes with its
offset-provider types, read from their JSON by each worker, and they are inferred one after the
other, the time of all of them taken.
Requests alternate between the versions and which goes first (A B, B A, …), so that the shared
machine's load, which varies by tens of percent, falls on both alike; the ratio HEAD/BASE is
taken per pair and its median and range reported. The calibration loop of `benchmarks.runner`
is printed at the start and end to show how much the machine's speed moved meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

HERE = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()
WORKTREE = "worktree"
STDERR_LINES = 20
#: What `--call` times, as the report names it.
TIMED = {
    "infer": "typeinf.infer alone",
    "infer_all": "typeinf.infer_all and reading every node's type once",
    "check": "typeinf.check and reading every node's type once",
}


#: The workload of GT4Py's own programs (tests/data/gtir-samples), beside the generated shapes.
SAMPLES = "gt4py_samples"
#: The workload of real programs: icon4py's (benchmarks/data/icon4py).
ICON4PY = "icon4py"


class CompareError(Exception):
    """A failure that ends the comparison with one line on stderr and exit status 2."""


# --- the worker: runs in a child interpreter that imports one version's code -----------------


def worker(root: str) -> None:
    """Serve one version: answer JSON-line commands on stdin (load, time, quit).

    Started as `python3 -c` in an empty folder, so that the only `iterir`/`typeinf` it can find
    first are those under PYTHONPATH=root; it checks that they are, rather than trusting it.
    Only stdlib is imported at module level, so this function runs against any version.
    """
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the protocol's own stdout
    os.dup2(2, 1)  # anything the code under test prints goes to stderr, not into the protocol
    sys.stdout = sys.stderr

    def reply(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    import iterir
    import typeinf

    base = Path(root).resolve()
    for module in (iterir, typeinf):
        where = Path(module.__file__ or "").resolve()
        if not where.is_relative_to(base):
            reply({"error": f"imported {module.__name__} from {where}, not from under {base}"})
            return
    print(f"worker {os.getpid()}: typeinf from {typeinf.__file__}", file=sys.stderr, flush=True)
    reply({"ready": True, "typeinf": typeinf.__file__, "iterir": iterir.__file__})
    programs: list[tuple[Any, object]] = []
    for line in sys.stdin:
        command = json.loads(line)
        if command["cmd"] == "load":
            programs = []  # the previous shape's programs are freed before the next are read
            text = Path(command["path"]).read_text(encoding="utf-8")
            if command.get("samples"):  # GT4Py's programs, each with its offset-provider types
                from iterir.offset_types import offset_types_from_json

                programs = [
                    (iterir.from_json(r["ir"]), offset_types_from_json(r["offset_provider_type"]))
                    for r in json.loads(text)
                ]
            else:
                provider: object = None
                if command.get("gtir"):  # GTIR's shapes take the offset-provider types they name
                    from benchmarks.gtir_shapes import OFFSET_TYPES

                    provider = OFFSET_TYPES
                programs = [(iterir.parse(text), provider)]
            nodes = sum(1 for node, _ in programs for _ in iterir.walk(node))
            for node, provider in programs:  # warm-up: the builtin signatures used are read now
                typeinf.infer(node, provider)  # type: ignore[arg-type]
            reply({"nodes": nodes})
        elif command["cmd"] == "time":
            call = command.get("call", "infer")
            start = time.perf_counter()
            for node, provider in programs:
                if call == "infer":
                    result: Any = typeinf.infer(node, provider)  # type: ignore[arg-type]
                else:  # every node's type, read once: what a caller that uses them all pays
                    result = getattr(typeinf, call)(node, provider)
                    for _ in (result if call == "infer_all" else result.types).values():
                        pass
                del result
            seconds = time.perf_counter() - start
            reply({"seconds": seconds})
        elif command["cmd"] == "quit":
            return


# --- the parent: revisions, worktrees, workers, interleaving, report --------------------------


def git(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run git in this checkout, output captured."""
    return subprocess.run(
        ["git", "-C", str(HERE), *arguments], capture_output=True, text=True, check=False
    )


def commit_of(revision: str) -> str:
    """The commit a revision names, or a CompareError naming the revision."""
    found = git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if found.returncode != 0 or revision.startswith("-"):
        raise CompareError(f"no such revision: {revision!r}")
    return found.stdout.strip()


@dataclass
class Version:
    """One side of the comparison: what the user named, and where its code sits."""

    role: str  # "BASE" or "HEAD"
    revision: str | None  # None: the working tree of this checkout
    commit: str = ""
    root: Path = HERE

    @property
    def label(self) -> str:
        """How the report names it: the revision as given, with its commit when they differ."""
        if self.revision is None:
            return WORKTREE
        short = self.commit[:7]
        return short if self.commit.startswith(self.revision) else f"{self.revision} ({short})"


def add_worktree(stack: ExitStack, version: Version, scratch: Path) -> None:
    """Check the version's commit out into a temporary worktree, removed when `stack` closes."""
    path = scratch / version.role.lower()
    added = git("worktree", "add", "--detach", str(path), version.commit)
    if added.returncode != 0:
        raise CompareError(f"git worktree add {version.label} failed: {last_line(added.stderr)}")
    stack.callback(remove_worktree, path)
    version.root = path


def remove_worktree(path: Path) -> None:
    """Remove a worktree we added; on failure say how to, since it would be left registered."""
    for attempt in range(3):
        removed = git("worktree", "remove", "--force", str(path))
        if removed.returncode == 0:
            return
        time.sleep(0.5 * (attempt + 1))
    print(
        f"compare: could not remove worktree {path}: {last_line(removed.stderr)}; "
        f"run: git worktree remove --force {path}",
        file=sys.stderr,
    )


def last_line(text: str) -> str:
    """The last non-blank line of a tool's stderr: usually the error itself, fit for one line."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "(nothing on stderr)"


@dataclass
class Worker:
    """The parent's handle on one version's worker process."""

    version: Version
    process: subprocess.Popen[str]
    stderr_path: Path
    doing: str = "starting"
    typeinf_file: str = ""
    times: dict[str, list[float]] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)

    def ask(self, command: dict[str, Any], doing: str) -> dict[str, Any]:
        """Send one command and wait for its answer; a dead or failing worker is a CompareError."""
        self.doing = doing
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(command) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            self.died()
        return self.receive()

    def receive(self) -> dict[str, Any]:
        """One answer; end of output means the worker died, so its stderr is shown."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.died()
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise CompareError(f"{self.version.role} {self.version.label}: {answer['error']}")
        return answer

    def died(self) -> NoReturn:
        """Show the worker's stderr (its traceback), then end with one line: what it was doing."""
        status = self.process.wait()
        text = self.stderr_path.read_text(encoding="utf-8", errors="replace")
        tail = text.strip().splitlines()[-STDERR_LINES:]
        if tail:
            print(
                f"--- stderr of the {self.version.role} worker ({self.version.label}) ---",
                file=sys.stderr,
            )
            print("\n".join(tail), file=sys.stderr)
            print("---", file=sys.stderr)
        raise CompareError(
            f"the {self.version.role} worker ({self.version.label}) exited with status "
            f"{status} while {self.doing}: {last_line(text)}"
        )


def start_worker(stack: ExitStack, version: Version, scratch: Path) -> Worker:
    """Start the version's worker in an empty folder, stopped when `stack` closes."""
    folder = scratch / "cwd"
    folder.mkdir(exist_ok=True)
    stderr_path = scratch / f"{version.role.lower()}.stderr"
    stderr = stack.enter_context(stderr_path.open("w", encoding="utf-8"))
    # This file, not the module: an older version has no benchmarks/compare.py to import.
    run = f"runpy.run_path({str(THIS)!r}, run_name='compare_worker')"
    code = f"import runpy; {run}['worker']({str(version.root)!r})"
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=folder,
        text=True,
        encoding="utf-8",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, "PYTHONPATH": str(version.root)},
        start_new_session=True,  # Ctrl-C reaches the parent only, which then stops it cleanly
    )
    stack.callback(stop, process)
    handle = Worker(version, process, stderr_path)
    handle.typeinf_file = handle.receive()["typeinf"]
    return handle


def stop(process: subprocess.Popen[str]) -> None:
    """Ask a worker to quit (end of its stdin), killing it if it does not."""
    try:
        if process.stdin:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout:
        process.stdout.close()


def compare(args: argparse.Namespace) -> None:
    """Set both versions up, run the interleaved pairs per shape, and print the report."""
    import iterir
    from benchmarks.gtir_inference import largest_samples
    from benchmarks.gtir_shapes import GTIR_SHAPES
    from benchmarks.icon4py_inference import load_corpus, select
    from benchmarks.runner import calibration
    from benchmarks.shapes import SHAPES

    base = Version("BASE", args.base)
    head = Version("HEAD", args.head)
    for version in (base, head):
        if version.revision is not None:
            version.commit = commit_of(version.revision)
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="typeinf-compare-")))
        for version in (base, head):
            if version.revision is not None:
                add_worktree(stack, version, scratch)
        # The core compiled in the version's own worktree (tools/compile.py).
        for version, compiled in ((base, args.compiled_base), (head, args.compiled)):
            if not compiled:
                continue
            from tools.compile import CompileError, build

            try:
                build(version.root)
            except CompileError as error:
                raise CompareError(f"{version.role} could not be compiled: {error}") from None
            print(
                f"{version.role} {version.label}: compiled with mypyc (tools/compile.py)",
                flush=True,
            )
        print(
            f"calibration: a 10-million-step Python loop takes {calibration():.2f} s on this machine now "
            "(figures scale with it)",
            flush=True,
        )
        workers = [start_worker(stack, version, scratch) for version in (base, head)]
        for w in workers:
            print(f"{w.version.role} {w.version.label}: typeinf from {w.typeinf_file}", flush=True)
        note = " (fewer than 5: the ratios' range says little)" if args.pairs < 5 else ""
        plural = "s" if args.pairs != 1 else ""
        print(
            f"{args.pairs} pair{plural} per shape{note}, order alternating (BASE HEAD, HEAD BASE, …), "
            f"size {args.size}; seconds of {TIMED[args.call]}",
            flush=True,
        )
        width = max(len(s) for s in args.shapes) + 1
        label_width = max(len(w.version.label) for w in workers) + 5
        header = (
            f"{'shape':<{width}} {'nodes':>8}  {'version':<{label_width}} "
            f"{'median s':>9} {'min s':>8} {'nodes/s':>9}"
        )
        print(header)
        print("-" * len(header), flush=True)
        ratios: dict[str, list[float]] = {}
        for shape in args.shapes:
            program = scratch / "program.itir"
            gtir = shape in GTIR_SHAPES
            if shape in (SAMPLES, ICON4PY):
                records = (
                    largest_samples(min(args.size, 20))
                    if shape == SAMPLES
                    else select(load_corpus(), min(args.size, 60), 0)
                )
                program.write_text(json.dumps(records), encoding="utf-8")
            else:
                made = (GTIR_SHAPES if gtir else SHAPES)[shape](args.size)
                program.write_text(iterir.pformat(made), encoding="utf-8")
            for w in workers:
                w.nodes[shape] = w.ask(
                    {
                        "cmd": "load",
                        "path": str(program),
                        "gtir": gtir,
                        "samples": shape in (SAMPLES, ICON4PY),
                    },
                    f"parsing and warming up on {shape}",
                )["nodes"]
            program.unlink()
            ratios[shape] = []
            for pair in range(args.pairs):
                seconds = {}
                for w in workers if pair % 2 == 0 else workers[::-1]:
                    answer = w.ask({"cmd": "time", "call": args.call}, f"inferring {shape}")
                    seconds[w.version.role] = answer["seconds"]
                    w.times.setdefault(shape, []).append(answer["seconds"])
                b, h = workers
                ratios[shape].append(
                    (h.nodes[shape] / seconds["HEAD"]) / (b.nodes[shape] / seconds["BASE"])
                )
            for i, w in enumerate(workers):
                times = w.times[shape]
                median = statistics.median(times)
                nodes = (
                    f"{w.nodes[shape]:>8}"
                    if i == 0 or w.nodes[shape] != workers[0].nodes[shape]
                    else " " * 8
                )
                name = shape if i == 0 else ""
                print(
                    f"{name:<{width}} {nodes}  {w.version.role + ' ' + w.version.label:<{label_width}} "
                    f"{median:>9.3f} {min(times):>8.3f} {w.nodes[shape] / median:>9.0f}"
                )
            print(
                f"{'':<{width}} {'':>8}  {'HEAD/BASE':<{label_width}} {ratio_text(ratios[shape])}",
                flush=True,
            )
        print(f"calibration at the end: {calibration():.2f} s")
        for shape in args.shapes:
            print(f"{shape:<{width}} HEAD/BASE throughput {ratio_text(ratios[shape])}")


def ratio_text(ratios: list[float]) -> str:
    """Median and range of the per-pair ratios: the range shows how much the noise moved it."""
    return f"{statistics.median(ratios):.2f}× (pairs {min(ratios):.2f}–{max(ratios):.2f})"


def main() -> None:
    from benchmarks.gtir_shapes import GTIR_SHAPES
    from benchmarks.inference_throughput import DEFAULT_SHAPES
    from benchmarks.shapes import SHAPES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", metavar="BASE", help="git revision to compare against")
    parser.add_argument(
        "head", metavar="HEAD", nargs="?", help="git revision (default: the working tree)"
    )
    parser.add_argument("--pairs", type=int, default=5, help="timed pairs per shape (default 5)")
    parser.add_argument(
        "--size", type=int, default=100_000, help="target node count of each program"
    )
    parser.add_argument(
        "--shapes",
        nargs="+",
        default=DEFAULT_SHAPES,
        choices=[*SHAPES, *GTIR_SHAPES, SAMPLES, ICON4PY],
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="compile HEAD's core with mypyc first (HEAD must be a revision)",
    )
    parser.add_argument(
        "--compiled-base",
        action="store_true",
        help="compile BASE's core too (BASE must differ from HEAD): both builds compiled",
    )
    parser.add_argument(
        "--call",
        choices=list(TIMED),
        default="infer",
        help="what is timed (default infer; infer_all and check read every node's type)",
    )
    args = parser.parse_args()
    if args.compiled_base and (args.head is None or args.base == args.head):
        parser.error(
            "--compiled-base builds in BASE's worktree: name a HEAD revision other than BASE"
        )
    if args.pairs < 1 or args.size < 1:
        parser.error("--pairs and --size must be at least 1")
    if args.compiled and args.head is None:
        parser.error("--compiled builds in HEAD's worktree: name HEAD as a revision")
    # SIGTERM ends the run like Ctrl-C does: through the cleanup of workers and worktrees.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        compare(args)
    except CompareError as error:
        print(f"compare: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("compare: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
