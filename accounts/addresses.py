"""The address a request came from: the one answer that log-in lockouts (django-axes), the event
streams' caps, the rate limits and the logs all use.

``X-Forwarded-For`` is written by whoever sends the request, so it is read only when the peer
(the connection's own address) is one of ``TRUSTED_PROXIES``; by default none is, and the
address is the peer's. Behind trusted proxies the header is read from the right, each proxy
having added the address it was reached from: the first address that is not a trusted proxy is
the client's. Whatever a client writes further left is never reached.

The web server must not rewrite the peer from the header itself: gunicorn runs
``arbiter.web_server.Worker``, uvicorn's worker with its proxy headers off.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_address(text: str) -> Address | None:
    """An address as a header or a server writes it (``1.2.3.4``, ``1.2.3.4:5678``, ``::1``,
    ``[::1]:80``), an IPv4-mapped IPv6 address as its IPv4 one; None if it is not one."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:  # IPv4 with a port; IPv6 has at least two colons
        text = text.split(":", 1)[0]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted_networks(entries: Iterable[str] | None = None) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` (addresses and networks, e.g. ``10.0.0.5``, ``10.1.0.0/16``) as networks."""
    return _networks(tuple(settings.TRUSTED_PROXIES if entries is None else entries))


def _is_trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def client_address(request) -> str:
    """The client's address (see the module's docstring); the peer's if no proxy is trusted."""
    peer_text = request.META.get("REMOTE_ADDR") or ""
    networks = trusted_networks()
    peer = parse_address(peer_text)
    if not networks or peer is None or not _is_trusted(peer, networks):
        return str(peer) if peer is not None else peer_text
    nearest = peer  # the nearest hop known to be true so far
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        if not hop.strip():
            continue
        found = parse_address(hop)
        if found is None:
            break  # a trusted proxy wrote something that is no address: stop at the proxy
        if not _is_trusted(found, networks):
            return str(found)
        nearest = found
    return str(nearest)
