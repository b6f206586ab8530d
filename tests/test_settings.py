"""The settings a host writes in the environment are checked as they are read: a value the
server cannot use (a port out of range, a time that is not a finite number, a limit below one,
garbage) stops the command with one line per setting and status 2, never a traceback; the
documented values and the edge of each range are taken. A DATABASE_URL whose database cannot
be reached (a SQLite file in a folder that does not exist, a Postgres server that does not
answer) stops ``serve`` and ``migrate`` the same way, with one line, before anything starts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from pydantic import ValidationError

from app.config import Settings, problems
from app.db import engine
from tests.support.servers import free_port

pytestmark = pytest.mark.unit

REFUSED = [
    ("port", "0"),
    ("port", "65536"),
    ("port", "99999"),
    ("port", "garbage"),
    ("log_level", "loud"),
    ("log_level", ""),
    ("head_timeout_seconds", "nan"),
    ("head_timeout_seconds", "0"),
    ("head_timeout_seconds", "-1"),
    ("body_timeout_seconds", "0"),
    ("stream_keepalive_seconds", "inf"),
    ("bot_delay_seconds", "nan"),
    ("bot_delay_seconds", "-0.5"),
    ("bot_budget_seconds", "0"),
    ("again_hold_seconds", "nan"),
    ("autopilot_grace_seconds", "-1"),
    ("room_idle_hours", "1e12"),
    ("room_idle_hours", "-1"),
    ("max_body_bytes", "-1"),
    ("max_body_bytes", "0"),
    ("max_sockets_per_seat", "-1"),
    ("max_streams_per_seat", "0"),
    ("max_spectators_per_room", "-1"),
    ("hint_rollouts", "0"),
    ("review_rollouts", "1.5"),
    ("room_creation_limit", "garbage"),
    ("room_creation_limit", "10/fortnight"),
    ("room_creation_limit", "0/minute"),
    ("room_creation_limit", ""),
    ("allowed_hosts", "http://games.example.org"),
    ("allowed_hosts", "games.example.org:8000"),
    ("allowed_origins", "bots.example.org"),
    ("allowed_origins", "https://bots.example.org, localhost:3000"),
    ("allowed_origins", "https://bots.example.org/play"),
    ("allowed_origins", "https://bots.example.org?x=1"),
    ("allowed_origins", "https://bots.example.org:http"),
    ("allowed_origins", "*"),
    ("database_url", "garbage"),
    ("extra_games", "no.such.module"),
    ("extra_games", "tests.toy.game, tests.toy.nothing"),
    ("extra_games", ".game"),
]

TAKEN = [
    ("port", "1", 1),
    ("port", "65535", 65535),
    ("log_level", "WARNING", "warning"),
    ("bot_delay_seconds", "0", 0.0),
    ("room_idle_hours", "0", 0.0),
    ("room_idle_hours", "876000", 876000.0),
    ("max_spectators_per_room", "0", 0),
    ("hint_rollouts", "1", 1),
    ("room_creation_limit", "1/second", "1/second"),
    ("allowed_hosts", "games.example.org, *.example.net", "games.example.org, *.example.net"),
    ("allowed_hosts", "[fd00::8]", "[fd00::8]"),
    ("allowed_origins", "https://bots.example.org", "https://bots.example.org"),
    ("allowed_origins", "http://lan:3000/, https://[fd00::8]:8443", "http://lan:3000/, https://[fd00::8]:8443"),
    ("extra_games", "tests.toy.game, ", "tests.toy.game, "),
]


def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, env={**os.environ, **env}, timeout=60
    )


@pytest.mark.parametrize(("name", "value"), REFUSED)
def test_a_setting_the_server_cannot_use_is_refused_naming_it(monkeypatch, name, value):
    monkeypatch.setenv(name.upper(), value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    [line] = problems(refused.value)
    assert line.startswith(f"{name.upper()}={value!r}: ") and "Value error" not in line  # (pydantic's own words)


@pytest.mark.parametrize(("name", "value", "read"), TAKEN)
def test_the_edges_of_each_range_are_taken(monkeypatch, name, value, read):
    monkeypatch.setenv(name.upper(), value)
    assert getattr(Settings(), name) == read


def test_allowed_origins_are_read_as_a_browser_writes_an_origin(monkeypatch):
    monkeypatch.setenv("ALLOWED_ORIGINS", "HTTPS://Bots.Example.org/, http://localhost:3000")
    assert Settings().origins() == {"https://bots.example.org", "http://localhost:3000"}


@pytest.mark.parametrize("command", [["serve"], ["health"], ["migrate"], ["--help"]])
def test_every_command_stops_on_a_bad_setting_with_one_line_each_and_no_traceback(command):
    env = {**os.environ, "PORT": "99999", "HEAD_TIMEOUT_SECONDS": "nan"}
    result = subprocess.run([sys.executable, "-m", "app.cli", *command], capture_output=True, text=True, env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "troika-arena: a setting in the environment cannot be used (see the README):",
        "  PORT='99999': Input should be less than or equal to 65535",
        "  HEAD_TIMEOUT_SECONDS='nan': Input should be a finite number",
    ]


@pytest.mark.parametrize("command", [["health"], ["--help"], ["serve"], ["simulate", "--game", "troika"]])
def test_every_command_stops_on_an_extra_game_module_that_does_not_exist(command):
    result = cli(*command, EXTRA_GAMES="tests.toy.game,no.such.module")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "troika-arena: a setting in the environment cannot be used (see the README):",
        "  EXTRA_GAMES='tests.toy.game,no.such.module': there is no module no.such.module to import "
        "(list Python modules, each declaring ENTRY)",
    ]


@pytest.mark.parametrize(
    ("module", "text", "why"),
    [
        ("broken_game", "raise RuntimeError('the host broke it')", "RuntimeError: the host broke it"),
        ("no_entry", "GAME = None", "AttributeError: module 'no_entry' has no attribute 'ENTRY'"),
        ("wrong_entry", "ENTRY = 'troika'", "its ENTRY is not a GameEntry"),
    ],
)
@pytest.mark.parametrize("command", [["health"], ["--help"], ["serve"]])
def test_every_command_stops_on_an_extra_game_module_that_does_not_load_as_a_game(tmp_path, command, module, text, why):
    (tmp_path / f"{module}.py").write_text(text + "\n")
    result = cli(*command, EXTRA_GAMES=f"tests.toy.game,{module}", PYTHONPATH=str(tmp_path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"troika-arena: EXTRA_GAMES='tests.toy.game,{module}': the module {module} does not load as a game: {why}"
    ]


def test_serve_refuses_a_port_flag_out_of_range():
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", "70000"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "a port is a whole number from 1 to 65535, not '70000'" in result.stderr


@pytest.mark.parametrize("command", [["serve", "--port", str(free_port())], ["migrate"]])
@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("sqlite:///{tmp}/nodir/x.db", "there is no folder {tmp}/nodir for the database file {tmp}/nodir/x.db"),
        ("sqlite:///{tmp}/text.db", "file is not a database ({tmp}/text.db)"),
        ("postgresql://postgres@127.0.0.1:1/x", 'connection to server at "127.0.0.1", port 1 failed'),
    ],
)
def test_a_database_that_cannot_be_used_stops_serve_and_migrate_with_one_line(tmp_path, command, url, reason):
    (tmp_path / "text.db").write_text("not a database\n" * 100)
    result = cli(*command, DATABASE_URL=url.format(tmp=tmp_path))
    [line] = result.stderr.splitlines()
    assert result.returncode == 2 and result.stdout == ""
    assert line.startswith(f"troika-arena {command[0]}: DATABASE_URL cannot be used: ")
    assert reason.format(tmp=tmp_path) in line


def without_root_powers(command: list[str]) -> list[str]:
    """``command`` run as this user, or as root without its power to write any file (tests run
    as root in CI, where a file's mode alone stops no one)."""
    if os.geteuid() != 0:
        return command
    dropped = "-dac_override,-dac_read_search"
    return ["setpriv", f"--inh-caps={dropped}", f"--bounding-set={dropped}", *command]


@pytest.mark.parametrize("command", [["serve", "--port", str(free_port())], ["migrate"]])
@pytest.mark.parametrize("place", ["file", "folder"])
def test_a_sqlite_database_that_cannot_be_written_stops_serve_and_migrate_with_one_line(tmp_path, command, place):
    """A read-only file served reads and failed the first move (or, not yet in WAL mode, failed
    at start with a traceback); a writable file in a read-only folder has nowhere for its WAL."""
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "arena.db"
    assert cli("migrate", DATABASE_URL=f"sqlite:///{database}").returncode == 0
    (database if place == "file" else folder).chmod(0o444 if place == "file" else 0o555)
    try:
        result = subprocess.run(
            without_root_powers([sys.executable, "-m", "app.cli", *command]),
            capture_output=True,
            text=True,
            env={**os.environ, "DATABASE_URL": f"sqlite:///{database}"},
            timeout=60,
        )
    finally:
        folder.chmod(0o755)
    [line] = result.stderr.splitlines()
    assert (result.returncode, result.stdout) == (2, "")
    assert line.startswith(f"troika-arena {command[0]}: DATABASE_URL cannot be used: ")
    assert line.endswith(f"attempt to write a readonly database ({database})")  # (a folder: already on reading)


def test_a_postgres_server_that_never_answers_is_given_up_on_after_the_check_timeout(monkeypatch):
    silent = socket.create_server(("127.0.0.1", 0))  # (accepts connections, never says a word)
    port = silent.getsockname()[1]
    monkeypatch.setattr(engine, "CHECK_TIMEOUT_SECONDS", 2)  # (libpq's least: it reads 1 as 2)
    with silent:
        started = time.monotonic()
        reason = engine.unusable(f"postgresql+psycopg://postgres@127.0.0.1:{port}/x")
        waited = time.monotonic() - started
        with_own = engine.unusable(f"postgresql+psycopg://postgres@127.0.0.1:{port}/x?connect_timeout=3")
        waited_own = time.monotonic() - started - waited
    assert reason == with_own == "connection timeout expired"
    assert 2 <= waited < 3 <= waited_own < 4  # (the URL's own connect_timeout is kept)


def test_a_sqlite_file_not_made_yet_in_a_folder_that_exists_is_taken(tmp_path):
    result = cli("migrate", DATABASE_URL=f"sqlite:///{tmp_path}/new.db")
    assert (result.returncode, result.stdout.strip()) == (0, "database is at the newest schema"), result.stderr
