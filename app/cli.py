"""The ``troika-arena`` command: ``serve`` runs the server, ``migrate`` upgrades the database.

Settings come from the environment (see README); ``serve`` flags override host and port.
"""

from __future__ import annotations

import argparse
import sys

from app.config import get_settings


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = get_settings()
    uvicorn.run(
        "app.main:app",
        host=args.host or settings.host,
        port=args.port or settings.port,
        log_level=settings.log_level,
        proxy_headers=True,
    )
    return 0


def migrate(_args: argparse.Namespace) -> int:
    from app.db.engine import migrate as run_migrations

    run_migrations(get_settings().sync_database_url())
    print("database is at the newest schema")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="troika-arena", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p_serve = commands.add_parser("serve", help="run the web server")
    p_serve.add_argument("--host", help="address to bind (default: HOST or 127.0.0.1)")
    p_serve.add_argument("--port", type=int, help="port (default: PORT or 8000)")
    p_serve.set_defaults(func=serve)
    p_migrate = commands.add_parser("migrate", help="apply database migrations")
    p_migrate.set_defaults(func=migrate)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
