"""The JSON API under /api: thin routes that parse, call the room service and return."""

from app.api import docstrings  # noqa: F401 (before any model: docstrings read once per class)
