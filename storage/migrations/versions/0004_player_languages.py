"""a person's languages: the one they chose, and their client's

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('language', sa.String(length=8), nullable=True))
        batch.add_column(sa.Column('locale', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('locale')
        batch.drop_column('language')
