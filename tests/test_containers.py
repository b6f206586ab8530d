"""The container files, checked without a Docker engine (none runs here): hadolint lints the
Dockerfile, the compose file is validated against the Compose specification's JSON schema, and
one check per point an operator would trip on (issue 28's findings 1-11): the healthcheck asks
the port the server listens on, the scale profile trusts its proxy for client addresses and
publishes no app port, ALLOWED_HOSTS and the database password come from a git-ignored .env
(an example committed), as every other setting written there does, every base image is pinned
by digest, the image installs from a hashed lock that holds the build backend too, in a
dependency layer of its own, with no copy of the source left in the image and no anonymous
volume, one image serves both app services, the proxy waits for healthy apps and health-checks
them, and the README's docker commands dump without a terminal and let friends in. What can be
simulated is run: the healthcheck command against a real server on another port, and the
Caddyfile itself (Caddy, from the test extra) in front of two real servers, one of which
stops."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.pins import locked
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


def tool(name: str) -> str:
    path = BIN / name
    return str(path) if path.exists() else (shutil.which(name) or name)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=os.environ)


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, rest), continuation lines joined."""
    joined = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def services() -> dict:
    return compose()["services"]


def image_lock() -> dict[str, list[str]]:
    """.ci/image.lock: each pinned requirement and its hashes."""
    text = re.sub(r"\\\n", " ", (ROOT / ".ci" / "image.lock").read_text())
    found = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        requirement, *hashes = line.split("--hash=")
        req = Requirement(requirement.strip())
        assert [spec.operator for spec in req.specifier] == ["=="], f"{line[:60]} is not pinned exactly"
        found[f"{canonicalize_name(req.name)}=={next(iter(req.specifier)).version}"] = [h.strip() for h in hashes]
    return found


def test_dockerfile_passes_hadolint():
    result = run(tool("hadolint"), "--failure-threshold", "info", "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_runs_as_non_root_with_a_healthcheck():
    steps = instructions()
    assert ("USER", "10001") in steps
    assert any(keyword == "HEALTHCHECK" for keyword, _ in steps)


def test_compose_file_follows_the_compose_specification():
    result = run(tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", "docker-compose.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_runs_the_app_on_postgres_with_a_volume_and_healthchecks():
    app, db = services()["app"], services()["db"]
    assert app["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "healthcheck" in db and any("db-data" in v for v in db["volumes"])


# 1. The healthcheck follows PORT.


def healthcheck_command() -> list[str]:
    (rest,) = [rest for keyword, rest in instructions() if keyword == "HEALTHCHECK"]
    return json.loads(rest.split("CMD", 1)[1])


def test_the_healthcheck_asks_the_port_the_server_listens_on(sqlite_url):
    command = healthcheck_command()
    assert command[0] == "troika-arena", command
    executable = [str(BIN / "troika-arena"), *command[1:]]
    port = free_port()
    with server_process(sqlite_url, port):
        for host in ("0.0.0.0", "127.0.0.1"):  # the image's HOST, and a server bound to loopback
            healthy = subprocess.run(executable, env={**os.environ, "HOST": host, "PORT": str(port)}, timeout=30)
            assert healthy.returncode == 0, host
        nobody = subprocess.run(
            executable, env={**os.environ, "HOST": "0.0.0.0", "PORT": str(free_port())}, capture_output=True, timeout=30
        )
        assert nobody.returncode == 1 and b"unhealthy" in nobody.stderr


# 2 and 11. The scale profile: apps reached only through the proxy, which they trust.


def test_the_scale_apps_publish_no_port_and_trust_their_proxy_for_the_client_address():
    scale = services()["app-scale"]
    assert scale["profiles"] == ["scale"] and "ports" not in scale
    assert scale["environment"]["FORWARDED_ALLOW_IPS"]
    assert services()["proxy"]["profiles"] == ["scale"] and services()["proxy"]["ports"]
    # The README's scale command names the proxy, so the single (published) app is not started.
    assert "docker compose --profile scale up --build proxy" in (ROOT / "README.md").read_text()
    assert "ports" in services()["app"] and "profiles" not in services()["app"]


# 3. ALLOWED_HOSTS reaches the app.


def test_allowed_hosts_is_passed_through_to_every_app_service():
    for name in ("app", "app-scale"):
        assert services()[name]["environment"]["ALLOWED_HOSTS"] == "${ALLOWED_HOSTS:-}", name


def documented_settings() -> set[str]:
    """The settings of the README's "Configuration" table."""
    section = (ROOT / "README.md").read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", section, re.M))


def test_every_setting_in_env_reaches_every_app_service():
    """.env is read into each app's environment (METRICS_TOKEN, LOG_LEVEL, ... put there were
    dropped), and no setting under ``environment`` masks it but the compose file's own."""
    documented = documented_settings()
    assert {"METRICS_TOKEN", "LOG_LEVEL", "DATABASE_URL"} <= documented
    for name in ("app", "app-scale"):
        service = services()[name]
        assert service["env_file"] == [{"path": ".env", "required": False}], name
        masked = {key for key, value in service["environment"].items() if value != f"${{{key}:-}}"}
        assert masked & documented == {"DATABASE_URL", "HOST", "PORT"}, name


# 4. Secrets from .env, an example committed, the real one ignored.


def test_the_database_password_comes_from_a_git_ignored_env_file_with_a_committed_example():
    text = (ROOT / "docker-compose.yml").read_text()
    password = "${POSTGRES_PASSWORD:?"
    assert services()["db"]["environment"]["POSTGRES_PASSWORD"].startswith(password)
    assert password in services()["app"]["environment"]["DATABASE_URL"]
    assert "arena:arena@" not in text and "POSTGRES_PASSWORD: arena" not in text
    example = (ROOT / ".env.example").read_text()
    named = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    used = set(re.findall(r"\$\{([A-Z_]+)", text))
    assert used <= named, f"variables the compose file reads that .env.example does not show: {used - named}"
    assert re.search(r"^POSTGRES_PASSWORD=$", example, re.M), "the example must not ship a password"
    assert run("git", "check-ignore", "-q", ".env").returncode == 0, ".env is not git-ignored"
    assert run("git", "ls-files", "--error-unmatch", ".env.example").returncode == 0, ".env.example not committed"
    assert ".env" in (ROOT / ".dockerignore").read_text().split(), "a .env would be sent into the image's context"


def test_the_readmes_docker_commands_keep_a_dump_whole_and_let_friends_in():
    """``docker compose exec`` gives a terminal unless ``-T``, which corrupts a binary dump piped
    out (or in); a restore is documented beside the dump; the image run alone answers only
    localhost unless ALLOWED_HOSTS names the address friends use."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    piped = re.findall(r"docker compose exec [^`]*[<>][^`]*", readme)
    assert any("pg_dump" in command for command in piped) and any("pg_restore" in command for command in piped)
    assert all(command.startswith("docker compose exec -T ") for command in piped), piped
    (run,) = re.findall(r"docker run [^`]*", readme)
    assert "-e ALLOWED_HOSTS=" in run, run


# 5. Base images pinned by digest; a lock with hashes and the build backend.


def test_every_base_image_is_pinned_by_digest():
    images = [rest.split()[0] for keyword, rest in instructions() if keyword == "FROM"]
    images += [service["image"] for service in services().values() if "build" not in service]
    assert images and all(DIGEST.search(image) for image in images), images


def test_the_image_lock_has_hashes_the_build_backend_and_the_tested_versions():
    lock = image_lock()
    assert all(hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes) for hashes in lock.values())
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    for requirement in build:
        req = Requirement(requirement)
        assert f"{canonicalize_name(req.name)}=={next(iter(req.specifier)).version}" in lock, requirement
    tested = locked()
    runtime = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for pin in runtime:
        req = Requirement(pin)
        name = canonicalize_name(req.name)
        assert f"{name}=={tested[name]}" in lock, f"{pin}: the image lock lacks it or disagrees with constraints.txt"
    for entry in lock:  # the build backend's own dependencies alone are not in constraints.txt
        name, version = entry.split("==")
        assert tested.get(name, version) == version, f"{entry}: not the version .ci/constraints.txt (CI) tested"


# 6 and 7. A dependency layer; no copy of the source in the image.


def test_dependencies_are_a_layer_of_their_own_before_the_source_and_no_source_is_copied():
    steps = instructions()
    runs = [rest for keyword, rest in steps if keyword == "RUN"]
    assert "--require-hashes" in runs[0] and "source=.ci/image.lock" in runs[0] and "/tmp/src" not in runs[0]
    assert "--mount=type=bind,target=/tmp/src" in runs[1] and "--no-deps" in runs[1]
    assert not [rest for keyword, rest in steps if keyword in ("COPY", "ADD")], "the source is bind-mounted, not copied"


# 8. One image for both app services.


def test_one_image_serves_the_single_and_the_scaled_app():
    app, scale = services()["app"], services()["app-scale"]
    assert app["image"] == scale["image"] and app["build"] == scale["build"] == "."
    assert scale["deploy"]["replicas"] == 2
    assert {name for name, service in services().items() if "build" in service} == {"app", "app-scale"}


# 9. The proxy waits for healthy apps and health-checks its upstreams.


def caddyfile() -> str:
    return (ROOT / "Caddyfile").read_text()


def test_the_proxy_waits_for_healthy_apps_and_health_checks_each_upstream():
    proxy = services()["proxy"]
    assert proxy["depends_on"]["app-scale"]["condition"] == "service_healthy"
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    name, replicas = compose()["name"], services()["app-scale"]["deploy"]["replicas"]
    upstreams = [f"{name}-app-scale-{n}:8000" for n in range(1, replicas + 1)]
    (line,) = [line.split() for line in caddyfile().splitlines() if line.strip().startswith("reverse_proxy")]
    assert line[1:-1] == upstreams, line
    assert "health_uri /healthz" in caddyfile()
    assert re.search(r"health_headers \{\s*Host localhost\s*\}", caddyfile()), "the app answers 400 to other hosts"
    result = run(tool("caddy"), "validate", "--config", "Caddyfile", "--adapter", "caddyfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_caddyfile_in_front_of_two_servers_leaves_out_the_one_that_stops(postgres_url, tmp_path):
    """The committed Caddyfile, its upstreams pointed at two real servers on loopback: both are
    served through it; once one stops, every request still answers, from the other."""
    port, ports = free_port(), [free_port(), free_port()]
    config = caddyfile().replace(":8080 {", f"http://127.0.0.1:{port} {{\n\tbind 127.0.0.1", 1)
    for n, upstream in enumerate(ports, start=1):
        config = config.replace(f"troika-arena-app-scale-{n}:8000", f"127.0.0.1:{upstream}")
    config = "{\n\tadmin off\n\tpersist_config off\n}\n" + config.replace("health_interval 5s", "health_interval 1s")
    (tmp_path / "Caddyfile").write_text(config)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    with server_process(postgres_url, ports[0]) as (first, _), server_process(postgres_url, ports[1]):
        caddy = subprocess.Popen(
            [tool("caddy"), "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            until_proxied(base, caddy)
            room = httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}, timeout=10)
            assert room.status_code == 201, room.text
            first.terminate()
            first.wait(timeout=20)
            answers = [httpx.get(f"{base}/api/rooms/{room.json()['room']['id']}", timeout=10) for _ in range(20)]
            assert [r.status_code for r in answers] == [200] * 20
        finally:
            caddy.terminate()
            caddy.wait(timeout=10)


def until_proxied(base: str, caddy: subprocess.Popen) -> None:
    """Wait until the proxy answers /healthz from an upstream (30 s at most)."""
    for _ in range(150):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        assert caddy.poll() is None, "the proxy exited"
        time.sleep(0.2)
    raise AssertionError("the proxy never answered /healthz")


# 10. No anonymous volume.


def test_the_image_declares_no_volume():
    assert not [rest for keyword, rest in instructions() if keyword == "VOLUME"]
