"""throttles (backoff and flood limits), teachers' sessions, housekeeping, card sets' share codes

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 23:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('throttles',
                    sa.Column('key', sa.String(length=200), nullable=False),
                    sa.Column('count', sa.Integer(), nullable=False),
                    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
                    sa.Column('next_at', sa.DateTime(timezone=True), nullable=True),
                    sa.PrimaryKeyConstraint('key'))
    op.create_index(op.f('ix_throttles_started_at'), 'throttles', ['started_at'], unique=False)
    op.create_table('teacher_sessions',
                    sa.Column('id', sa.String(length=64), nullable=False),
                    sa.Column('teacher_id', sa.Integer(), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id']),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_teacher_sessions_teacher_id'), 'teacher_sessions', ['teacher_id'], unique=False)
    op.create_table('housekeeping',
                    sa.Column('name', sa.String(length=40), nullable=False),
                    sa.Column('last_run_at', sa.DateTime(timezone=True), nullable=False),
                    sa.PrimaryKeyConstraint('name'))
    with op.batch_alter_table('card_sets') as batch:
        batch.add_column(sa.Column('share_code', sa.String(length=16), nullable=True))
        batch.create_unique_constraint('uq_card_sets_share_code', ['share_code'])
    op.drop_index(op.f('ix_failed_attempts_key'), table_name='failed_attempts')
    op.drop_index(op.f('ix_failed_attempts_at'), table_name='failed_attempts')
    op.drop_table('failed_attempts')


def downgrade():
    op.create_table('failed_attempts',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('key', sa.String(length=200), nullable=False),
                    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_failed_attempts_at'), 'failed_attempts', ['at'], unique=False)
    op.create_index(op.f('ix_failed_attempts_key'), 'failed_attempts', ['key'], unique=False)
    with op.batch_alter_table('card_sets') as batch:
        batch.drop_constraint('uq_card_sets_share_code', type_='unique')
        batch.drop_column('share_code')
    op.drop_table('housekeeping')
    op.drop_index(op.f('ix_teacher_sessions_teacher_id'), table_name='teacher_sessions')
    op.drop_table('teacher_sessions')
    op.drop_index(op.f('ix_throttles_started_at'), table_name='throttles')
    op.drop_table('throttles')
