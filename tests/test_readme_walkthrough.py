"""The README's REST walk-through ("Play through the REST API"), run as a reader runs it: each
curl command of its block in bash against a live server, with ``B`` set to that server and the
placeholders (ROOM, HOST_TOKEN, GUEST_TOKEN, TOKEN) replaced by what the commands before it
answered, as the comments say to; every answer is JSON without an error, the view says whose
turn it is, and the move it ends with is played."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

README = Path(__file__).resolve().parent.parent / "README.md"


def walkthrough() -> list[str]:
    """The commands of the block after "## Play through the REST API", continuation lines joined."""
    section = README.read_text().split("## Play through the REST API", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands, current = [], ""
    for line in block.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        current += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            commands.append(current.strip())
            current = ""
    return commands


def test_the_readme_rest_walkthrough_plays_a_move_as_written(sqlite_url):
    commands = walkthrough()
    assert commands[0].startswith("B=") and sum(c.startswith("curl") for c in commands) == 7, commands
    with server_process(sqlite_url, free_port()) as (_, base):
        known: dict[str, str] = {}
        answers = []
        for command in commands[1:]:
            for placeholder in sorted(known, key=len, reverse=True):
                command = re.sub(rf"\b{placeholder}\b", known[placeholder], command)
            assert not re.search(r"\b(ROOM|HOST_TOKEN|GUEST_TOKEN|TOKEN)\b", command), command
            done = subprocess.run(["bash", "-c", f"B={base}; {command}"], capture_output=True, text=True, timeout=30)
            answer = json.loads(done.stdout)
            assert "error" not in answer, (command, answer)
            answers.append(answer)
            if "room" in answer and "token" in answer:  # the room made: its id and the host's token
                known["ROOM"], known["HOST_TOKEN"] = answer["room"]["id"], answer["token"]
            elif answer.keys() >= {"seat", "token"}:  # the friend's seat
                known["GUEST_TOKEN"] = answer["token"]
            elif "to_act" in answer and "TOKEN" not in known:  # whose turn: that seat's token
                mover = answer["to_act"][0]
                known["TOKEN"] = known["HOST_TOKEN"] if mover == 0 else known["GUEST_TOKEN"]
        assert answers[-1]["version"] == 1, answers[-1]
