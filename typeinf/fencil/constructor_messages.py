"""The words of the fencil IR's constructors' registry (`typeinf.fencil.constructors`): a
constructor that `register_constructor` refuses, and one that `unregister_constructor` cannot
take out. Apart from `messages`, which reads the constructors: the registry imports its words.
"""

from __future__ import annotations


def not_a_constructor_name(name: str) -> str:
    """`name` is not a name as the reader tokenizes one."""
    return f"a constructor's name must be a name of the notation, not {name!r}"


def constructor_already(name: str) -> str:
    return f"{name!r} is a constructor already"


def notation_word(name: str) -> str:
    """`name` is a word the notation gives a meaning of its own (`It`, `T…`, a primitive, …)."""
    return f"{name!r} is a word of the notation: it cannot name a constructor"


def row_constructor(name: str) -> str:
    return f"{name!r}: a row constructor cannot be added (rows print as tuples)"


def not_location_positions(name: str) -> str:
    """The constructor `name`'s `locations` name positions that are not location arguments."""
    return f"{name!r}: `locations` must be positions of location arguments"


def core_constructor(name: str) -> str:
    """`unregister_constructor` of one of the notation's own constructors (the words say "the
    core", as they did when the table was the core's)."""
    return f"{name!r} is a constructor of the core"


def not_registered(name: str) -> str:
    return f"{name!r} is not registered"
