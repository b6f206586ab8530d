"""The settings a host writes in the environment are checked as they are read: a value the
server cannot use (a port out of range, a time that is not a finite number, a limit below one,
garbage) stops the command with one line per setting and status 2, never a traceback; the
documented values and the edge of each range are taken."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pydantic import ValidationError

from app.config import Settings, problems

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
    ("database_url", "garbage"),
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
]


@pytest.mark.parametrize(("name", "value"), REFUSED)
def test_a_setting_the_server_cannot_use_is_refused_naming_it(monkeypatch, name, value):
    monkeypatch.setenv(name.upper(), value)
    with pytest.raises(ValidationError) as refused:
        Settings()
    [line] = problems(refused.value)
    assert line.startswith(f"{name.upper()}={value!r}: ")


@pytest.mark.parametrize(("name", "value", "read"), TAKEN)
def test_the_edges_of_each_range_are_taken(monkeypatch, name, value, read):
    monkeypatch.setenv(name.upper(), value)
    assert getattr(Settings(), name) == read


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


def test_serve_refuses_a_port_flag_out_of_range():
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", "70000"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "a port is a whole number from 1 to 65535, not '70000'" in result.stderr
