"""The live sockets' caps as a typed dependency: the app's one :class:`SocketCaps` for
websockets (``app.realtime.caps``; the event streams of ``app.api.streams`` have their own)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.realtime.caps import SocketCaps


async def socket_caps(connection: HTTPConnection) -> SocketCaps:
    return connection.app.state.sockets


Capped = Annotated[SocketCaps, Depends(socket_caps)]
