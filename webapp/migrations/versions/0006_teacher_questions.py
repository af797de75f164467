"""questions teachers write: multiple choice and put in order

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 21:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('teacher_questions',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('teacher_id', sa.Integer(), nullable=False),
                    sa.Column('kind', sa.String(length=10), nullable=False),
                    sa.Column('prompt', sa.Text(), nullable=False),
                    sa.Column('options', sa.JSON(), nullable=False),
                    sa.Column('answer', sa.Integer(), nullable=True),
                    sa.Column('explanation', sa.Text(), nullable=False),
                    sa.Column('share_code', sa.String(length=16), nullable=True),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id']),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('share_code'))
    op.create_index(op.f('ix_teacher_questions_teacher_id'), 'teacher_questions', ['teacher_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_teacher_questions_teacher_id'), table_name='teacher_questions')
    op.drop_table('teacher_questions')
