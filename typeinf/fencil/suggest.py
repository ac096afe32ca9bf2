"""Suggestions for a misspelled name: the known names within a small edit distance of it.

The distance is the optimal string alignment distance (Levenshtein's, plus the swap of two
neighbouring characters as one edit: `sqtr` is one edit from `sqrt`). A name of n characters
may be at most max(n, 3) // 3 edits from a suggestion (one edit up to 5 characters, two up to 8,
…), and fewer edits than it has characters: a one-letter name is never "corrected" into
another one-letter name, which would be a guess.
"""

from __future__ import annotations

from collections.abc import Iterable

#: At most this many suggestions (those at the nearest distance, in alphabetical order).
MOST_SUGGESTIONS = 3


def distance(a: str, b: str, bound: int) -> int:
    """The optimal string alignment distance of `a` and `b`, or `bound` + 1 when it exceeds
    `bound` (every row of the table past the bound is then skipped)."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []  # the row of the previous character of `a`, for swaps
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            row.append(cost)
        if min(row) > bound:
            return bound + 1
        before, previous = previous, row
    return min(previous[-1], bound + 1)


def allowed_edits(name: str) -> int:
    """How many edits a suggestion for `name` may be away from it."""
    return min(max(len(name), 3) // 3, len(name) - 1)


def suggestions(name: str, known: Iterable[str]) -> tuple[str, ...]:
    """The names of `known` nearest to `name` within its allowed edits, in alphabetical order, at
    most `MOST_SUGGESTIONS`; none if no name is near enough."""
    bound = allowed_edits(name)
    if bound < 1:
        return ()
    near = sorted(
        (d, candidate)
        for candidate in set(known)
        if candidate != name and (d := distance(name, candidate, bound)) <= bound
    )
    best = [candidate for d, candidate in near if d == near[0][0]] if near else []
    return tuple(best[:MOST_SUGGESTIONS])
