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
        batch.add_column(sa.Column('web_hidden', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('web_hidden')
