"""games.clocks: a game's time control and its players' banks (written with every move); players.notify: a
person's notification settings and away periods (``/notify``, ``/away``)

Revision ID: 0008_clocks
Revises: 0007_undo
"""
from alembic import op
import sqlalchemy as sa


revision = '0008_clocks'
down_revision = '0007_undo'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('clocks', sa.JSON(), nullable=True))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('notify', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('notify')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('clocks')
