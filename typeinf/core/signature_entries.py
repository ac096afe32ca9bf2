"""The format both dialects' signature files share (`builtins/*.sig`, the fencil IR's, and
`builtins/*.gsig`, GTIR's): `names :: signature` entries, `#` comments, indented lines
continuing the entry above. Each dialect reads the signatures in its own notation
(`typeinf.fencil.signatures`, `typeinf.gtir.signatures`)."""

from __future__ import annotations


def signature_entries(text: str) -> list[tuple[list[str], str]]:
    """`names :: signature` entries; indented lines continue the entry above."""
    entries: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        if line[0].isspace() and entries:
            entries[-1].append(stripped.strip())
        else:
            entries.append([stripped])
    out = []
    for parts in entries:
        names, _, signature = " ".join(parts).partition("::")
        out.append((names.split(), signature.strip()))
    return out
