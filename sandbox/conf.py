"""Sandbox settings: plain data, read from Django settings when Django is configured.

Settings (all optional):
  SANDBOX_ROOT            this installation's own folder on each host: slot locks, work folders,
                          mount points. Everything else an installation holds on a host is
                          derived from it (and the host name): the cgroup folder
                          ``arbiter-<hash>`` under every hierarchy. Two installations on one
                          host need two roots; a worker and a ``manage.py play`` of the same
                          installation share it, and so share its slots.
  SANDBOX_CACHE_DIR       build cache (default: SANDBOX_ROOT/cache)
  SANDBOX_SLOTS           jails this installation runs at once on a host
  SANDBOX_UID_BASE        the host-wide pool of uids that jails run as (default 60000, 1024 of
  SANDBOX_UID_COUNT       them): leased per jail, so no two jails on a host share one
  ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX
                          development only: run untrusted code in a jail that failed part of
                          its self-check. Never set this on a host that judges real entries.
The last one is also read from the environment of the same name.
"""

from __future__ import annotations

import hashlib
import os
import socket
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
    uid_count: int = 1024
    allow_degraded: bool = False
    pool: bool = False  # jails made ahead of need (sandbox/pool.py)
    cgroup_parent: str = ""  # derived from the root; set only to test a broken one

    def __post_init__(self) -> None:
        if not self.cgroup_parent:
            object.__setattr__(self, "cgroup_parent", f"arbiter-{installation_id(self.root)}")

    def uids(self) -> range:
        return range(self.uid_base, self.uid_base + self.uid_count)


def installation_id(root: Path) -> str:
    """A short name of the installation that owns ``root`` on this host. The host name is in it
    because privileged containers on one host may share the cgroup tree but not their /tmp."""
    key = f"{socket.gethostname()}:{os.path.abspath(root)}"
    return hashlib.sha256(key.encode()).hexdigest()[:12]


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


def default_root(var_dir: Path) -> Path:
    """The default SANDBOX_ROOT of the installation whose data folder is ``var_dir``: its own,
    so that two checkouts (or a test run beside a running site) never share slots."""
    digest = hashlib.sha256(os.path.abspath(var_dir).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"arbiter-sandbox-{digest}"


def get_settings() -> SandboxSettings:
    root = Path(_django_setting("SANDBOX_ROOT", Path(tempfile.gettempdir()) / "arbiter-sandbox"))
    cache = Path(_django_setting("SANDBOX_CACHE_DIR", root / "cache"))
    allow = _truthy(_django_setting(INSECURE_SETTING, False)) or _truthy(os.environ.get(INSECURE_SETTING, ""))
    return SandboxSettings(
        root=root,
        cache_dir=cache,
        slots=int(_django_setting("SANDBOX_SLOTS", 4)),
        uid_base=int(_django_setting("SANDBOX_UID_BASE", 60000)),
        uid_count=int(_django_setting("SANDBOX_UID_COUNT", 1024)),
        allow_degraded=allow,
        pool=_truthy(_django_setting("SANDBOX_POOL", False)),
    )
