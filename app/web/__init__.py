"""The browser side: HTML pages, per-seat fragments and the live websocket."""
