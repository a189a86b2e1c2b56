"""a person may hide their name from the web pages (``/settings myweb=hidden``)

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


def downgrade() -> None:
    # in place (SQLite ≥ 3.35 drops a column itself): rebuilding players would break the games' references to it
    op.drop_column('players', 'web_hidden')
