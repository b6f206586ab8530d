"""Process-wide tuning for a server process: the garbage collector, set once the server is ready
(the arena's lifespan, and the benchmark's bare fan-out so that the two compare fairly)."""

from __future__ import annotations

import gc


def tune_garbage_collector() -> None:
    """Full collections over the heap of a busy server (thousands of open sockets) paused the
    event loop for ~100 ms at a time: p95 108 ms at 400 rooms, 25 ms with these settings
    (docs/benchmarks.md). Everything alive once the server is ready is frozen out of future
    collections, and collections run less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
