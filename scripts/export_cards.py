#!/usr/bin/env python
"""Export the cards in the app's database to CSV files (same as `flask cards export`)."""

import argparse

from webapp import create_app
from webapp.database import export_cards


def main():
    """Write dinosaurs.csv and animals.csv into the folder given."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out_dir", help="folder to write the CSV files into")
    args = parser.parse_args()
    app = create_app()
    with app.app_context():
        for path in export_cards(args.out_dir):
            print(f"Wrote {path}")


if __name__ == "__main__":
    main()
