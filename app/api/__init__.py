"""The JSON API under /api: thin routes that parse, call the room service and return."""
