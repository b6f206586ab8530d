"""by_bot: whether a bot chose a logged move (a bot's own seat, a stand-in or a player's
autopilot), so that a player's review goes through their own moves only. Moves logged before
have none (unknown).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("by_bot", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("by_bot")
