"""The command line's standard output and standard error, made safe to write to.

What a stream's encoding cannot carry (`⁰` on an ASCII terminal, a lone surrogate in a name) is
escaped rather than raised, and a failure to write (a stream closed with `>&-`, a full disk, a
reader that went away) becomes one `OutputError` naming the stream, which `main` reports in one
line: environment, not a bug of ours.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
from typing import TYPE_CHECKING, BinaryIO, TextIO

from typeinf.core.notation import to_ascii

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

ERRORS = "typeinf-degrade"  # the codec error handler of the streams


def degrade(text: str, encoding: str) -> str:
    """`text` (which `encoding` cannot encode) as that encoding can carry it: the notation's
    characters in their ASCII spelling (`T₀¹ → T₀¹` as `T0^1 -> T0^1`, which `parse_type` reads),
    anything else escaped (`λ` as `\\u03bb`). The one place where output meets a narrow encoding
    (an ASCII terminal, a log)."""
    return to_ascii(text).encode(encoding, "backslashreplace").decode(encoding)


def _degrade_error(error: UnicodeError) -> tuple[str, int]:
    """From the first character the encoding lacks, the rest of the text written is degraded
    whole, so that a type is spelled in one way (`T0^1`, never `T0¹` on a latin-1 stream)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return degrade(error.object[error.start :], error.encoding), len(error.object)


codecs.register_error(ERRORS, _degrade_error)


class OutputError(Exception):
    """A standard stream could not be written: which one, and the system's reason. `gone`: the
    reader went away (a broken pipe, `typeinf infer f | head`), which is no error of the user's:
    the command ends quietly, as `git` and `grep` do."""

    def __init__(self, message: str, gone: bool = False) -> None:
        super().__init__(message)
        self.gone = gone


class _Guard(io.BufferedIOBase):
    """The bytes under a standard stream: an OSError becomes an OutputError, raised once; what is
    written after it is dropped, so that nothing fails again when the interpreter exits."""

    def __init__(self, target: BinaryIO | None, name: str) -> None:
        super().__init__()
        self._target, self._name, self._failed = target, name, False

    @property
    def name(self) -> str:
        return self._name

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._target is not None and self._target.isatty()

    def write(self, data: ReadableBuffer) -> int:
        if self._target is None:
            self._fail("it is closed")
        elif not self._failed:
            try:
                self._target.write(data)
            except OSError as error:
                self._fail(error)
        return memoryview(data).nbytes

    def flush(self) -> None:
        if self._target is not None and not self._failed:
            try:
                self._target.flush()
            except OSError as error:
                self._fail(error)

    def _fail(self, error: OSError | str) -> None:
        if self._failed:
            return
        reason = error if isinstance(error, str) else error.strerror or str(error)
        self._failed = True
        if self._target is not None:  # what it still holds goes nowhere, rather than fail at exit
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self._target.fileno())
                os.close(devnull)
        raise OutputError(
            f"cannot write to {self._name}: {reason}", isinstance(error, BrokenPipeError)
        )


def guarded(stream: TextIO | None, name: str) -> TextIO:
    """`stream` (None: closed when we started) writing through `degrade` and the guard. A text
    stream without bytes under it (an `io.StringIO` set in Python) cannot fail: it is kept."""
    if stream is not None and not hasattr(stream, "buffer"):
        return stream
    if stream is not None:
        stream.flush()
    return io.TextIOWrapper(
        _Guard(None if stream is None else stream.buffer, name),
        encoding="utf-8" if stream is None else stream.encoding,
        errors=ERRORS,
        line_buffering=bool(stream and stream.line_buffering),
        write_through=True,
    )
