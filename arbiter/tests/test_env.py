"""The typed environment readers and the one-line report of a bad value."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.env import ConfigError, env_bool, env_int, env_list, env_networks, env_range, env_rate, env_str, secret_key

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False), ("", False)]
)
def test_env_bool_reads_the_usual_words(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", not expected) is expected


def test_env_bool_refuses_anything_else(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ConfigError, match="X_FLAG='maybe' is not a boolean"):
        env_bool("X_FLAG", False)


def test_env_int_checks_type_and_bounds(monkeypatch):
    assert env_int("X_NUM", 7) == 7
    monkeypatch.setenv("X_NUM", " 42 ")
    assert env_int("X_NUM", 7) == 42
    monkeypatch.setenv("X_NUM", "4x")
    with pytest.raises(ConfigError, match="X_NUM='4x' is not an integer"):
        env_int("X_NUM", 7)
    monkeypatch.setenv("X_NUM", "0")
    with pytest.raises(ConfigError, match="below the minimum of 1"):
        env_int("X_NUM", 7, minimum=1)
    monkeypatch.setenv("X_NUM", "70000")
    with pytest.raises(ConfigError, match="above the maximum of 65535"):
        env_int("X_NUM", 7, maximum=65535)


def test_env_range_reads_min_dot_dot_max_the_least_first(monkeypatch):
    assert env_range("X_BOUND", (1, 100)) == (1, 100)
    monkeypatch.setenv("X_BOUND", " 0.5..600 ")
    assert env_range("X_BOUND", (1.0, 2.0), whole=False) == (0.5, 600.0)
    monkeypatch.setenv("X_BOUND", "-10..10")
    assert env_range("X_BOUND", (1, 2)) == (-10, 10)
    for raw, said in [
        ("0.5..600", "X_BOUND='0.5..600' is not MIN..MAX of whole numbers"),
        ("600", "X_BOUND='600' is not MIN..MAX"),
        ("10..1", "X_BOUND='10..1' is not MIN..MAX with MIN at most MAX"),
        ("1..inf", "X_BOUND='1..inf' is not MIN..MAX"),
    ]:
        monkeypatch.setenv("X_BOUND", raw)
        with pytest.raises(ConfigError, match=re.escape(said)):
            env_range("X_BOUND", (1, 100), whole=raw != "1..inf")


def test_env_list_splits_on_commas_and_drops_blanks(monkeypatch):
    monkeypatch.setenv("X_LIST", "a.example, b.example,,")
    assert env_list("X_LIST", []) == ["a.example", "b.example"]


def test_env_rate_reads_requests_a_period(monkeypatch):
    assert env_rate("X_RATE", "600/min") == (600, 60)
    for raw, expected in [("10/s", (10, 1)), ("5 / hour", (5, 3600)), ("1000/day", (1000, 86400)), ("", (600, 60))]:
        monkeypatch.setenv("X_RATE", raw)
        assert env_rate("X_RATE", "600/min") == expected
    for raw in ("0/min", "600", "600/fortnight", "-1/s"):
        monkeypatch.setenv("X_RATE", raw)
        with pytest.raises(ConfigError, match="is not a rate such as 600/min"):
            env_rate("X_RATE", "600/min")


def test_env_networks_reads_addresses_and_networks(monkeypatch):
    assert env_networks("X_NETS") == []
    monkeypatch.setenv("X_NETS", "10.0.0.5, 10.1.2.3/16,fd00::/8")
    assert env_networks("X_NETS") == ["10.0.0.5/32", "10.1.0.0/16", "fd00::/8"]


def test_env_str_without_default_is_required(monkeypatch):
    monkeypatch.delenv("X_REQUIRED", raising=False)
    with pytest.raises(ConfigError, match="X_REQUIRED is not set"):
        env_str("X_REQUIRED")


def test_a_value_can_come_from_a_file(monkeypatch, tmp_path):
    (tmp_path / "secret").write_text("from-a-file\n")
    monkeypatch.setenv("X_SECRET_FILE", str(tmp_path / "secret"))
    assert env_str("X_SECRET") == "from-a-file"
    monkeypatch.setenv("X_SECRET_FILE", str(tmp_path / "absent"))
    with pytest.raises(ConfigError, match="X_SECRET_FILE=.*cannot read it"):
        env_str("X_SECRET")


def test_secret_key_is_generated_once_and_kept_private(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = secret_key(tmp_path)
    assert len(first) >= 50
    assert secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_a_short_secret_key_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "short")
    with pytest.raises(ConfigError, match="shorter than 32"):
        secret_key(tmp_path)


@pytest.mark.parametrize(
    ("var", "value", "message"),
    [
        ("DEBUG", "perhaps", "DEBUG='perhaps' is not a boolean"),
        ("PORT", "eighty", "PORT='eighty' is not an integer"),
        ("DATABASE_URL", "mysql://u@h/db", "Arbiter supports sqlite:// and postgres://"),
        ("CELERY_BROKER_URL", "amqp://localhost//", "use filesystem:// or redis://"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL='LOUD' is not one of"),
        ("API_RATE_LIMIT", "lots", "API_RATE_LIMIT='lots' is not a rate such as 600/min"),
        ("TRUSTED_PROXIES", "10.0.0.5, the-proxy", "TRUSTED_PROXIES: 'the-proxy' is not an IP address or network"),
    ],
)
def test_manage_py_reports_a_bad_value_in_one_line(tmp_path, var, value, message):
    env = dict(os.environ, ARBITER_VAR_DIR=str(tmp_path), **{var: value})
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("arbiter: configuration error: ")
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_blank_integer_is_its_default_and_the_slots_default_to_the_cores_at_least_five(monkeypatch):
    import os

    from arbiter.env import env_int

    monkeypatch.setenv("SOME_COUNT", "  ")
    assert env_int("SOME_COUNT", 7) == 7
    code = "from django.conf import settings; print(settings.SANDBOX_SLOTS)"
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "SANDBOX_SLOTS"}
    for value, expected in (("", max(5, len(os.sched_getaffinity(0)))), ("7", 7)):
        out = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {code}"],
            env={**env, "DJANGO_SETTINGS_MODULE": "arbiter.settings", "SANDBOX_SLOTS": value},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == str(expected)
