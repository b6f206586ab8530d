"""What one seat (or a spectator) is shown of a room: the single source for API and web views.

Everything here is built from the engine's per-seat ``view`` and the seat's own legal actions;
the seed appears only once the game is over.
"""

from __future__ import annotations

from typing import Any

from app.games.base import visible_log
from app.games.registry import GAMES
from app.rooms.model import LiveGame, RoomInfo, with_names

LOG_TAIL = 30
def seat_view(
    info: RoomInfo, live: LiveGame | None, seat: int | None, connected: set[int] = frozenset()
) -> dict[str, Any]:
    """The whole payload for ``seat`` (None: spectator) at the room's current version;
    ``connected`` lists the seats with an open socket (presence)."""
    game = GAMES[info.game]
    payload: dict[str, Any] = {
        "room": info.public(),
        "version": info.version,
        "seat": seat,
        "status": info.status,
        "to_act": [],
        "your_turn": False,
        "view": None,
        "legal_actions": [],
        "log": [],
        "outcome": None,
        "connected": sorted(connected),
    }
    if live is None:
        return payload
    state = live.state
    to_act = sorted(game.to_act(state))
    outcome = game.outcome(state)
    legal = game.legal_actions(state, seat) if seat is not None and seat in to_act else []
    payload.update(
        version=live.version,
        to_act=to_act,
        your_turn=bool(legal),
        view=game.view(state, seat),
        legal_actions=[{"action": a, "label": game.describe(a, state)} for a in legal],
        log=with_names(visible_log(state.get("log", []), seat, LOG_TAIL), info.seats),
        outcome=outcome.to_json() if outcome else None,
    )
    return payload
