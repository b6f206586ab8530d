"""Smoke test of ``troika-arena bench server``: a few rooms for a few seconds against the arena
on SQLite and the bare fan-out; checks the shape of the JSON, never the figures."""

from __future__ import annotations

import json

from app.bench.command import main

STEP_KEYS = {
    "rooms", "period_s", "moves", "moves_per_second", "p50_ms", "p95_ms", "p99_ms", "service_p95_ms",
    "errors", "messages", "mean_message_bytes", "client_cpu_percent", "server_cpu_percent",
    "server_cpu_ms_per_room_s", "server_rss_mb", "server_rss_kb_per_room", "load_average",
}


def test_a_small_run_writes_every_figure(tmp_path, capsys):
    assert main([
        "--targets", "sqlite,baseline", "--rooms", "2,3", "--step-seconds", "2", "--warmup", "0.5",
        "--period", "0.5", "--saturation-rooms", "2", "--out", str(tmp_path),
    ]) == 0
    report = json.loads((tmp_path / "server.json").read_text())
    assert report["format"] == "troika-arena-bench-server/1"
    assert set(report["targets"]) == {"sqlite", "baseline"}
    for kind, result in report["targets"].items():
        assert [step["rooms"] for step in result["steps"]] == [2, 3]
        for step in [result["saturation"], *result["steps"]]:
            assert set(step) == STEP_KEYS
            assert step["errors"] == {}
            assert step["moves"] > 0
            assert step["p50_ms"] <= step["p95_ms"] <= step["p99_ms"]
        assert isinstance(result["max_rooms_at_target"], int)
        assert result["idle_bytes_per_room"] is not None
    assert report["targets"]["sqlite"]["restart_s"] > 0
    assert set(report["ratios"]["sqlite"]) == {"saturation_moves_per_second", "max_rooms_at_target"}
    assert "| sqlite |" in capsys.readouterr().out
