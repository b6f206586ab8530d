"""change ids: every change of a room (a move, the start, a seat taken or freed, presence, a chat
line...) is numbered per room, so a client that lost its stream resumes after the last change
it holds and misses none (``app.rooms.changes``). A room keeps the id of its last change and
of the last change of its view, presence and chat; a chat line keeps its own. Existing rooms
start with their version as their last change, so a client resuming with a version misses nothing.
A seat keeps the hash of its join's idempotency key, so that the key sent again with another name
is refused (422) rather than taking a second seat.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

ROOM_COLUMNS = ("change_id", "view_change_id", "presence_change_id", "chat_change_id")


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        for name in ROOM_COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("change_id", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE rooms SET change_id = version, view_change_id = version")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("join_key_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("join_key_hash")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_column("change_id")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        for name in reversed(ROOM_COLUMNS):
            batch_op.drop_column(name)
