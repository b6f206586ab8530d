"""CORS (issue 27, ``app.api.cors``): a browser page on an origin listed in ALLOWED_ORIGINS may
call the API (its preflight is answered, its answers name it, the headers a client reads are
exposed); any other origin, and every origin with no ALLOWED_ORIGINS, gets no CORS header, and
no answer ever allows credentials (the token is a header, never a cookie)."""

from __future__ import annotations

from tests.conftest import auth, running_app

ALLOWED, OTHER = "https://bots.example.org", "https://evil.example.net"


def preflight(origin: str, method: str = "POST") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type",
    }


async def test_a_listed_origin_is_let_call_the_api_and_another_is_not(sqlite_url):
    async with running_app(sqlite_url, allowed_origins=f"{ALLOWED}, https://other.example.org/") as client:
        r = await client.options("/api/rooms/abc/actions", headers=preflight(ALLOWED))
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == ALLOWED
        assert {"POST", "PUT", "DELETE"} <= {m.strip() for m in r.headers["access-control-allow-methods"].split(",")}
        assert {h.strip().lower() for h in r.headers["access-control-allow-headers"].split(",")} == {
            "accept",  # (Starlette's own: the CORS-safelisted headers)
            "accept-language",
            "content-language",
            "authorization",
            "content-type",
            "if-none-match",
        }
        assert "access-control-allow-credentials" not in r.headers
        refused = await client.options("/api/rooms/abc/actions", headers=preflight(OTHER))
        assert refused.status_code == 400 and "access-control-allow-origin" not in refused.headers
        # An ordinary call: the answer names the listed origin and exposes what a client reads.
        made = await client.post(
            "/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}, headers={"Origin": ALLOWED}
        )
        assert made.status_code == 201 and made.headers["access-control-allow-origin"] == ALLOWED
        exposed = {h.strip().lower() for h in made.headers["access-control-expose-headers"].split(",")}
        assert {"location", "etag", "link", "ratelimit", "ratelimit-policy", "retry-after"} <= exposed
        assert "access-control-allow-credentials" not in made.headers
        token = made.json()["token"]
        view = await client.get(
            f"/api/rooms/{made.json()['room']['id']}/view", headers={"Origin": OTHER, **auth(token)}
        )
        assert view.status_code == 200 and "access-control-allow-origin" not in view.headers
        second = await client.options("/api/rooms", headers=preflight("https://other.example.org", "GET"))
        assert second.headers["access-control-allow-origin"] == "https://other.example.org"


async def test_without_allowed_origins_no_origin_gets_cors(client):
    r = await client.options("/api/rooms", headers=preflight(ALLOWED))
    assert r.status_code == 405 and "access-control-allow-origin" not in r.headers
    r = await client.get("/api/rooms", headers={"Origin": ALLOWED})
    assert r.status_code == 200 and not [h for h in r.headers if h.startswith("access-control-")]
