"""The words of an offset provider's format (docs/offset-providers.md), which `typeinf.core.offsets`
raises as it reads one: a field of `Dimension` or `Connectivity` of the wrong kind, a document
that is not a JSON object of offset tags, an entry without its `"type"`, a key missing or of the
wrong kind. Each is made only when its error is raised; what a connectivity's `max_neighbors`
may be is said by `iterir.offset_types.max_neighbors_problem`, which both forms read with."""

from __future__ import annotations

from iterir.display import value_text
from iterir.offset_types import MAX_NEIGHBORS
from typeinf.core import messages


# -- the objects (Dimension, Connectivity) -------------------------------------------------------
def wrong_field(entry: object, name: str, expected: str, value: object) -> str:
    """The field `name` of `entry` is `value`, not `expected`."""
    return messages.must_be(f"{type(entry).__name__}.{name}", expected, value)


#: What a field must be (`has_skip_values`: `messages.A_FLAG`).
DIMENSION_NAME = "a str (the dimension's name, such as 'KDim')"
ORIGIN_NAME = "a str (a location's name, such as 'Vertex')"
NEIGHBOR_NAME = "a str (a location's name, such as 'Edge')"
NEIGHBOR_COUNT = f"an int from 0 to {MAX_NEIGHBORS:,}"


def connectivity_max_neighbors(problem: str) -> str:
    """`Connectivity.max_neighbors` has the `problem` `max_neighbors_problem` says."""
    return f"Connectivity.max_neighbors {problem}"


# -- the JSON of either form ----------------------------------------------------------------------
def at(json_path: str | None, message: str) -> str:
    """What GT4Py's form says is wrong (`message`) at `json_path` (`$.V2E.max_neighbors`)."""
    return f"{json_path}: {message}"


NOT_AN_OBJECT = "an offset provider is a JSON object of offset tags"
#: What a key of an entry of ours must be, by the Python type that reads its JSON.
JSON_KINDS: dict[type, str] = {str: "a string", int: "an integer", bool: "a boolean"}


def not_a_tag(tag: object) -> str:
    """A key of the document that is not a string."""
    return messages.must_be("an offset tag", JSON_KINDS[str], tag)


def in_entry(tag: object, problem: object) -> str:
    """The entry of the offset tag `tag` has `problem` (as the words below say it)."""
    return f"offset provider entry {value_text(tag)}: {problem}"


NEEDS_TYPE = 'needs "type": "Dimension" or "Connectivity"'


def missing(key: KeyError) -> str:
    """The entry has no `key` (the KeyError reading it raised)."""
    return f"missing {key}"


def key_problem(key: str, problem: str) -> str:
    """The value of `key` has the `problem` `max_neighbors_problem` says."""
    return f"{key!r} {problem}"


def key_of_kind(key: str, kind: type) -> str:
    """The value of `key` is not of `kind` (a key of `JSON_KINDS`)."""
    return f"{key!r} must be {JSON_KINDS[kind]}"
