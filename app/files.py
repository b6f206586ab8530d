"""Where the server's files that are not Python modules are: ``static``, ``templates``,
``migrations`` and ``alembic.ini``. In a checkout (and an editable install) they sit at the
repository's root; a built wheel (``pip install .``, the Docker image) carries copies inside the
package, in ``app/_files``, put there by the wheel's
``force-include`` table in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
FILES = PACKAGE / "_files" if (PACKAGE / "_files").is_dir() else PACKAGE.parent


def project_file(name: str) -> Path:
    """The path of ``name`` (static, templates, migrations or alembic.ini)."""
    return FILES / name
