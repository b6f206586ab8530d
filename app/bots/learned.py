"""What the learned evaluations share (TriATri's and Vem aí's, the expert's at 2 players): a
weight table read from its JSON file and refused if it was fitted to other features, the
chance of winning a row of weights gives a row of features, and the expert's heuristics that
use the model at 2 players. Each game's module says what its features and stages are;
``troika-arena fit-evaluation`` (:mod:`app.sim.fit`) makes the tables.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from app.bots.search import Heuristics, logistic

# The games with a learned evaluation, and the module that holds each model (its features,
# stages, weight table and the fit's defaults). The fit and the expert read them from here.
MODELS = {"triatri": "app.bots.triatri_learned", "vem-ai-a-troika": "app.bots.vem_learned"}


def read_weights(path: Path, names: tuple[str, ...], stages: int) -> tuple[tuple[float, ...], ...]:
    """One row of weights per stage, as ``troika-arena fit-evaluation`` wrote them to ``path``."""
    table = json.loads(path.read_text())
    if table["features"] != list(names) or len(table["weights"]) != stages:
        raise ValueError(f"{path.name} was fitted to other features: make it again with troika-arena fit-evaluation")
    return tuple(tuple(row) for row in table["weights"])


def predicted(row: tuple[float, ...] | list[float], inputs: list[float]) -> float:
    """The chance of winning a stage's weights ``row`` give for ``inputs`` (its features)."""
    return logistic(sum(w * x for w, x in zip(row, inputs, strict=True)))


def model(slug: str) -> ModuleType:
    """The module of ``slug``'s learned evaluation (``MODELS``)."""
    return importlib.import_module(MODELS[slug])


def expert_at_two(strong: Callable[[], Heuristics], slug: str, horizon: int) -> Callable[[int], Heuristics]:
    """A game's ``Heuristics.expert``: at 2 players the strong bot's heuristics (``strong()``)
    with rollouts cut after ``horizon`` actions and scored by the learned evaluation of ``slug``
    (imported when first used: it reads the game's heuristics module); at more seats, where no
    model was fitted, the strong bot's."""

    @functools.cache
    def learned() -> Heuristics:
        return dataclasses.replace(strong(), evaluate=model(slug).evaluate, horizon=horizon)

    return lambda seats: learned() if seats == 2 else strong()
