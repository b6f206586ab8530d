"""Persistence: SQLModel tables and the async database engine."""
