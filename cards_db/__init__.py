"""The card database: CSV files of cards, their schema, and a validating loader."""

from cards_db.loader import CardDataError, parse_sources, read_cards, read_deck, read_periods

__all__ = ["CardDataError", "parse_sources", "read_cards", "read_deck", "read_periods"]
