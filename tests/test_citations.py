"""The repository carries every document it cites: no file may point a reader at a document
that a clone of the repository does not contain (a rulings file kept outside it, say), every
relative link in the Markdown docs resolves, and the rulings the code and pages follow are all
written down in docs/rulings.md, which the README and every rules page point to."""

from __future__ import annotations

import re
from pathlib import Path

from app.games.registry import ENTRIES, GAMES

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ruff_cache",
    "build",
    "dist",
}
SKIPPED_TREES = (ROOT / "static" / "vendor", ROOT / "docs" / "benchmarks")  # third-party code, measured data
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".html",
    ".toml",
    ".txt",
    ".yml",
    ".yaml",
    ".cfg",
    ".ini",
    ".sh",
    ".js",
    ".css",
    ".json",
    ".j2",
    "",
}
DOC_NAME = re.compile(r"[\w./-]*\w\.md\b")
OUTSIDE = re.compile(r"(?:\.\./)+shared\b|\bshared[/]rules\b|\bRULING[S]\b")  # the rulings kept outside
MD_LINK = re.compile(r"\]\(([^)\s#]+)")
RULING_IDS = re.compile(r"\*\*([TAV]\d+) ·")


def repository_texts():
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in relative.parts):
            continue
        if any(path.is_relative_to(tree) for tree in SKIPPED_TREES) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES:
            yield path, path.read_text(encoding="utf-8", errors="replace")


def exists_from(path: Path, name: str) -> bool:
    """Whether ``name`` names a file of the repository, read from ``path``'s folder, the root or docs/."""
    return any(
        (base / name).resolve().is_file() and (base / name).resolve().is_relative_to(ROOT)
        for base in (path.parent, ROOT, ROOT / "docs")
    )


def test_no_file_cites_a_document_outside_the_repository():
    missing = []
    for path, text in repository_texts():
        where = path.relative_to(ROOT)
        missing += [f"{where}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
        missing += [f"{where}: {m.group(0)}" for m in DOC_NAME.finditer(text) if not exists_from(path, m.group(0))]
        if path.suffix == ".md":
            missing += [
                f"{where}: link {target}"
                for target in MD_LINK.findall(text)
                if "://" not in target
                and not exists_from(path, target.rstrip("/"))
                and not (path.parent / target).is_dir()
            ]
    assert missing == [], "cited but not in the repository:\n" + "\n".join(missing)


def test_the_rulings_document_lists_every_ruling_and_is_linked():
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    ids = RULING_IDS.findall(rulings)
    expected = [f"T{i}" for i in range(1, 11)] + [f"A{i}" for i in range(1, 11)] + [f"V{i}" for i in range(1, 12)]
    assert ids == expected
    assert "(docs/rulings.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    for slug in [*GAMES, "index"]:  # a game kept outside app/ has its rules in its own template folder
        folder = ENTRIES[slug].templates if slug in ENTRIES and ENTRIES[slug].templates else ROOT / "templates"
        page = (folder / "rules" / f"{slug}.html").read_text(encoding="utf-8")
        assert "docs/rulings.md" in page, f"the {slug} rules page does not point to docs/rulings.md"
