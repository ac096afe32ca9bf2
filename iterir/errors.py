"""Errors about input the user gave us, rendered as `file:line:col: error: …` with an excerpt."""

from __future__ import annotations

EXCERPT_WIDTH = 100


def excerpt(line_text: str, column: int, end_column: int | None = None) -> str:
    """The source line and a caret line under columns [column, end_column), both 1-based.

    Long lines (a whole program on one line) are cut to a window around the caret.
    """
    line = line_text.rstrip("\n").replace("\t", " ")
    start = max(column - 1, 0)
    end = max(min(end_column - 1 if end_column else start + 1, len(line)), start + 1)
    offset = 0
    if len(line) > EXCERPT_WIDTH:
        offset = max(0, min(start - EXCERPT_WIDTH // 3, len(line) - EXCERPT_WIDTH))
        shown = line[offset : offset + EXCERPT_WIDTH]
        prefix = "…" if offset else ""
        line = prefix + shown + ("…" if offset + EXCERPT_WIDTH < len(line_text) else "")
        offset -= len(prefix)
    end = min(end, offset + EXCERPT_WIDTH)
    return f"    {line}\n    {' ' * (start - offset)}{'^' * max(end - start, 1)}"


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
        text = f"{self.location}: error: {self.message}"
        if self.source_line is not None and self.column is not None:
            text += "\n" + excerpt(self.source_line, self.column, self.end_column)
        return text
