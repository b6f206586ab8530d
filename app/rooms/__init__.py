"""Room lifecycle: create, join, leave, start, act (the one choke point), views and records."""
