"""Field descriptions read from docstrings, parsing each module once.

The API's models and the games' typed views (TypedDicts) take their fields' descriptions from
the docstring under each field (pydantic's ``use_attribute_docstrings``). For a TypedDict,
pydantic finds it with ``inspect.getsourcelines``, which on Python 3.11 parses the class's whole
module again, and does so each time a model or a union names the TypedDict: 230 parses for 76
classes, about 0.8 s of the server's 2.4 s start. Here each module is parsed once, its classes
found by qualified name, and pydantic's own visitor reads their docstrings; a class not found so
(one defined inside a function) is left to pydantic. Imported by ``app.api`` before any model.
"""

from __future__ import annotations

import ast
import functools
import inspect
from pathlib import Path
from typing import Any

from pydantic._internal import _docs_extraction, _generate_schema

pydantic_reading = _docs_extraction.extract_docstrings_from_cls


@functools.cache
def classes_in(path: str) -> dict[str, ast.ClassDef]:
    """Every class statement of the module at ``path``, by qualified name; a name given twice
    (a class defined again under a condition) is left out, for pydantic to find."""
    found: dict[str, ast.ClassDef] = {}
    twice: set[str] = set()

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                name = prefix + node.name
                if name in found:
                    twice.add(name)
                found[name] = node
                walk(node.body, f"{name}.")

    walk(ast.parse(Path(path).read_text(encoding="utf-8")).body, "")
    return {name: node for name, node in found.items() if name not in twice}


def read_once(cls: type[Any], use_inspect: bool = False) -> dict[str, str]:
    """``cls``'s field docstrings by field name, as pydantic reads them."""
    try:
        node = classes_in(inspect.getsourcefile(cls) or "").get(cls.__qualname__)
    except (OSError, TypeError, SyntaxError):
        node = None
    if node is None:
        return pydantic_reading(cls, use_inspect)
    visitor = _docs_extraction.DocstringVisitor()
    visitor.generic_visit(node)
    return visitor.attrs


_generate_schema.extract_docstrings_from_cls = read_once
