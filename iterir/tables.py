"""LALR parse tables built once per grammar and kept on disk, so that a process starts fast.

Building the tables of `grammar.lark` takes longer than a small program takes to parse and
infer; loading them from the cache is much faster (docs/performance.md, "Figures from the code's
comments"). The cache is lark's own
format (keyed by the grammar, the options, lark's and Python's versions, and checked by lark when
read), in `$TYPEINF_CACHE_DIR`, else `$XDG_CACHE_HOME/typeinf`, else `~/.cache/typeinf`. Lark
writes the file in place: one cut short (a full disk, or read while another start writes it)
fails lark's check when read, and the tables are built again, so a cache file can cost time but
never give a wrong parser. Where the folder cannot be made, the tables are built in memory.
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
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return lark.Lark(grammar, parser="lalr", **options)
    # Lark keys the file by the grammar, the options (the file's own name among them) and its
    # version, checks that key when it reads the file, and rebuilds the tables when it does not
    # match or the file is cut short.
    return lark.Lark(grammar, parser="lalr", cache=str(folder / f"{name}-{key}.lark"), **options)
