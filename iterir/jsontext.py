"""JSON text for documents of any depth.

The standard library's encoder and decoder recurse and give up near 1,000 levels; a 100,000-level
IR program is that deep. Both functions here use the fast standard library first and fall back
to an explicit-stack reader or writer that gives the same result.
"""

from __future__ import annotations

import json
import re
from typing import Any

from iterir.errors import ParseError, source_line

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")
_CONSTANTS = {"true": True, "false": False, "null": None}


def loads(text: str, filename: str | None = None) -> Any:
    """Decode JSON text; a syntax error is a ParseError at its line and column."""
    try:
        try:
            return json.loads(text)
        except RecursionError:
            return _loads_deep(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            filename,
            exc.lineno,
            exc.colno,
            source_line=source_line(text, exc.lineno),
        ) from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise ParseError(f"invalid JSON: {exc}", filename) from None


def dumps(value: Any, indent: int | None = None) -> str:
    """Encode as JSON text, byte for byte as `json.dumps(value, ensure_ascii=False, indent=…)`,
    but for lone surrogates, which are escaped (`escape_surrogates`)."""
    try:
        text = json.dumps(value, ensure_ascii=False, indent=indent)
    except RecursionError:
        text = _dumps_deep(value, indent)
    return escape_surrogates(text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """`text` with each lone surrogate (a name or string read from JSON `"\\ud800"` or text
    `` `\\ud800` ``) written as its escape `\\ud800`: UTF-8 cannot encode it, and in JSON and in
    backquoted names the escape reads back as the same character, so nothing is altered."""
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _loads_deep(text: str) -> Any:
    def error(message: str, pos: int) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, text, pos)

    def key_at(pos: int) -> tuple[str, int]:
        if not text.startswith('"', pos):
            raise error("Expecting property name enclosed in double quotes", pos)
        key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # real, but missing from typeshed
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # _WS matches the empty string
        if not text.startswith(":", pos):
            raise error("Expecting ':' delimiter", pos)
        return key, _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # _WS matches the empty string

    stack: list[tuple[Any, str | None]] = []  # open containers, with a dict's pending key
    pos = _WS.match(text).end()  # type: ignore[union-attr]  # _WS matches the empty string
    while True:
        char = text[pos : pos + 1]
        value: Any
        if char in ("{", "["):
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # _WS matches the empty string
            close = "}" if char == "{" else "]"
            if text.startswith(close, pos):
                value, pos = ({} if char == "{" else []), pos + 1
            else:
                key = None
                if char == "{":
                    key, pos = key_at(pos)
                stack.append(({} if char == "{" else [], key))
                continue
        elif char == '"':
            value, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # real, but missing from typeshed
        elif match := _NUMBER.match(text, pos):
            number = match.group()
            value = float(number) if match.group(1) or match.group(2) else int(number)
            pos = match.end()
        else:
            word = next((w for w in _CONSTANTS if text.startswith(w, pos)), None)
            if word is None:
                raise error("Expecting value", pos)
            value, pos = _CONSTANTS[word], pos + len(word)
        while True:  # a value is complete: store it, and close every container it completes
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # _WS matches the empty string
            if not stack:
                if pos != len(text):
                    raise error("Extra data", pos)
                return value
            container, key = stack[-1]
            if key is None:
                container.append(value)
            else:
                container[key] = value
            char = text[pos : pos + 1]
            if char == ",":
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # _WS matches the empty string
                if isinstance(container, dict):
                    key, pos = key_at(pos)
                    stack[-1] = (container, key)
                break
            if char != ("}" if isinstance(container, dict) else "]"):
                raise error("Expecting ',' delimiter", pos)
            stack.pop()
            value, pos = container, pos + 1


def _dumps_deep(value: Any, indent: int | None) -> str:
    out: list[str] = []
    item_sep = ", " if indent is None else ","
    # Work items: a value to write at a depth, or a literal string to emit.
    stack: list[tuple[Any, int] | str] = [(value, 0)]

    def newline(depth: int) -> str:
        return "" if indent is None else "\n" + " " * (indent * depth)

    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        current, depth = item
        if isinstance(current, dict) and current:
            parts: list[tuple[Any, int] | str] = ["{"]
            for i, (key, child) in enumerate(current.items()):
                prefix = (item_sep if i else "") + newline(depth + 1)
                parts += [
                    prefix + json.dumps(str(key), ensure_ascii=False) + ": ",
                    (child, depth + 1),
                ]
            parts.append(newline(depth) + "}")
            stack.extend(reversed(parts))
        elif isinstance(current, list) and current:
            parts = ["["]
            for i, child in enumerate(current):
                parts += [(item_sep if i else "") + newline(depth + 1), (child, depth + 1)]
            parts.append(newline(depth) + "]")
            stack.extend(reversed(parts))
        else:
            out.append(json.dumps(current, ensure_ascii=False))
    return "".join(out)
