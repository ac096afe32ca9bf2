"""Reading IR from files: text (`.itir`) or JSON (`.json`), chosen by extension or content."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from iterir.errors import ParseError
from iterir.json_codec import from_json
from iterir.jsontext import loads
from iterir.nodes import Node
from iterir.parser import parse

_JSON_START = re.compile(r'\s*\{\s*"')
_BYTE_ORDER_MARK = "\ufeff"


def read_text(path: str | Path) -> str:
    """The text of `path` (`-` is standard input); unreadable files are a ParseError. A leading
    byte order mark, which some Windows editors write, is dropped: it is not part of the text."""
    name = str(path)
    try:
        text = sys.stdin.read() if name == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", name) from None
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}", name) from None
    return text.removeprefix(_BYTE_ORDER_MARK)


def is_json(text: str, filename: str | None) -> bool:
    """`.json` files are JSON and `.itir` files text; otherwise JSON is what starts with `{"`."""
    suffix = Path(filename).suffix.lower() if filename and filename != "-" else ""
    if suffix in (".json", ".itir"):
        return suffix == ".json"
    return _JSON_START.match(text) is not None


def loads_ir(text: str, filename: str | None = None) -> Node:
    """Parse IR given as text or as JSON, whichever `text` is."""
    if is_json(text, filename):
        return from_json(loads(text, filename), filename)
    return parse(text, filename)


def load(path: str | Path) -> Node:
    """Read the IR in `path` (`-` for standard input, whose format is told by its content)."""
    text = read_text(path)
    return loads_ir(text, "<stdin>" if str(path) == "-" else str(path))


def write_text(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all: into a temporary file in the same
    folder, flushed to disk, then renamed over `path`, so that a failure (a name that cannot be
    encoded, a full disk, a size limit) leaves the old file as it was. An existing file keeps its
    permissions; a new one gets the usual ones (0666 less the umask)."""
    path = Path(path)
    data = text.encode("utf-8")  # a lone surrogate fails here, before anything is written
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
