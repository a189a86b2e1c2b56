"""Records (issue #41): moves.hinted — the move was made after its mover asked for a hint; games.hints — when each
seat last asked for one (seat → the move count then), so a move after it is marked even after a restart;
games.started_at — when the game left its lobby (a record's start; games.created_at is the table's opening)

Revision ID: 0008_records
Revises: 0007_undo
"""
from alembic import op
import sqlalchemy as sa


revision = '0008_records'
down_revision = '0007_undo'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # constant defaults: SQLite adds the columns in place (old moves: not after a hint)
    op.add_column('moves', sa.Column('hinted', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('games', sa.Column('hints', sa.JSON(), nullable=True))
    op.add_column('games', sa.Column('started_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # in place (SQLite ≥ 3.35 drops a column itself): rebuilding games would break the references to it
    op.drop_column('games', 'started_at')
    op.drop_column('games', 'hints')
    op.drop_column('moves', 'hinted')
