"""Smoke tests of the benchmarks: ``bench server`` (a few rooms for a few seconds against the
arena on SQLite and the bare fan-out) and ``bench footprint``; they check the shape of the
results and that the benchmark's data is real, never the figures."""

from __future__ import annotations

import json

import pytest

from app import cli
from app.bench import clicks, footprint, sweep
from app.bench.command import main
from app.bench.footprint import fill
from app.bench.sweep import rooms_held
from tests.conftest import running_app

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

STEP_KEYS = {
    "rooms",
    "period_s",
    "moves",
    "moves_per_second",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "service_p95_ms",
    "errors",
    "messages",
    "mean_message_bytes",
    "median_message_bytes",
    "client_cpu_percent",
    "server_cpu_percent",
    "server_cpu_ms_per_room_s",
    "server_rss_mb",
    "server_rss_kb_per_room",
    "load_average",
    "server_cpu_s",
    "server_cpu_ms_per_move",
}


def test_a_small_run_writes_every_figure_for_browsers_and_programs(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sweep, "STOP_P95_MS", float("inf"))  # a loaded machine must not cut the sweep short
    # (the pauses that let a real run's hundreds of rooms settle, shortened)
    for pause, seconds in (("SATURATION_WARMUP_S", 0.3), ("SETTLE_S", 0.2), ("QUIET_WINDOW_S", 0.2)):
        monkeypatch.setattr(sweep, pause, seconds)
    assert (
        main(
            [
                "--targets",
                "sqlite,baseline,sqlite:html-post",
                "--clients",
                "html,json",
                "--rooms",
                "2,3",
                "--step-seconds",
                "1",
                "--warmup",
                "0.3",
                "--period",
                "0.5",
                "--saturation-rooms",
                "2",
                "--saturation-seconds",
                "1",
                "--spectators",
                "3",
                "--spectator-seconds",
                "1",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    report = json.loads((tmp_path / "server.json").read_text())
    assert report["format"] == "troika-arena-bench-server/2"
    assert report["config"]["saturation_seconds"] == 1.0 and report["config"]["warmup"] == 0.3
    assert list(report["targets"]) == [
        "sqlite/html",
        "sqlite/json",
        "baseline/html",
        "baseline/json",
        "sqlite/html-post",
    ]
    for result in report["targets"].values():
        assert [step["rooms"] for step in result["steps"]] == [2, 3]
        for step in [result["saturation"], *result["steps"]]:
            assert set(step) == STEP_KEYS
            assert step["errors"] == {}
            assert step["moves"] > 0
            assert step["p50_ms"] <= step["p95_ms"] <= step["p99_ms"]
        assert isinstance(result["max_rooms_at_target"], int)
        assert result["idle_bytes_per_room"] is not None
    html, posted = report["targets"]["sqlite/html"], report["targets"]["sqlite/html-post"]
    assert html["saturation"]["moves"] > 0 and posted["saturation"]["moves"] > 0, "clicks by socket and by post"
    json_bytes = report["targets"]["sqlite/json"]["saturation"]["mean_message_bytes"]
    assert 0 < html["saturation"]["mean_message_bytes"] < json_bytes, "browsers are sent the sections that changed"
    assert report["targets"]["sqlite/json"]["restart_s"] > 0
    for key in ("sqlite/html", "sqlite/json"):
        assert set(report["ratios"][key]) == {"saturation_moves_per_second", "max_rooms_at_target"}
        case = report["targets"][key]["spectators"]
        assert case["0"]["moves"] > 0 and case["3"]["moves"] > 0 and case["ratio"] > 0
        assert case["0"]["errors"] == {} == case["3"]["errors"]
    out = capsys.readouterr().out
    assert "| sqlite/html |" in out and "| baseline/json |" in out


def test_rooms_are_held_only_if_every_step_up_to_them_met_the_target():
    steps = [{"rooms": n, "p95_ms": p95, "errors": {}} for n, p95 in ((200, 40), (400, 214), (600, 46), (800, 900))]
    assert rooms_held(steps) == 200, "600 passed, but 400 before it missed"
    assert rooms_held([{"rooms": 10, "p95_ms": 150, "errors": {}}]) == 0
    assert rooms_held([{"rooms": 10, "p95_ms": 50, "errors": {"http 500": 1}}]) == 0


@pytest.mark.parametrize("option", [["--saturation-rooms", "0"], ["--rooms", "10,0"]])
def test_room_counts_below_one_are_refused_before_anything_runs(option, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*option, "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "server.json").exists()


async def test_footprint_fills_the_database_with_real_finished_games(sqlite_url):
    """The restart benchmark's finished games replay to an end from their logs, and the server
    starting on them serves each finished room with its outcome."""
    async with running_app(sqlite_url):
        pass  # applies the migrations
    fill(sqlite_url, 12)
    async with running_app(sqlite_url) as client:
        for room_id in ("f0000000", "f0000011"):
            view = (await client.get(f"/api/rooms/{room_id}/view")).json()
            assert view["status"] == "finished"
            assert view["outcome"]["winners"]
            assert view["room"]["seed"]  # revealed once the game is over


def test_footprint_reports_idle_memory_and_restart_times(capsys):
    report = footprint.run("sqlite", rooms=3, counts=(0, 5), repeats=1)
    assert report["idle"]["rooms"] == 3 and "bytes_per_idle_room" in report["idle"]
    assert [row["finished_games"] for row in report["restart"]] == [0, 5]
    assert all(row["restart_s"] > 0 for row in report["restart"])
    assert report["restart"][1]["first_view_of_a_finished_room_ms"] > 0
    assert "finished games: restart" in capsys.readouterr().out


async def test_room_set_up_tries_a_dropped_connection_again_and_not_forever():
    """The server may close a kept-alive connection just as the driver reuses it."""
    import httpx

    from app.bench.load import SETUP_ATTEMPTS, Driver

    calls = []

    def answer(request):
        calls.append(request.url.path)
        if len(calls) < 2 or request.url.path.endswith("/never"):
            raise httpx.ReadError("connection closed by the server")
        return httpx.Response(201, json={"room": {"id": "r1"}, "token": "t0"})

    driver = Driver("http://arena.test", "troika")
    driver.http = httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://arena.test")
    assert (await driver.setup("/api/rooms", json={}))["room"]["id"] == "r1"
    assert calls == ["/api/rooms", "/api/rooms"]
    with pytest.raises(httpx.ReadError):
        await driver.setup("/never")
    assert calls.count("/never") == SETUP_ATTEMPTS
    await driver.http.aclose()


class BusyThenIdle:
    """A server whose CPU clock runs for its first ``busy`` readings, then stands still."""

    def __init__(self, busy: int):
        self.readings, self.busy, self.cpu = 0, busy, 0.0

    def cpu_seconds(self) -> float:
        self.readings += 1
        if self.readings <= self.busy:
            self.cpu += 1.0
        return self.cpu


async def test_the_spectator_case_waits_for_the_server_to_work_off_the_sweep(monkeypatch):
    monkeypatch.setattr(sweep, "QUIET_WINDOW_S", 0.01)
    server = BusyThenIdle(busy=5)
    await sweep.quiet(server)  # type: ignore[arg-type]
    assert server.readings >= 6, "returned while the server was still busy"
    still_busy = BusyThenIdle(busy=10**6)
    monkeypatch.setattr(sweep, "QUIET_LIMIT_S", 0.05)
    await sweep.quiet(still_busy)  # type: ignore[arg-type]
    assert still_busy.readings >= 2  # it measured, gave up at the limit and did not hang


@pytest.mark.parametrize("post", [False, True])
def test_the_click_benchmark_times_each_click_on_both_pages_in_chromium(post, capsys):
    """``bench clicks`` in Chromium, a few clicks: every click is timed on the clicker's page
    (its DOM, then painted) and on a spectator's, over the socket or as form posts."""
    assert cli.main(["bench", "clicks", "--clicks", "3", "--json", *(["--post"] if post else [])]) == 0
    out = capsys.readouterr().out
    result = json.loads(out.splitlines()[-1])
    assert result["clicks"] == 3 and result["path"] == ("form post" if post else "socket")
    for key in ("own_page", "own_page_painted", "other_page"):
        assert 0 < result[key]["median_ms"] <= result[key]["p95_ms"], result
    assert result["own_page"]["median_ms"] <= result["own_page_painted"]["median_ms"]
    assert "spectator's page" in out


def test_the_click_benchmark_says_in_one_line_what_it_lacks_before_it_starts(monkeypatch, capsys, tmp_path):
    """Without Playwright (the plain install) it printed a traceback, after starting a server."""
    monkeypatch.setattr(clicks, "CHROMIUM", str(tmp_path / "chromium"))
    assert cli.main(["bench", "clicks", "--clicks", "1"]) == 2
    assert (
        capsys.readouterr().err
        == f"troika-arena bench clicks: there is no Chromium at {tmp_path}/chromium: apt-get install chromium\n"
    )
    monkeypatch.setattr(clicks, "HAS_PLAYWRIGHT", False)
    assert cli.main(["bench", "clicks", "--clicks", "1"]) == 2
    assert (
        capsys.readouterr().err == "troika-arena bench clicks: Playwright is not installed: pip install -e '.[bench]'\n"
    )
