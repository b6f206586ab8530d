"""Schemathesis over the OpenAPI description: generated requests to every JSON route of a live
server, on SQLite and on Postgres (with a real seat token, mostly against a real room in play),
never produce a 5xx, and every answer conforms to the published contract: a status the call
declares, its content type and its schema (issue 17). Path parameters are also replaced, at
random, by numbers beyond what a database column holds and by strings no room id has (NUL,
dots, non-ASCII, very long).

The operations are driven with Hypothesis directly (schemathesis' lazy pytest fixture loader
does not run under pytest 9)."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.databases import BACKENDS
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

EXAMPLES_PER_OPERATION = 30
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
HUGE_NUMBERS = st.one_of(st.integers(min_value=2**31 - 1), st.integers(max_value=-(2**31))).map(str)
ODD_STRINGS = st.one_of(
    st.sampled_from(["\x00", "a\x00b", "..", ".", "%", "1e3", "-0", " 1", "0x1f", "é", "🂡", "x" * 300]),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
)
ODD_PATH_VALUES = st.one_of(HUGE_NUMBERS, ODD_STRINGS)


def open_room(base: str) -> tuple[str, str]:
    host = httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
    return host["room"]["id"], host["token"]


def start_room(base: str) -> tuple[str, str]:
    room_id, token = open_room(base)
    httpx.post(f"{base}/api/rooms/{room_id}/seats", json={"name": "Bo"})
    httpx.post(f"{base}/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {token}"})
    return room_id, token


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_generated_request_makes_the_server_fail(request, backend, sqlite_url):
    url = sqlite_url if backend == "sqlite" else request.getfixturevalue("postgres_url")
    with server_process(url, free_port()) as (_, base):
        real_rooms = [start_room(base), open_room(base)]  # one in play, one whose host may seat bots
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 12
        for operation in operations:
            if operation.path.endswith("/stream"):
                continue  # an event stream does not end (tests/test_streams.py covers it)

            @given(
                case=operation.as_strategy(),
                real_room=st.sampled_from([None, *real_rooms]),
                with_token=st.booleans(),
                data=st.data(),
            )
            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case, real_room, with_token, data):
                params = case.path_parameters or {}
                room_id, token = real_room or real_rooms[0]
                if real_room and "room_id" in params:
                    params["room_id"] = room_id
                odd = False
                for name in list(params):
                    if data.draw(st.integers(0, 3)) == 0:
                        params[name], odd = data.draw(ODD_PATH_VALUES), True
                if isinstance(case.query, dict) and isinstance(case.query.get("wait"), int):
                    case.query["wait"] = min(case.query["wait"], 1)  # a long-poll may wait a minute
                headers = {"Authorization": f"Bearer {token}"} if with_token else {}
                # an odd path value may make another path ("..", "/"): no 5xx is all it can ask
                checks = [not_a_server_error] if odd else CHECKS
                case.call_and_validate(base_url=base, headers=headers, checks=checks)

            check()
        assert httpx.get(f"{base}/healthz").status_code == 200
