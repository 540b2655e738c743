"""`manage.py check --deploy` with the production environment the docs give: the README's
"Many machines" exports and docs/deployment.md's "The site behind its proxy". It once warned
W004 (no HSTS), W008 (no redirect to HTTPS), W012 and W016 (cookies sent over HTTP)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def _exports(path: str, section: str) -> dict[str, str]:
    text = (ROOT / path).read_text().split(section, 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^export (\w+)=(\S+)", text, re.M))


def _check_deploy(tmp_path, environment: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.update(environment, ARBITER_VAR_DIR=str(tmp_path / "var"), MEDIA_ROOT=str(tmp_path / "media"))
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_documented_production_environment_passes_the_deploy_checks(tmp_path):
    many = _exports("README.md", "## Many machines")
    proxy = _exports("docs/deployment.md", "## The site behind its proxy")
    assert {"BEHIND_HTTPS_PROXY", "HSTS_SECONDS", "TRUSTED_PROXIES"} <= set(proxy)
    many["SECRET_KEY"] = secrets.token_urlsafe(50)  # the README's "..." stands for one made so
    result = _check_deploy(tmp_path, {**many, **proxy})
    assert result.returncode == 0 and "no issues" in result.stdout, result.stdout + result.stderr
    without = _check_deploy(tmp_path, many)  # the proxy's settings are what makes it clean
    assert without.returncode != 0
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= set(
        re.findall(r"security\.W\d+", without.stderr + without.stdout)
    )


@pytest.mark.django_db
def test_behind_the_proxy_http_is_redirected_but_the_monitors_paths(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    assert client.get("/").status_code == 301
    assert client.get("/", HTTP_X_FORWARDED_PROTO="https").status_code == 200
    assert client.get("/health/").status_code in (200, 503)  # a monitor asking a host directly
    assert client.get("/metrics").status_code == 200
