"""The pins of the project's dependencies as the tests read them: a list of exact requirement
lines as a name-to-version map (``pins``), and the lock CI installs from, .ci/constraints.txt,
read the same way (``locked``)."""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def pins(lines: list[str]) -> dict[str, str]:
    found = {}
    for line in lines:
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", f"{line} is not pinned exactly"
        found[canonicalize_name(req.name)] = spec.version
    return found


def locked() -> dict[str, str]:
    lines = (ROOT / ".ci" / "constraints.txt").read_text().splitlines()
    return pins([line for line in lines if line and not line.lstrip().startswith("#")])
