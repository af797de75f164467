"""The card database: CSV files of cards, their schema, their bibliography, and a validating loader."""

from cards_db.loader import CardDataError, read_card_files, read_cards, read_deck, read_periods

__all__ = ["CardDataError", "read_card_files", "read_cards", "read_deck", "read_periods"]
