"""Flask extensions, created here and bound to the app in create_app."""

from pathlib import Path

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Base class of all models."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
# Migrations live in migrations/ beside the package: an older database is upgraded, never rebuilt.
# render_as_batch: SQLite changes a column by rebuilding its table, which batch mode does for us.
migrate = Migrate(directory=str(Path(__file__).resolve().parent / "migrations"), render_as_batch=True)
