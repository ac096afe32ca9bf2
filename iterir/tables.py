"""LALR parse tables built once per grammar and kept on disk, so that a process starts fast.

Building the tables of `grammar.lark` takes 150–230 ms of CPU, longer than a small program takes
to parse and infer; loading them from the cache takes about 10 ms. The cache is lark's own
format (keyed by the grammar, the options, lark's and Python's versions, and checked by lark when
read), in `$TYPEINF_CACHE_DIR`, else `$XDG_CACHE_HOME/typeinf`, else `~/.cache/typeinf`. A file
takes its name only once written (a temporary file renamed into place), so a concurrent start
never reads half of one; a file cut short (a full disk) fails lark's check and the tables are
built again. Where the folder cannot be written, the tables are built in memory.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import lark


def cache_dir() -> Path:
    """Where parse tables are kept (see the module's docstring)."""
    explicit = os.environ.get("TYPEINF_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "typeinf"


def text_parser(grammar_file: str, transformer: object) -> lark.Lark:
    """The parser of one of iterir's text dialects: its grammar file in the package, LALR with a
    contextual lexer, `transformer`'s callbacks building nodes as rules are reduced, every token
    kept (the callbacks locate nodes by them)."""
    grammar = resources.files("iterir").joinpath(grammar_file).read_text(encoding="utf-8")
    return lalr(
        grammar_file.removesuffix(".lark"),
        grammar,
        lexer="contextual",
        transformer=transformer,
        keep_all_tokens=True,
        maybe_placeholders=False,
    )


def lalr(name: str, grammar: str, **options: Any) -> lark.Lark:
    """A LALR parser of `grammar`, its tables read from the cache when they are there."""
    key = hashlib.sha256(
        "\0".join(
            [
                grammar,
                repr(sorted((k, repr(v)) for k, v in options.items() if k != "transformer")),
                lark.__version__,
                sys.version,
            ]
        ).encode()
    ).hexdigest()[:24]
    folder = cache_dir()
    final = folder / f"{name}-{key}.lark"
    if final.is_file():
        return lark.Lark(grammar, parser="lalr", cache=str(final), **options)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return lark.Lark(grammar, parser="lalr", **options)
    temporary = folder / f".{final.name}.{os.getpid()}.tmp"
    parser = lark.Lark(grammar, parser="lalr", cache=str(temporary), **options)
    try:
        os.replace(temporary, final)  # lark wrote it in place; only a whole file takes the name
    except OSError:
        temporary.unlink(missing_ok=True)
    return parser
