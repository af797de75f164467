"""Secret tokens for seats and students: handed out once, stored only as a hash."""

import hashlib
import hmac
import secrets


def new_token():
    """Return a fresh secret token for a browser to keep."""
    return secrets.token_urlsafe(24)


def token_hash(token):
    """Return the stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(stored, token):
    """Say whether `token` hashes to `stored`, in constant time."""
    return bool(token) and hmac.compare_digest(stored or "", token_hash(token))
