"""Pausing Python's cyclic garbage collector while building large acyclic structures.

Parsing or inferring a million-node program allocates millions of small objects; each
allocation burst makes the collector scan everything alive, which costs more than the work
itself. The structures built here are acyclic (reference counting frees them), so the collector
is paused for the duration of the call and restored afterwards.

On resuming, everything allocated meanwhile would sit in the youngest generation, and the next
young collection would scan all of it at once. Instead it is moved to the oldest generation
(`freeze` then `unfreeze`, two constant-time list splices): it stays collectable, and is scanned
only by the rare full collections, as if it had aged normally; this keeps the collection off a
parse followed by an inference (docs/performance.md, "Tricks deleted and kept"). A process that
froze objects itself (`gc.freeze()` before forking, say, or Python 3.12.1 at start-up) keeps
them frozen: the move is skipped then.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(age: bool = True) -> Iterator[None]:
    """The collector paused for the block; with `age`, what was allocated meanwhile moved to
    the oldest generation on resuming (see above). Without: for a block whose objects are
    gone by its end, inside a program that is not ours (the GT4Py bridge)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if age and gc.get_freeze_count() == 0:  # not over what the caller froze
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
