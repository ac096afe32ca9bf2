"""The checks of the public functions' arguments: a wrong one is a TypeError (or ValueError)
that names the argument and says what was expected, never an error from deep inside."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from typeinf.core import messages
from typeinf.core.values import Type


def _wrong(function: str, argument: str, expected: str, value: object) -> TypeError:
    return TypeError(messages.wrong_argument(function, argument, expected, value))


def a_type(function: str, argument: str, value: object) -> None:
    """`value` must be a type, as `infer` and `parse_type` give them."""
    if not isinstance(value, Type):
        raise _wrong(function, argument, messages.A_TYPE, value)


def a_string(function: str, argument: str, value: object) -> None:
    if not isinstance(value, str):
        raise _wrong(function, argument, messages.A_STR, value)


def an_instance(
    function: str, argument: str, value: object, kind: type | tuple[type, ...], expected: str
) -> None:
    """`value` must be of `kind`, which `expected` says in words."""
    if not isinstance(value, kind):
        raise _wrong(function, argument, expected, value)


def a_flag(function: str, argument: str, value: object) -> None:
    if not isinstance(value, bool):
        raise _wrong(function, argument, messages.A_FLAG, value)


def a_provider(function: str, value: object) -> Mapping[str, Any] | None:
    """An offset provider argument: None, or a mapping of offset tags (docs/offset-providers.md)."""
    if value is not None and not isinstance(value, Mapping):
        raise _wrong(function, "offset_provider", messages.A_PROVIDER, value)
    return value


def a_count(function: str, argument: str, value: object) -> None:
    """`value` must be None or a positive int."""
    if value is not None and (type(value) is not int or value < 1):
        raise _wrong(function, argument, messages.A_COUNT, value)
