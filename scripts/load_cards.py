#!/usr/bin/env python
"""Validate the card CSV files and load them into the app's database (same as `flask cards load`)."""

import argparse
import sys

from cards_db import CardDataError
from cards_db.loader import DATA_DIR
from webapp import create_app
from webapp.database import load_cards


def main():
    """Load the cards; exit 1 with the file, row and column of the first bad cell."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", default=str(DATA_DIR), help="folder with the card CSV files")
    args = parser.parse_args()
    app = create_app()
    with app.app_context():
        try:
            counts = load_cards(args.data_dir)
        except CardDataError as error:
            print(f"Error: {error}", file=sys.stderr)
            return 1
    print(f"Loaded {counts['cards']} cards and {counts['periods']} periods.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
