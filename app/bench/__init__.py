"""Server load benchmark (``troika-arena bench server``).

``load`` drives real websocket clients against a running server; ``servers`` starts the arena
(on SQLite or a throwaway Postgres database) or the bare fan-out ``baseline``; ``sweep`` runs
the whole experiment and writes JSON, a table and a PNG plot (``plot``). Figures are printed
and recorded, never asserted: they depend on the machine.
"""
