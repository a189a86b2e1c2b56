"""moves.taken_back: an undone move stays in the log, marked; takebacks: requests to take moves back by consent

Revision ID: 0007_undo
Revises: 0006_web
"""
from alembic import op
import sqlalchemy as sa


revision = '0007_undo'
down_revision = '0006_web'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('moves') as batch:
        batch.add_column(sa.Column('taken_back', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        'takebacks',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('first_seq', sa.Integer(), nullable=False),
        sa.Column('waiting', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_takebacks_game_id', 'takebacks', ['game_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_takebacks_game_id', table_name='takebacks')
    op.drop_table('takebacks')
    with op.batch_alter_table('moves') as batch:
        batch.drop_column('taken_back')
