"""The server's clock, and stored times as the state machine's seconds (the round clock never trusts the browser's)."""

from datetime import UTC, datetime


def now():
    """Return the server's time."""
    return datetime.now(UTC)


def aware(moment):
    """Return a stored time as UTC (SQLite gives it back without a zone)."""
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def seconds(moment):
    """Return a stored time as seconds since the epoch (None stays None)."""
    return aware(moment).timestamp() if moment is not None else None


def moment(value):
    """Return seconds since the epoch as a time to store."""
    return datetime.fromtimestamp(value, UTC) if value is not None else None
