"""why a room closed: everyone left ("left"), its host closed it ("host") or it stood idle
("idle"); a game in play that closed is "abandoned". The rooms closed before this migration
were all closed because everyone left, and are marked so.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_reason", sa.String(length=16), nullable=True))
    op.execute("UPDATE rooms SET closed_reason = 'left' WHERE status = 'closed'")


def downgrade() -> None:
    op.execute("UPDATE rooms SET status = 'closed' WHERE status = 'abandoned'")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("closed_reason")
