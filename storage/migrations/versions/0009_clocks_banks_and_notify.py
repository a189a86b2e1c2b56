"""games.clocks: a game's time control and its players' banks (written with every move); players.notify: a
person's notification settings and away periods (``/notify``, ``/away``)

Revision ID: 0009_clocks
Revises: 0008_records
"""
from alembic import op
import sqlalchemy as sa


revision = '0009_clocks'
down_revision = '0008_records'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable columns without a default: SQLite adds them in place
    op.add_column('games', sa.Column('clocks', sa.JSON(), nullable=True))
    op.add_column('players', sa.Column('notify', sa.JSON(), nullable=True))


def downgrade() -> None:
    # in place (SQLite ≥ 3.35 drops a column itself): rebuilding the tables would break the references to them
    op.drop_column('players', 'notify')
    op.drop_column('games', 'clocks')
