"""Reading IR from files: text (`.itir`) or JSON (`.json`), chosen by extension or content."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from iterir.errors import ParseError
from iterir.json_codec import from_json
from iterir.jsontext import loads
from iterir.nodes import Node
from iterir.parser import parse

_JSON_START = re.compile(r'\s*\{\s*"')
_BYTE_ORDER_MARK = "\ufeff"


MAX_INPUT_BYTES = 128 * 2**20
"""The largest input read, in bytes (128 MiB): four times a 1,000,000-node program in JSON (about
40 bytes a node), well past any real one, and small enough that reading it cannot exhaust memory.
Anything larger (`/dev/zero`, a runaway generator) is refused once the limit is reached."""

_CHUNK = 2**20
_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def read_text(path: str | Path, *, streams: bool = False, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of `path` (`-` is standard input), at most `limit` bytes; anything else is
    a ParseError naming the file. Only regular files are read, unless `streams` (a file the user
    named: a pipe such as `<(…)` or a device is then read, up to the limit). A file found rather
    than named (a snapshot's `.types`) may be a FIFO nobody writes: it is refused without waiting
    for a writer. A leading byte order mark, which some Windows editors write, is dropped: it is
    not part of the text."""
    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        if name == "<stdin>":
            data = _read_stdin(name, limit)
        else:
            data = _read_file(Path(path), name, streams, limit)
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}", name) from None
    return _decode(data, name).removeprefix(_BYTE_ORDER_MARK)


def _read_file(path: Path, name: str, streams: bool, limit: int) -> bytearray:
    """The bytes of `path`. Opened without blocking, so that a FIFO without a writer cannot hang
    us, and checked for what it is; a FIFO the user named is reopened to wait for its writer, as
    `cat` would."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(descriptor)
        kind = stat.S_IFMT(info.st_mode)
        if kind != stat.S_IFREG and (kind == stat.S_IFDIR or not streams):
            what = _KINDS.get(kind, "of an unknown kind")
            raise ParseError(f"cannot read file: it is {what}, not a regular file", name)
        if kind == stat.S_IFREG and info.st_size > limit:
            raise _too_large(name, limit)  # before reading any of it
        if kind == stat.S_IFIFO:
            blocking = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            os.close(descriptor)
            descriptor = blocking
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            return _bounded(file.read, name, limit)
    finally:
        os.close(descriptor)


def _read_stdin(name: str, limit: int) -> bytearray:
    """Standard input's bytes, read as a file's (a text stream put in its place is encoded)."""
    stream = sys.stdin
    if stream is None:
        raise ParseError("cannot read standard input: it is closed", name)
    if hasattr(stream, "buffer"):
        return _bounded(stream.buffer.read, name, limit)
    return _bounded(lambda size: stream.read(size).encode("utf-8", "surrogatepass"), name, limit)


def _bounded(read: Callable[[int], bytes], name: str, limit: int) -> bytearray:
    """What `read` gives until its end, refused as soon as that is more than `limit` bytes: read
    in chunks, so that memory never holds more than the limit and one chunk (and no copy)."""
    data = bytearray()
    while chunk := read(_CHUNK):
        data += chunk
        if len(data) > limit:
            raise _too_large(name, limit)
    return data


def _too_large(name: str, limit: int) -> ParseError:
    return ParseError(f"larger than the input limit of {limit:,} bytes: not read", name)


def _decode(data: bytearray, name: str) -> str:
    """`data` as UTF-8; the first invalid byte is a ParseError at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        raise ParseError(
            f"not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start})",
            name,
            data.count(b"\n", 0, exc.start) + 1,
            len(data[start : exc.start].decode("utf-8")) + 1,
            source_line=data[start : end if end >= 0 else len(data)].decode(
                "utf-8", "backslashreplace"
            ),
        ) from None


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
    # A lone surrogate fails in the encoding, before anything is written.
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all, as `write_text` writes text."""
    path = Path(path)
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
