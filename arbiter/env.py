"""Typed readers for the environment variables that configure Arbiter.

Each helper fails loudly with :class:`ConfigError` naming the variable and what was
wrong with it; ``manage.py``, the WSGI entry point and the Celery app turn that into a
single line on standard error instead of a traceback.

Any variable may instead be given as ``NAME_FILE``, the path of a file holding the value
(the convention for Docker and Kubernetes secrets).
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


class ConfigError(ImproperlyConfigured):
    """A configuration value is missing or malformed."""


_MISSING = object()


def _raw(name: str) -> str | None:
    file_name = os.environ.get(f"{name}_FILE")
    if file_name:
        try:
            return Path(file_name).read_text().strip()
        except OSError as e:
            raise ConfigError(f"{name}_FILE={file_name}: cannot read it ({e.strerror})") from None
    return os.environ.get(name)


def env_str(name: str, default: str | object = _MISSING) -> str:
    value = _raw(name)
    if value is None:
        if default is _MISSING:
            raise ConfigError(f"{name} is not set and has no default")
        return default  # type: ignore[return-value]
    return value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ConfigError(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer; unset or blank (``NAME=`` in an env file) is the default."""
    value = _raw(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ConfigError(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name}={number} is below the minimum of {minimum}")
    if maximum is not None and number > maximum:
        raise ConfigError(f"{name}={number} is above the maximum of {maximum}")
    return number


def env_range(name: str, default: tuple[float, float], *, whole: bool = True) -> tuple[float, float]:
    """A bound as ``MIN..MAX`` (``0.1..600``; whole numbers only when ``whole``), the least
    first; unset or blank is the default."""
    value = _raw(name)
    if value is None or not value.strip():
        return default
    low, dots, high = value.strip().partition("..")
    kind = int if whole else float
    try:
        bound = (kind(low.strip()), kind(high.strip()))
    except ValueError:
        number = "whole numbers" if whole else "numbers"
        raise ConfigError(f"{name}={value!r} is not MIN..MAX of {number} (e.g. 1..100)") from None
    if not dots or not all(math.isfinite(b) for b in bound) or bound[0] > bound[1]:
        raise ConfigError(f"{name}={value!r} is not MIN..MAX with MIN at most MAX")
    return bound


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    """Comma-separated IP addresses and networks (``10.0.0.5, 10.1.0.0/16, fd00::/8``), each
    written back as a network; a bad one stops start-up naming it."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ConfigError(f"{name}: {item!r} is not an IP address or network") from None
    return networks


_PERIODS = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hour": 3600,
    "d": 86400,
    "day": 86400,
}


def env_rate(name: str, default: str) -> tuple[int, int]:
    """A rate as ``N/period`` (``600/min``; second, minute, hour or day, or their first letter),
    given back as (requests, seconds)."""
    value = (_raw(name) or "").strip() or default
    found = re.fullmatch(r"\s*(\d+)\s*/\s*([a-z]+?)s?\s*", value.lower())
    if not found or found[2] not in _PERIODS or int(found[1]) < 1:
        raise ConfigError(
            f"{name}={value!r} is not a rate such as 600/min (N/second, minute, hour or day; N at least 1)"
        )
    return int(found[1]), _PERIODS[found[2]]


def secret_key(var_dir: Path) -> str:
    """``SECRET_KEY`` from the environment, else one generated once into ``var/``."""
    value = _raw("SECRET_KEY")
    if value is not None:
        if len(value) < 32:
            raise ConfigError("SECRET_KEY is shorter than 32 characters")
        return value
    path = var_dir / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # O_EXCL: two processes starting at once agree on the first key written.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key
