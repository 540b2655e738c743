"""Hosts for the many-machines tests, made on this machine: each host a network namespace of
its own (and a host name of its own for what runs in it), joined to the others by veth pairs
on one bridge, the test's own network. What runs on a host reaches the others only over that
network; the bridge's own address is the test itself (the web host, as it were).

Needs root and iproute2 (``ip netns``, veth, bridge): CI has both.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@dataclass
class Host:
    name: str  # also its host name, as the programs on it see it
    netns: str
    address: str
    link: str  # its end of the cable, on the bridge's side

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run on this host: in its network namespace, under its own host name. Not
        ``ip netns exec``, which mounts a /sys of its own and so hides the cgroup folders the
        sandbox needs (a host's /sys is its own, cgroups included)."""
        return [
            "nsenter", f"--net=/run/netns/{self.netns}",
            "unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', self.name, *argv,
        ]  # fmt: skip


@dataclass
class Network:
    bridge: str
    gateway: str  # the test's own address on the network
    hosts: dict[str, Host] = field(default_factory=dict)

    def unplug(self, name: str) -> None:
        """Cut a host off the network (its processes run on, reaching nobody)."""
        _ip("link", "set", self.hosts[name].link, "down")

    def plug(self, name: str) -> None:
        _ip("link", "set", self.hosts[name].link, "up")


def _forward(bridge: str, action: str) -> None:
    """Let the bridge's hosts reach each other where bridged traffic passes the firewall's
    FORWARD chain (br_netfilter loaded, as on a host running Docker, whose policy drops it):
    insert the rule (``-I``) or delete it (``-D``). Nothing where there is no iptables."""
    if shutil.which("iptables") is None:
        return
    subprocess.run(
        ["iptables", action, "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT"],
        capture_output=True,
        timeout=30,
        check=False,
    )


def available() -> bool:
    return all(shutil.which(tool) for tool in ("ip", "nsenter", "unshare"))


@contextlib.contextmanager
def network(names: list[str]) -> Iterator[Network]:
    """A bridge and one host per name, removed after."""
    tag = uuid.uuid4().hex[:6]
    # In 198.18.0.0/15, set aside for testing networks (RFC 2544): no real route to collide with.
    subnet = f"198.{random.randint(18, 19)}.{random.randint(0, 255)}"
    net = Network(bridge=f"arb{tag}", gateway=f"{subnet}.1")
    try:
        _ip("link", "add", net.bridge, "type", "bridge")
        _ip("addr", "add", f"{net.gateway}/24", "dev", net.bridge)
        _ip("link", "set", net.bridge, "up")
        _forward(net.bridge, "-I")
        for n, name in enumerate(names, start=10):
            host = Host(name, f"arb-{tag}-{name}", f"{subnet}.{n}", f"v{tag}{n}")
            peer = f"p{tag}{n}"
            _ip("netns", "add", host.netns)
            net.hosts[name] = host  # from here on, removed at the end
            _ip("link", "add", host.link, "type", "veth", "peer", "name", peer)
            _ip("link", "set", peer, "netns", host.netns)
            _ip("link", "set", host.link, "master", net.bridge, "up")
            _ip("-n", host.netns, "addr", "add", f"{host.address}/24", "dev", peer)
            _ip("-n", host.netns, "link", "set", peer, "up")
            _ip("-n", host.netns, "link", "set", "lo", "up")
        yield net
    finally:
        for host in net.hosts.values():
            with contextlib.suppress(subprocess.SubprocessError):
                _ip("netns", "delete", host.netns)  # takes its end of the veth pair with it
            with contextlib.suppress(subprocess.SubprocessError):
                _ip("link", "delete", host.link)
        with contextlib.suppress(subprocess.SubprocessError):
            _ip("link", "delete", net.bridge)
        _forward(net.bridge, "-D")
