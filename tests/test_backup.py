"""``troika-arena backup`` and ``restore`` as an operator runs them: a backup taken while a real
server plays games (bots to the end, and people moving through the API) is consistent; restored
into a fresh database, a new server serves it, every finished game's record verifies, and the
games in play play on. Refused: Postgres (the command says how to use pg_dump), a file that is
not a backup, the database itself."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.rooms.records import verify_record
from tests.conftest import auth
from tests.support.databases import log_is_sound
from tests.support.rooms import make_room, play
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

ARENA = str(Path(sys.executable).parent / "troika-arena")


def arena(database: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run([ARENA, *args], env=env, capture_output=True, text=True, timeout=120)


async def bot_game(client: httpx.AsyncClient) -> str:
    """A 2-seat Troika room whose both seats a random bot plays to the end."""
    created = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})).json()
    room, host = created["room"]["id"], auth(created["token"])
    assert (await client.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers=host)).status_code == 201
    assert (await client.post(f"/api/rooms/{room}/start", headers=host)).status_code == 200
    put = await client.put(f"/api/rooms/{room}/seats/me/autopilot", json={"bot": "random"}, headers=host)
    assert put.status_code == 200, put.text
    return room


async def status(client: httpx.AsyncClient, room: str) -> str:
    return (await client.get(f"/api/rooms/{room}")).json()["status"]


async def test_a_backup_under_load_restores_into_a_fresh_server_that_plays_on(tmp_path):
    live, copy, fresh = tmp_path / "live.db", tmp_path / "backup.db", tmp_path / "restored" / "arena.db"
    settings = {"BOT_DELAY_SECONDS": "0", "ROOM_CREATION_LIMIT": "1000/minute"}
    with server_process(f"sqlite:///{live}", free_port(), **settings) as (_, base):
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            first = await bot_game(client)
            for _ in range(600):  # one game finished before the backup
                if await status(client, first) == "finished":
                    break
                await asyncio.sleep(0.1)
            assert await status(client, first) == "finished"
            bots = [await bot_game(client) for _ in range(3)]  # these play during the backup
            human, tokens = await make_room(client, seats=2)
            load = asyncio.create_task(play(client, human, tokens, 40, random.Random(7)))
            await asyncio.sleep(0.3)
            backed = await asyncio.to_thread(arena, live, "backup", str(copy))
            await load
            assert backed.returncode == 0, backed.stderr
            assert f"backed up 5 rooms to {copy}" in backed.stdout

    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = dict(db.execute("SELECT id, status FROM rooms").fetchall())
    for room in stored:  # consistent: every room's version is its log's last move, and it replays
        log_is_sound(f"sqlite:///{copy}", room)
    assert stored[first] == "finished" and "playing" in {stored[room] for room in [*bots, human]}

    restored = arena(fresh, "restore", str(copy))
    assert restored.returncode == 0, restored.stderr
    assert "restored 5 rooms" in restored.stdout
    with server_process(f"sqlite:///{fresh}", free_port(), **settings) as (_, base):
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            if await status(client, human) == "playing":
                await play(client, human, tokens, 2, random.Random(8))  # the people play on
            for _ in range(600):  # and the bots, to the end
                if all([await status(client, room) == "finished" for room in bots]):
                    break
                await asyncio.sleep(0.1)
            finished = [room for room in stored if await status(client, room) == "finished"]
            assert set(bots) | {first} <= set(finished)
            for room in finished:
                record = (await client.get(f"/api/rooms/{room}/record")).json()
                assert verify_record(record).actions == len(record["actions"])


def test_backup_and_restore_refuse_what_they_cannot_do(tmp_path):
    database = tmp_path / "arena.db"
    assert arena(database, "migrate").returncode == 0
    itself = arena(database, "backup", str(database))
    assert itself.returncode == 2 and "overwrite the database itself" in itself.stderr
    missing = arena(tmp_path / "none.db", "backup", str(tmp_path / "b.db"))
    assert missing.returncode == 2 and "there is no database" in missing.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    refused = arena(database, "restore", str(junk))
    assert refused.returncode == 2 and "is not a SQLite database" in refused.stderr
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    refused = arena(database, "restore", str(other))
    assert refused.returncode == 2 and "not a Troika Arena database" in refused.stderr
    env = {**os.environ, "DATABASE_URL": "postgresql://arena@127.0.0.1:1/arena"}
    postgres = subprocess.run([ARENA, "backup", str(tmp_path / "b.db")], env=env, capture_output=True, text=True)
    assert postgres.returncode == 2 and "pg_dump --format=custom" in postgres.stderr
    assert not (tmp_path / "b.db").exists() and not list(tmp_path.glob("*.partial"))


def test_the_readmes_backup_commands_work_as_written(tmp_path):
    """The README's "Back it up" block, each line run as written in bash in the server's folder
    (its database the default ``troika-arena.db`` there): the backup is made while the server
    runs, the restore once it has stopped, and the room is there after it."""
    section = (Path(__file__).resolve().parent.parent / "README.md").read_text().split("## Back it up", 1)[1]
    lines = [line.split("#")[0].strip() for line in section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()]
    backup, restore = [line for line in lines if line]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("DATABASE_URL", None)  # the default: troika-arena.db in the current folder

    def run(line: str) -> None:
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (line, done.stdout, done.stderr)

    def new_room(base: str) -> str:
        return httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()["room"]["id"]

    with server_process(f"sqlite:///{tmp_path}/troika-arena.db", free_port()) as (_, base):
        kept = new_room(base)
        run(backup)
        later = new_room(base)  # made after the backup: the restore takes it away
    assert (tmp_path / "troika-arena.backup.db").exists()
    run(restore)
    with sqlite3.connect(tmp_path / "troika-arena.db") as db:
        assert [row[0] for row in db.execute("SELECT id FROM rooms WHERE id IN (?, ?)", (kept, later))] == [kept]


def test_a_restore_refuses_while_a_server_runs_on_the_database_and_takes_it_once_stopped(tmp_path):
    """A restore under a running server rolled its games back under the players (its cached
    rooms went on from where they were). The server holds a shared lock on its file while it
    runs; the restore needs it alone, and so does a second server, which refuses to start (its
    moves never reached the first one's live pages)."""
    database, copy = tmp_path / "arena.db", tmp_path / "kept #1 100%.db"  # (a name a URI must escape)
    with server_process(f"sqlite:///{database}", free_port()) as (_, base):
        room = httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()["room"]["id"]
        assert arena(database, "backup", str(copy)).returncode == 0  # (a backup is fine meanwhile)
        refused = arena(database, "restore", str(copy))
        assert refused.returncode == 2, refused.stdout
        assert (
            refused.stderr == f"troika-arena restore: a server is running on {database}: stop it first, then restore\n"
        )
        assert httpx.get(f"{base}/api/rooms/{room}").status_code == 200
        second = arena(database, "serve", "--port", str(free_port()))  # (its moves would reach no one here)
        assert (second.returncode, second.stdout, second.stderr) == (
            2,
            "",
            f"troika-arena serve: a server is already running on {database}: a SQLite file serves one process "
            "(several need Postgres; see the README)\n",
        )
    restored = arena(database, "restore", str(copy))
    assert restored.returncode == 0 and "restored 1 rooms" in restored.stdout, restored.stderr
    assert f"into {database.resolve()};" in restored.stdout  # (where: a relative URL names a folder's file)


def test_a_backup_to_a_place_it_cannot_write_says_so_in_one_line(tmp_path):
    database = tmp_path / "arena.db"
    assert arena(database, "migrate").returncode == 0
    for target, said in [
        (tmp_path, f"{tmp_path} is a folder: name the backup file to write"),
        (tmp_path / "nope" / "x.db", f"there is no folder {tmp_path / 'nope'} to write the backup in"),
    ]:
        refused = arena(database, "backup", str(target))
        assert (refused.returncode, refused.stderr) == (2, f"troika-arena backup: {said}\n")
    folder = arena(database, "restore", str(tmp_path))
    assert (folder.returncode, folder.stderr) == (
        2,
        f"troika-arena restore: {tmp_path} is a folder: name the backup file\n",
    )
