"""Personal API tokens on the wire."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.models import ApiToken


class TokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer arb_...`` (or ``Token arb_...``): a personal API token."""

    keywords = (b"bearer", b"token")

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in self.keywords:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Write the header as: Authorization: Bearer YOUR_TOKEN")
        token = ApiToken.authenticate(parts[1].decode("latin-1"))
        if token is None:
            raise exceptions.AuthenticationFailed("This API token is unknown or revoked.")
        return token.user, token

    def authenticate_header(self, request) -> str:
        return "Bearer"
