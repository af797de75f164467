"""rounds can be archived and shared by a code that copies their set-up

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 20:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('share_code', sa.String(length=16), nullable=True))
        batch_op.create_unique_constraint('uq_rounds_share_code', ['share_code'])


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_constraint('uq_rounds_share_code', type_='unique')
        batch_op.drop_column('share_code')
        batch_op.drop_column('archived_at')
