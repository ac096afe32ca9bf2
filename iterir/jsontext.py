"""JSON text for documents of any depth.

The standard library's encoder and decoder recurse and give up near 1,000 levels; a 100,000-level
IR program is that deep. Both functions here use the fast standard library first and fall back
to an explicit-stack reader or writer that gives the same result.

Reading is strict where the standard library is lenient: a key twice in one object (whose last
value would win, silently) and an integer of more digits than Python converts are errors at
their line and column. The standard library says neither where, so the explicit-stack reader,
which knows, reads such a document again to say it.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from iterir.display import QUOTED_WIDTH, escape_char, shortened
from iterir.errors import ParseError, source_line

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")
_CONSTANTS = {"true": True, "false": False, "null": None}


class _TwiceError(Exception):
    """A key twice in one object: the standard library's reader cannot say where."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A key twice is an error, which only a hook can see; it costs a share of reading a JSON
    # program (docs/performance.md, "Figures from the code's comments").
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _TwiceError
    return value


def loads(text: str, filename: str | None = None) -> Any:
    """Decode JSON text; a syntax error, a key twice in one object and an integer too long to
    convert are each a ParseError at their line and column."""
    try:
        try:
            return json.loads(text, object_pairs_hook=_unique)
        except json.JSONDecodeError:
            raise
        except (RecursionError, ValueError, _TwiceError):  # too deep, or an error to locate
            return _loads_deep(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            filename,
            exc.lineno,
            exc.colno,
            source_line=source_line(text, exc.lineno),
        ) from None


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
    return _SURROGATE.sub(lambda match: escape_char(match.group()), text)


def _loads_deep(text: str) -> Any:
    def error(message: str, pos: int) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, text, pos)

    def key_at(pos: int, container: dict[str, Any]) -> tuple[str, int]:
        if not text.startswith('"', pos):
            raise error("Expecting property name enclosed in double quotes", pos)
        start = pos
        key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # real, but missing from typeshed
        if key in container:
            raise error(f"the key {_quoted(key)} appears twice in one object", start)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # _WS matches the empty string
        if not text.startswith(":", pos):
            raise error("Expecting ':' delimiter", pos)
        return key, _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # _WS matches the empty string

    def number_at(match: re.Match[str]) -> int | float:
        number = match.group()
        if match.group(1) or match.group(2):
            return float(number)
        try:
            return int(number)
        except ValueError:  # more digits than Python converts
            limit = sys.get_int_max_str_digits()
            digits = len(number.lstrip("-"))
            message = f"an integer of {digits:,} digits (at most {limit:,} are read)"
            raise error(message, match.start()) from None

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
                key, fields = None, dict[str, Any]()
                if char == "{":
                    key, pos = key_at(pos, fields)
                stack.append((fields if char == "{" else [], key))
                continue
        elif char == '"':
            value, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # real, but missing from typeshed
        elif match := _NUMBER.match(text, pos):
            value, pos = number_at(match), match.end()
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
                    key, pos = key_at(pos, container)
                    stack[-1] = (container, key)
                break
            if char != ("}" if isinstance(container, dict) else "]"):
                raise error("Expecting ',' delimiter", pos)
            stack.pop()
            value, pos = container, pos + 1


_MEMBER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def path_step(key: str | int) -> str:
    """One step of a JSON path: `[3]`, `.name`, or `["a b"]` for a key that is no plain name.

    Any other key is written as a JSON string, so that a path names its key unambiguously and in
    ASCII whatever the key holds (a dot, a bracket, a control character).
    """
    if isinstance(key, int):
        return f"[{key}]"
    if _MEMBER_NAME.match(key):
        return f".{key}"
    return f"[{json.dumps(key)}]"


def _quoted(key: str) -> str:
    """A key as a message shows it: in JSON's quotes, escaped and shortened."""
    return shortened(json.dumps(key), QUOTED_WIDTH)


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
