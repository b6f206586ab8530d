"""Live updates: the event bus that tells connections a room changed."""
