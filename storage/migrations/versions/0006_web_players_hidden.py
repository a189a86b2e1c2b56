"""a person may hide their name from the web pages (``/settings myweb=hidden``); indexes for the pages: a chat's
finished games newest first, and wins per season

Revision ID: 0006_web
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa


revision = '0006_web'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        # a constant default: SQLite adds the column in place (an expression would rebuild the table)
        batch.add_column(sa.Column('web_hidden', sa.Boolean(), nullable=False, server_default='0'))
    op.create_index('ix_games_chat_status_finished', 'games', ['chat_id', 'status', 'finished_at'])
    op.create_index('ix_rating_changes_season_place', 'rating_changes',
                    ['league', 'game', 'season', 'place', 'player_id'])


def downgrade() -> None:
    op.drop_index('ix_rating_changes_season_place', table_name='rating_changes')
    op.drop_index('ix_games_chat_status_finished', table_name='games')
    # in place (SQLite ≥ 3.35 drops a column itself): rebuilding players would break the games' references to it
    op.drop_column('players', 'web_hidden')
