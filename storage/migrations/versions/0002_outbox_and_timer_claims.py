"""the outbox, and timers claimed by one process

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('slot', sa.String(length=160), nullable=True),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('claimed_by', sa.String(length=96), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    op.create_index('ix_outbox_pending', 'outbox', ['platform', 'sent_at'], unique=False)
    with op.batch_alter_table('timers') as batch:
        batch.add_column(sa.Column('claimed_by', sa.String(length=96), nullable=True))
        batch.add_column(sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('timers') as batch:
        batch.drop_column('claimed_at')
        batch.drop_column('claimed_by')
    op.drop_index('ix_outbox_pending', table_name='outbox')
    op.drop_table('outbox')
