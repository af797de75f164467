"""pupils' tricky cards kept on the school's server: linked devices and placements

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 07:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('pupil_devices',
                    sa.Column('id', sa.String(length=64), nullable=False),
                    sa.Column('pupil_id', sa.Integer(), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['pupil_id'], ['pupils.id']),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_pupil_devices_pupil_id'), 'pupil_devices', ['pupil_id'], unique=False)
    op.create_index(op.f('ix_pupil_devices_last_seen_at'), 'pupil_devices', ['last_seen_at'], unique=False)
    op.create_table('pupil_placements',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('pupil_id', sa.Integer(), nullable=False),
                    sa.Column('card', sa.String(length=80), nullable=False),
                    sa.Column('by', sa.String(length=80), nullable=False),
                    sa.Column('right', sa.Boolean(), nullable=False),
                    sa.Column('close', sa.Boolean(), nullable=False),
                    sa.Column('passed', sa.JSON(), nullable=False),
                    sa.Column('beside', sa.JSON(), nullable=False),
                    sa.Column('game', sa.String(length=80), nullable=False),
                    sa.Column('at_ms', sa.BigInteger(), nullable=False),
                    sa.ForeignKeyConstraint(['pupil_id'], ['pupils.id']),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('pupil_id', 'at_ms', 'card'))
    op.create_index(op.f('ix_pupil_placements_pupil_id'), 'pupil_placements', ['pupil_id'], unique=False)
    op.create_index(op.f('ix_pupil_placements_at_ms'), 'pupil_placements', ['at_ms'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_pupil_placements_at_ms'), table_name='pupil_placements')
    op.drop_index(op.f('ix_pupil_placements_pupil_id'), table_name='pupil_placements')
    op.drop_table('pupil_placements')
    op.drop_index(op.f('ix_pupil_devices_last_seen_at'), table_name='pupil_devices')
    op.drop_index(op.f('ix_pupil_devices_pupil_id'), table_name='pupil_devices')
    op.drop_table('pupil_devices')
