"""The files around the code: .env.example, docker/, the Procfile."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _variables_read_by_the_code() -> set[str]:
    names = set()
    for path in [ROOT / "arbiter" / "settings.py"]:
        names |= set(re.findall(r'env_\w+\("([A-Z_]+)"', path.read_text()))
    names |= {"SECRET_KEY"}
    for path in [ROOT / "scripts" / "run.sh", ROOT / "Procfile"]:
        names |= set(re.findall(r"\$\{?([A-Z][A-Z_]+)", path.read_text()))
    return names


def test_env_example_documents_every_variable():
    documented = set(re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    missing = _variables_read_by_the_code() - documented
    assert not missing, f"not in .env.example: {sorted(missing)}"


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker" / "compose.yml").read_text())


def test_compose_has_the_services_and_a_scalable_worker():
    services = _compose()["services"]
    assert {"postgres", "redis", "web", "worker"} <= set(services)
    worker = services["worker"]
    assert "container_name" not in worker and "ports" not in worker  # --scale worker=N needs both absent
    assert worker["privileged"] is True
    env = worker["environment"]
    assert env["DATABASE_URL"].startswith("postgres://")
    assert env["CELERY_BROKER_URL"].startswith("redis://")
    assert "builds,matches,races,default" in worker["command"]


def test_dockerfile_installs_the_jail():
    assert "bubblewrap" in (ROOT / "docker" / "Dockerfile").read_text()


def _has_docker_compose() -> bool:
    if not shutil.which("docker"):
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_docker_compose(), reason="the docker client here has no compose plugin")
def test_docker_compose_accepts_the_file():
    result = subprocess.run(
        ["docker", "compose", "-f", "docker/compose.yml", "config", "--quiet"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "SECRET_KEY": "x" * 40, "POSTGRES_PASSWORD": "pw"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_procfile_runs_web_and_worker():
    lines = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    assert "gunicorn arbiter.asgi:application --worker-class arbiter.web_server.Worker" in lines["web"]
    assert "celery -A arbiter worker" in lines["worker"]


def _system_deps(tmp_path, uid: int, *args: str) -> tuple[subprocess.CompletedProcess, str]:
    """scripts/system-deps.sh on a machine that has everything `make run` needs but nothing the tests add,
    as user ``uid``; apt-get only records what it was asked."""
    shims = tmp_path / "bin"
    shims.mkdir(exist_ok=True)
    if not (shims / "python3").exists():
        (shims / "python3").symlink_to(sys.executable)
    tools = {name: "#!/bin/sh\nexit 0\n" for name in ("bwrap", "gcc", "g++", "make")}
    tools["id"] = f"#!/bin/sh\necho {uid}\n"
    tools["apt-get"] = f'#!/bin/sh\necho "$*" >> {tmp_path / "apt.log"}\n'
    for name, text in tools.items():
        (shims / name).write_text(text)
        (shims / name).chmod(0o755)
    result = subprocess.run(
        ["/bin/bash", str(ROOT / "scripts" / "system-deps.sh"), *args],
        env={"PATH": str(shims)}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    log = tmp_path / "apt.log"
    return result, log.read_text() if log.exists() else ""


def test_system_deps_installs_the_browser_and_servers_for_the_tests_only(tmp_path):
    result, apt = _system_deps(tmp_path, 0)
    assert result.returncode == 0 and apt == ""  # `make run` needs no browser
    result, apt = _system_deps(tmp_path, 0, "test")
    assert result.returncode == 0, result.stderr
    assert apt.splitlines() == [
        "update -qq",
        "install -y -qq chromium rustc postgresql redis-server iproute2 util-linux gettext",
    ]


def test_system_deps_prints_the_apt_get_line_when_not_root(tmp_path):
    result, apt = _system_deps(tmp_path, 1000, "test")
    assert result.returncode == 1 and apt == ""
    assert "sudo apt-get install -y chromium rustc postgresql redis-server iproute2 util-linux gettext" in result.stderr


def test_make_test_installs_what_the_tests_need():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test: test-deps ", makefile, re.M)
    assert re.search(r"^test-deps:\n\t\./scripts/system-deps\.sh test$", makefile, re.M)
