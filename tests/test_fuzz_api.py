"""Schemathesis over the OpenAPI description: generated requests to every JSON route of a live
server (with a real seat token, mostly against a real room in play) never produce a 5xx.

The operations are driven with Hypothesis directly (schemathesis' lazy pytest fixture loader
does not run under pytest 9)."""

from __future__ import annotations

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from tests.servers import free_port, server_process

EXAMPLES_PER_OPERATION = 30


def start_room(base: str) -> tuple[str, str]:
    host = httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
    room_id, token = host["room"]["id"], host["token"]
    httpx.post(f"{base}/api/rooms/{room_id}/seats", json={"name": "Bo"})
    httpx.post(f"{base}/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {token}"})
    return room_id, token


def test_no_generated_request_makes_the_server_fail(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        room_id, token = start_room(base)
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 12
        for operation in operations:

            @given(case=operation.as_strategy(), real_room=st.booleans(), with_token=st.booleans())
            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case, real_room, with_token):
                if real_room and "room_id" in (case.path_parameters or {}):
                    case.path_parameters["room_id"] = room_id
                headers = {"Authorization": f"Bearer {token}"} if with_token else {}
                case.call_and_validate(base_url=base, headers=headers, checks=[not_a_server_error])

            check()
        assert httpx.get(f"{base}/healthz").status_code == 200
