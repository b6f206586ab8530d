"""Troika: the tile game (2-5 players). Engine in progress."""

from __future__ import annotations

from app.games.base import OptionSpec


class Troika:
    slug = "troika"
    title = "Troika"
    min_players = 2
    max_players = 5
    options = (
        OptionSpec(
            "first_player",
            "choice",
            "random",
            "Who starts round 1: a seat number, or random from the room seed",
            choices=("random", "0", "1", "2", "3", "4"),
        ),
    )


GAME = Troika()
