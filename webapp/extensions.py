"""Flask extensions, created here and bound to the app in create_app."""

from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Base class of all models."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
