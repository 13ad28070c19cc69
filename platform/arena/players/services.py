"""A player's API token: replaced or revoked the same way from the profile page and the API."""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token


def rotate_token(user) -> Token:
    """A new token for ``user``; the old one stops working at once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def revoke_token(user) -> None:
    """``user`` has no token until they ask for one again."""
    Token.objects.filter(user=user).delete()
