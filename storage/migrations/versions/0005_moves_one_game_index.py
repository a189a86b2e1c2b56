"""moves: drop the index on game_id alone — the unique (game_id, seq) index starts with game_id and serves every
lookup of a game's moves, so the second index only cost a write on every logged move

Revision ID: 0005
Revises: 0004
"""
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index('ix_moves_game_id', table_name='moves')


def downgrade() -> None:
    op.create_index('ix_moves_game_id', 'moves', ['game_id'], unique=False)
