"""Generates `docs/builtins.md` from the signature files in `builtins/`.

    python3 -m tools.builtins_doc           rewrite docs/builtins.md
    python3 -m tools.builtins_doc --check   exit 1 if docs/builtins.md is out of date

`tests/test_builtins_doc.py` fails when the page is out of date; `tests/test_docs.py` also infers
every builtin of its tables and compares the printed types.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from iterir.files import write_text
from typeinf.fencil.notation import pformat
from typeinf.fencil.reader import parse_type
from typeinf.fencil.signatures import signature_files

PAGE = Path(__file__).resolve().parent.parent / "docs" / "builtins.md"

_INTRO = """\
# Builtin signatures

<!-- Generated from builtins/*.sig by `python3 -m tools.builtins_doc`: edit those, not this. -->

Every builtin of the iterator IR with its most general type: in the located notation (GT4Py
1.0.3's, with iterator locations) and in the compact one that `typeinf infer` prints by default
([notation.md](notation.md) explains both). A builtin's type is instantiated afresh at every use,
so the variables of one use are unrelated to those of another. Each row is what
`echo 'NAME' | typeinf infer --locations -` prints (the test suite checks it). A compiler adds
its own builtins with `typeinf.register_builtin(name, signature)`, in the same notation.
"""

_RULES = """\
## Typed by rule

These builtins are part of the grammar: their type depends on literal arguments or on the offset
provider, so they have no signature and may appear only in call position (as a callee). Their
rules are in [rules.md](rules.md): {names}.

Type names, usable only as the second argument of `cast_`: {dtypes}.
"""


def _comment(text: str) -> tuple[str, str]:
    """A file's title (its first comment sentence) and the rest of its leading comment."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    comment = " ".join(lines)
    title, _, rest = comment.partition(". ")
    return re.sub(r"\s*\(located notation\)\.?$", "", title).rstrip("."), rest.strip()


def render() -> str:
    """The page, from the signature files as they are now."""
    parts, rules, dtypes = [_INTRO], [], []
    for path, text, entries in signature_files():
        signatures = [
            (names, signature) for names, signature in entries if signature not in ("rule", "dtype")
        ]
        rules += [name for names, signature in entries if signature == "rule" for name in names]
        dtypes += [name for names, signature in entries if signature == "dtype" for name in names]
        if not signatures:
            continue
        title, rest = _comment(text)
        parts.append(f"## {title}\n\nFrom `builtins/{path.name}`.{' ' + rest if rest else ''}\n")
        rows = ["| program | located | compact |", "|---|---|---|"]
        for names, signature in signatures:
            type_ = parse_type(signature)
            located, compact = pformat(type_, locations=True), pformat(type_)
            rows += [f"| `{name}` | `{located}` | `{compact}` |" for name in names]
        parts.append("\n".join(rows) + "\n")
    code = ", ".join(f"`{name}`" for name in rules)
    parts.append(_RULES.format(names=code, dtypes=", ".join(f"`{name}`" for name in dtypes)))
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.builtins_doc", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if docs/builtins.md is out of date"
    )
    args = parser.parse_args(argv)
    text = render()
    current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else None
    if args.check:
        if current != text:
            print(f"{PAGE} is out of date: run python3 -m tools.builtins_doc", file=sys.stderr)
            return 1
        return 0
    if current != text:
        write_text(PAGE, text)
        print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
