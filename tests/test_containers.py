"""The container files, checked without a Docker engine: hadolint lints the Dockerfile and the
compose file is validated against the Compose specification's JSON schema."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    path = BIN / name
    return str(path) if path.exists() else (shutil.which(name) or name)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=os.environ)


def test_dockerfile_passes_hadolint():
    result = run(tool("hadolint"), "--failure-threshold", "info", "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_runs_as_non_root_with_a_healthcheck():
    text = (ROOT / "Dockerfile").read_text()
    assert "\nUSER 10001\n" in text and "HEALTHCHECK" in text and "/healthz" in text


def test_compose_file_follows_the_compose_specification():
    result = run(tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", "docker-compose.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_runs_the_app_on_postgres_with_a_volume_and_healthchecks():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app, db = compose["services"]["app"], compose["services"]["db"]
    assert app["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "healthcheck" in db and any("db-data" in v for v in db["volumes"])


def test_compose_scale_profile_runs_two_instances_behind_a_proxy():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert services["app-2"]["profiles"] == ["scale"]
    assert services["app-2"]["environment"] == services["app"]["environment"]
    command = services["proxy"]["command"]
    assert "app:8000" in command and "app-2:8000" in command
