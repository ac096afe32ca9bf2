"""Errors about input the user gave us, rendered as `file:line:col: error: …` with an excerpt."""

from __future__ import annotations

from iterir.display import EXCERPT_WIDTH, escaped, shown


def excerpt(line_text: str, column: int, end_column: int | None = None) -> str:
    """The source line and a caret line under columns [column, end_column), both 1-based.

    Long lines (a whole program on one line) are cut to a window around the caret. Control and
    bidirectional characters are shown escaped (`\\u001b`), and the carets stand under what
    they mark in the line as shown.
    """
    line = line_text.rstrip("\r\n")
    start = max(column - 1, 0)
    end = max(min(end_column - 1 if end_column else start + 1, len(line)), start + 1)
    offset = 0
    if len(line) > EXCERPT_WIDTH:
        offset = max(0, min(start - EXCERPT_WIDTH // 3, len(line) - EXCERPT_WIDTH))
    window = line[offset : offset + EXCERPT_WIDTH]
    head = "…" if offset else ""
    tail = "…" if offset + EXCERPT_WIDTH < len(line) else ""
    end = min(end, offset + EXCERPT_WIDTH)
    before = len(head) + _width(window[: start - offset]) + max(start - offset - len(window), 0)
    carets = _width(window[start - offset : end - offset])
    return f"    {head}{_shown(window)}{tail}\n    {' ' * before}{'^' * max(carets, 1)}"


def _shown(text: str) -> str:
    """Source text as an excerpt shows it: a tab as one space, unsafe characters escaped."""
    return escaped(text.replace("\t", " "))


def _width(text: str) -> int:
    return len(_shown(text))


def source_line(text: str, line: int) -> str:
    """Line `line` (1-based) of `text`, counting `\n` only, as lark and `json` number lines."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)]


class ParseError(Exception):
    """Malformed input: where it is (file:line:col or a JSON path) and what was expected."""

    def __init__(
        self,
        message: str,
        filename: str | None = None,
        line: int | None = None,
        column: int | None = None,
        *,
        end_column: int | None = None,
        source_line: str | None = None,
        json_path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.end_column = end_column
        self.source_line = source_line
        self.json_path = json_path

    @property
    def location(self) -> str:
        """`file:line:col`, or `file: $.json.path` for JSON input."""
        name = self.filename or "<string>"
        if self.json_path is not None:
            return f"{name}: {self.json_path}"
        if self.line is None:
            return name
        return f"{name}:{self.line}:{self.column}"

    def __str__(self) -> str:
        text = f"{escaped(self.location)}: error: {shown(self.message)}"
        if self.source_line is not None and self.column is not None:
            text += "\n" + excerpt(self.source_line, self.column, self.end_column)
        return text
