"""card ranges, places, habitat and names

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 18:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

COLUMNS = [
    ('length_low_m', sa.Float()), ('length_high_m', sa.Float()), ('mass_low_kg', sa.Float()),
    ('mass_high_kg', sa.Float()), ('continents', sa.Text()), ('countries', sa.Text()),
    ('habitat', sa.String(length=60)), ('name_meaning', sa.Text()),
    ('pronunciation', sa.String(length=120)), ('named_by', sa.Text()), ('named_year', sa.Integer()),
]


def upgrade():
    with op.batch_alter_table('cards', schema=None) as batch_op:
        for name, kind in COLUMNS:
            batch_op.add_column(sa.Column(name, kind, nullable=True))
    op.create_table('card_data',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('digest', sa.String(length=64), nullable=False),
                    sa.PrimaryKeyConstraint('id'))


def downgrade():
    op.drop_table('card_data')
    with op.batch_alter_table('cards', schema=None) as batch_op:
        for name, _ in reversed(COLUMNS):
            batch_op.drop_column(name)
