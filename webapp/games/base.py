"""What every game engine shares: its two errors."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why, for a person to read."""


class InvalidConfig(ValueError):
    """A game set-up the rules cannot start from; the message says why."""
