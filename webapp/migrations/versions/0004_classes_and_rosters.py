"""classes and rosters: pupils with personal codes, rounds for a class, one-time codes to get back in

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 20:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('classes',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('teacher_id', sa.Integer(), nullable=False),
                    sa.Column('name', sa.String(length=60), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['teacher_id'], ['teachers.id']),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_classes_teacher_id'), 'classes', ['teacher_id'], unique=False)
    op.create_table('pupils',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('class_id', sa.Integer(), nullable=False),
                    sa.Column('display_name', sa.String(length=24), nullable=False),
                    sa.Column('name_key', sa.String(length=24), nullable=False),
                    sa.Column('code', sa.String(length=8), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.ForeignKeyConstraint(['class_id'], ['classes.id']),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('class_id', 'name_key'),
                    sa.UniqueConstraint('code'))
    op.create_index(op.f('ix_pupils_class_id'), 'pupils', ['class_id'], unique=False)
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('class_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_rounds_class_id'), ['class_id'], unique=False)
        batch_op.create_foreign_key('fk_rounds_class_id', 'classes', ['class_id'], ['id'])
    with op.batch_alter_table('students', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pupil_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('moved_token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('rejoin_code_hash', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_students_pupil_id'), ['pupil_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_students_moved_token_hash'), ['moved_token_hash'], unique=False)
        batch_op.create_foreign_key('fk_students_pupil_id', 'pupils', ['pupil_id'], ['id'])
        batch_op.create_unique_constraint('uq_students_round_id_pupil_id', ['round_id', 'pupil_id'])


def downgrade():
    with op.batch_alter_table('students', schema=None) as batch_op:
        batch_op.drop_constraint('uq_students_round_id_pupil_id', type_='unique')
        batch_op.drop_constraint('fk_students_pupil_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_students_moved_token_hash'))
        batch_op.drop_index(batch_op.f('ix_students_pupil_id'))
        batch_op.drop_column('rejoin_code_hash')
        batch_op.drop_column('moved_token_hash')
        batch_op.drop_column('pupil_id')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint('fk_rounds_class_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_rounds_class_id'))
        batch_op.drop_column('class_id')
    op.drop_index(op.f('ix_pupils_class_id'), table_name='pupils')
    op.drop_table('pupils')
    op.drop_index(op.f('ix_classes_teacher_id'), table_name='classes')
    op.drop_table('classes')
