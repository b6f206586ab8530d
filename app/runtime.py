"""Process-wide tuning for a server process: the garbage collector, set once the server is ready
(by the process's own app, ``app.main.app``, not by every app ``create_app`` makes; and by the
benchmark's bare fan-out, so that the two compare fairly)."""

from __future__ import annotations

import gc


def tune_garbage_collector() -> None:
    """Full collections over the heap of a busy server (thousands of open sockets) paused the
    event loop for ~100 ms at a time: p95 108 ms at 400 rooms, 25 ms with these settings
    (docs/benchmarks.md). Everything alive once the server is ready is frozen out of future
    collections, and collections run less often.

    The middle generation is collected after every 5 young collections rather than 20, and the
    oldest after every 80 of those, so full collections stay as rare (every 400 young ones).
    The middle one walks what survived the young collections since its last run (thousands of
    sockets' timers and waits, rooms' facts): at 1,000 rooms it paused the loop 100 to 175 ms
    every 20 to 25 s, and now 40 to 65 ms every 5 to 10 s (a gc callback's timings under
    ``bench server``; ~0.3% more CPU in all). A pause of 170 ms alone misses p95 <= 100 ms.

    A young collection comes when allocations minus deallocations (of any generation) pass the
    threshold, so in a steady state it comes late and walks every young object still alive:
    what lives a second or more should not be a tree of containers (issue 14's fourth pass:
    held payloads are kept as text, ``app.rooms.views.Built``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 5, 80)
