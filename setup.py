"""Build step (the rest of the metadata is in pyproject.toml): a built wheel carries the server's
files that are not Python modules (static, templates, migrations, alembic.ini) inside the
package, as ``app/_files``, where ``app/files.py`` finds them. Without them a plain
``pip install .`` (the Docker image's) could not start. Editable installs read them from the
checkout and need no copy."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
FILES = ("static", "templates", "migrations", "alembic.ini")


class BuildWithFiles(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "app" / "_files"
        target.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(
                    source, target / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
                )
            else:
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithFiles})
