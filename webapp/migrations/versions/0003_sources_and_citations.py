"""sources and citations: cards cite works by id; lifespan records

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 18:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('sources',
                    sa.Column('id', sa.String(length=80), nullable=False),
                    sa.Column('kind', sa.String(length=20), nullable=False),
                    sa.Column('authors', sa.Text(), nullable=True),
                    sa.Column('title', sa.Text(), nullable=False),
                    sa.Column('container', sa.Text(), nullable=True),
                    sa.Column('year', sa.Integer(), nullable=True),
                    sa.Column('doi', sa.String(length=200), nullable=True),
                    sa.Column('url', sa.Text(), nullable=True),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_sources_kind'), 'sources', ['kind'], unique=False)
    op.create_table('citations',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('card_id', sa.Integer(), nullable=False),
                    sa.Column('source_id', sa.String(length=80), nullable=False),
                    sa.Column('fields', sa.Text(), nullable=False),
                    sa.Column('detail', sa.Text(), nullable=True),
                    sa.Column('position', sa.Integer(), nullable=False),
                    sa.ForeignKeyConstraint(['card_id'], ['cards.id'], ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['source_id'], ['sources.id']),
                    sa.PrimaryKeyConstraint('id'))
    op.create_index(op.f('ix_citations_card_id'), 'citations', ['card_id'], unique=False)
    op.create_index(op.f('ix_citations_source_id'), 'citations', ['source_id'], unique=False)
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lifespan_record_years', sa.Float(), nullable=True))
        batch_op.drop_column('sources')
    # The card files changed shape: load them again on the next start.
    op.execute("DELETE FROM card_data")


def downgrade():
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sources', sa.Text(), nullable=False, server_default=''))
        batch_op.drop_column('lifespan_record_years')
    op.drop_index(op.f('ix_citations_source_id'), table_name='citations')
    op.drop_index(op.f('ix_citations_card_id'), table_name='citations')
    op.drop_table('citations')
    op.drop_index(op.f('ix_sources_kind'), table_name='sources')
    op.drop_table('sources')
