"""Personal API tokens (stored hashed) and the responses remembered for Idempotency-Key."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "arb_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. 'laptop script'.")
    lookup = models.CharField(max_length=12, unique=True, help_text="The first characters of the key, to find it.")
    digest = models.CharField(max_length=64, help_text="SHA-256 of the whole key; the key itself is not stored.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({TOKEN_PREFIX}{self.lookup}…)"

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        """A new token and its key; the key is shown once and never again."""
        while True:
            lookup = secrets.token_hex(6)
            if not cls.objects.filter(lookup=lookup).exists():
                break
        key = f"{TOKEN_PREFIX}{lookup}{secrets.token_urlsafe(30)}"
        token = cls.objects.create(user=user, name=name[:100] or "token", lookup=lookup, digest=_digest(key))
        return token, key

    @classmethod
    def authenticate(cls, key: str) -> ApiToken | None:
        if not key.startswith(TOKEN_PREFIX) or len(key) < len(TOKEN_PREFIX) + 12:
            return None
        token = (
            cls.objects.select_related("user").filter(lookup=key[len(TOKEN_PREFIX) : len(TOKEN_PREFIX) + 12]).first()
        )
        if token is None or token.revoked_at is not None or not token.user.is_active:
            return None
        if not hmac.compare_digest(token.digest, _digest(key)):
            return None
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            cls.objects.filter(pk=token.pk).update(last_used_at=now)
        return token

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])


class IdempotentRequest(models.Model):
    """The answer to a POST sent with an Idempotency-Key, replayed when the same key comes back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, path and body.")
    status = models.PositiveSmallIntegerField(help_text="The answer's HTTP status; 0 while it is being answered.")
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


class Preference(models.Model):
    """What a person chose for themselves that outlives a browser's cookie: the language the
    site, their notifications and their e-mails speak to them in (blank: their browser's)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preference"
    )
    language = models.CharField(
        max_length=16,
        blank=True,
        help_text="A code of LANGUAGES, chosen in the header or on the profile; blank: the browser's Accept-Language.",
    )

    def __str__(self) -> str:
        return f"{self.user}: {self.language or 'the browser'}"
