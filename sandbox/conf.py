"""Sandbox settings: plain data, read from Django settings when Django is configured.

Settings (all optional):
  SANDBOX_ROOT            folder for work folders, slot locks and mount points
  SANDBOX_CACHE_DIR       build cache (default: SANDBOX_ROOT/cache)
  SANDBOX_SLOTS           concurrent jails on this host; slot n runs as uid SANDBOX_UID_BASE + n
  SANDBOX_UID_BASE        default 60000
  SANDBOX_CGROUP_PARENT   cgroup folder under every hierarchy, default "arbiter-sandbox"
  ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX
                          development only: run untrusted code in a jail that failed part of
                          its self-check. Never set this on a host that judges real entries.
The last one is also read from the environment of the same name.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INSECURE_SETTING = "ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX"


@dataclass(frozen=True)
class SandboxSettings:
    root: Path
    cache_dir: Path
    slots: int = 4
    uid_base: int = 60000
    cgroup_parent: str = "arbiter-sandbox"
    allow_degraded: bool = False

    def uid(self, slot: int) -> int:
        return self.uid_base + slot


def _django_setting(name: str, default: Any) -> Any:
    try:
        from django.conf import settings
    except ImportError:
        return default
    if not settings.configured:
        return default
    return getattr(settings, name, default)


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)


def get_settings() -> SandboxSettings:
    root = Path(_django_setting("SANDBOX_ROOT", Path(tempfile.gettempdir()) / "arbiter-sandbox"))
    cache = Path(_django_setting("SANDBOX_CACHE_DIR", root / "cache"))
    allow = _truthy(_django_setting(INSECURE_SETTING, False)) or _truthy(os.environ.get(INSECURE_SETTING, ""))
    return SandboxSettings(
        root=root,
        cache_dir=cache,
        slots=int(_django_setting("SANDBOX_SLOTS", 4)),
        uid_base=int(_django_setting("SANDBOX_UID_BASE", 60000)),
        cgroup_parent=str(_django_setting("SANDBOX_CGROUP_PARENT", "arbiter-sandbox")),
        allow_degraded=allow,
    )
