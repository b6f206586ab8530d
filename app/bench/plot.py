"""A PNG of latency against load (p50/p95/p99 against rooms) per target, with matplotlib.

matplotlib is an optional extra (``pip install -e '.[bench]'``): without it no plot is drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot(report: dict[str, Any], path: Path) -> bool:
    """Draw the plot to ``path``; False when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(8, 5))
    for kind, result in report["targets"].items():
        steps = result["steps"]
        rooms = [s["rooms"] for s in steps]
        (line,) = ax.plot(rooms, [s["p95_ms"] for s in steps], marker="o", label=f"{kind} p95")
        ax.plot(rooms, [s["p50_ms"] for s in steps], linestyle=":", color=line.get_color(), label=f"{kind} p50")
        ax.plot(
            rooms, [s["p99_ms"] for s in steps], linestyle="--", color=line.get_color(), alpha=0.5, label=f"{kind} p99"
        )
    ax.axhline(100, color="grey", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("4-seat rooms, one move per room every 5 s")
    ax.set_ylabel("move -> every seat updated (ms)")
    ax.set_title("Troika Arena: latency against load")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
