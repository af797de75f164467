"""My tricky cards: the practice that schedules what a student confuses, and its progress page."""
