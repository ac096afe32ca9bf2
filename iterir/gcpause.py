"""Pausing Python's cyclic garbage collector while building large acyclic structures.

Parsing or inferring a million-node program allocates millions of small objects; each
allocation burst makes the collector scan everything alive, which costs more than the work
itself. The structures built here are acyclic (reference counting frees them), so the collector
is paused for the duration of the call and restored afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
