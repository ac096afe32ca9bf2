"""The GT4Py release the tests run on (1.2.1, 1.2.2 or 1.2.3: `python3 -m tools.gt4py_versions`
runs them on each), and what of it the tests compare differs between releases.

The samples (tests/data/gtir-samples) were captured from GT4Py 1.2.3. Where an older release
does differently what a test compares, the test says so by the release (`GT4PY`): each
difference is a feature of GT4Py's own code, and `tests/with_gt4py/test_versions.py` checks
that each feature is there exactly on the releases said here.
"""

from __future__ import annotations

import re

import gt4py


def _release(version: str) -> tuple[int, int, int]:
    """(major, minor, patch) of a version string ("1.2.3", "1.2.3.post1" → (1, 2, 3))."""
    matched = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    if matched is None:
        raise ValueError(f"GT4Py's version {version!r} is not major.minor.patch")
    major, minor, patch = (int(part) for part in matched.groups())
    return major, minor, patch


#: The installed release, as (major, minor, patch).
GT4PY = _release(gt4py.__version__)

#: GT4Py's printer writes a literal's type unless its text implies it (`0.0:f32`, `42:i64`) and a
#: temporary's dtype in the same short spelling (`dtype=i32`): from 1.2.3 on. Before, a literal
#: is its text alone (`0.0`) and a dtype its type's `str` (`dtype=int32`).
PRINTS_LITERAL_TYPES = GT4PY >= (1, 2, 3)
#: GT4Py's inference promotes the two lists of an `if_` (and the fields of lists of a
#: `concat_where`) to one list type, a list of `make_const_list` (along no dimension) taking
#: the other's dimension: from 1.2.3 on. Before, `if_` is of its true branch's type, and a
#: `concat_where` of fields of lists is an AssertionError in GT4Py's inference.
PROMOTES_LISTS = GT4PY >= (1, 2, 3)
#: GTIR has a `NoneLiteral` node (the IR's `None`): 1.2.1 only.
HAS_NONE_LITERAL = GT4PY < (1, 2, 2)
#: eve's nodes keep their annex in a slot rather than in their `__dict__`: from 1.2.3 on.
SLOTTED_ANNEX = GT4PY >= (1, 2, 3)

#: Our names of GT4Py's scalar kinds as 1.2.3's printer spells them, to GT4Py's names of them.
_SHORT_KINDS = {
    "i1": "bool",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "u16": "uint16",
    "i32": "int32",
    "u32": "uint32",
    "i64": "int64",
    "u64": "uint64",
    "f32": "float32",
    "f64": "float64",
}
_SHORT = "|".join(_SHORT_KINDS)
_TYPED_LITERAL = re.compile(rf"\b((?:True|False|\d[\w.+-]*)):(?:{_SHORT})\b")
_DTYPE = re.compile(rf"\bdtype=({_SHORT})\b")


def without_layout(text: str) -> str:
    """`text` without its whitespace: what stays of a program's text whatever its width."""
    return re.sub(r"\s+", "", text)


def as_printed(text: str) -> str:
    """GT4Py 1.2.3's text of a program (a sample's `text`) as the installed release prints the
    same program: before 1.2.3 (`PRINTS_LITERAL_TYPES`), without its literals' types and with
    a scalar dtype's long name, but laid out as 1.2.3's (the printer breaks lines by their
    width, which the types changed: compare such a text `without_layout`)."""
    if PRINTS_LITERAL_TYPES:
        return text
    text = _TYPED_LITERAL.sub(r"\1", text)
    return _DTYPE.sub(lambda m: f"dtype={_SHORT_KINDS[m.group(1)]}", text)
