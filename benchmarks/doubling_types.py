"""Types that double: `f1 = λ(x) → {x, x}`, each next definition applying the one before twice,
checked and printed as the command line does (`typeinf.check`, then `pformat`).

    python3 -m benchmarks.doubling_types [--depths 5 6 20 30 100 1000] [--timeout 60]

The type of `f{depth}` is a graph of about 3 · 2^(depth-1) cells and, written out, has
2^(2^(depth-1)) leaves: what must not be expanded (docs/rules.md, Limits). Each depth runs in a
fresh interpreter; a run past the timeout is reported as such, with no figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time


def program(depth: int) -> str:
    lines = ["p(a, out) {", "  f1 = λ(x) → {x, x};"]
    lines += [f"  f{i} = λ(x) → f{i - 1}(f{i - 1}(x));" for i in range(2, depth + 1)]
    lines += [f"  out ← (λ(a) → f{depth}(·a))(a) @ c⟨ IDimₕ: [0, 1) ⟩;", "}"]
    return "\n".join(lines) + "\n"


def measure(depth: int) -> dict[str, object]:
    import iterir
    import typeinf

    node = iterir.parse(program(depth))
    start = time.perf_counter()
    checked = typeinf.check(node)
    if checked.errors:
        outcome = f"error: {checked.errors[0].message[:60]}…"
    else:
        assert checked.type is not None  # no errors: the program's type
        outcome = f"printed, {len(typeinf.pformat(checked.type)):,} characters"
    return {
        "seconds": time.perf_counter() - start,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "outcome": outcome,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[5, 6, 20, 30, 100, 1000])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child)))
        return
    print(f"{'depth':>6}  {'seconds':>8}  {'peak MB':>8}  outcome")
    for depth in args.depths:
        try:
            child = subprocess.run(
                [sys.executable, "-m", "benchmarks.doubling_types", "--child", str(depth)],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=True,
            )
        except subprocess.TimeoutExpired:
            print(f"{depth:>6}  {'-':>8}  {'-':>8}  not finished in {args.timeout:g} s")
            continue
        except subprocess.CalledProcessError as failed:
            last = (failed.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{depth:>6}  {'-':>8}  {'-':>8}  failed: {last[:80]}")
            continue
        row = json.loads(child.stdout)
        print(f"{depth:>6}  {row['seconds']:>8.2f}  {row['peak_rss_mb']:>8.0f}  {row['outcome']}")


if __name__ == "__main__":
    main()
