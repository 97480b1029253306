"""The real node's CNI plugin (cluster/nodeparts/cni) against real network namespaces.

The plugin is built here, then driven the way containerd's CRI drives it: env
CNI_* plus a config on stdin. The netns tests need root (`ip netns add`); they
also prove the plugin never touches the host: its link list is the same after.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CLUSTER = Path(__file__).resolve().parents[2] / "cluster"
IS_ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(
    not IS_ROOT, reason="needs root: creates network namespaces with `ip netns add`"
)
NETNS_CONF = {"cniVersion": "1.0.0", "name": "gsb", "type": "gsb-netns"}
# containerd's go-cni loads the loopback network as a 0.3.1 config.
LOOPBACK_CONF = {"cniVersion": "0.3.1", "name": "cni-loopback", "type": "loopback"}


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("go") is None:
        pytest.fail("Go is needed (the node's CNI plugin is built from cluster/nodeparts/cni)")
    out = tmp_path_factory.mktemp("cni") / "gsb-netns"
    proc = subprocess.run(
        ["go", "build", "-trimpath", "-o", str(out), "./nodeparts/cni"],
        cwd=CLUSTER,
        env={**os.environ, "CGO_ENABLED": "0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10, check=check)


def host_links() -> list[tuple[int, str]]:
    return sorted((link["ifindex"], link["ifname"]) for link in json.loads(ip("-j", "link").stdout))


@pytest.fixture
def netns() -> Iterator[tuple[str, str]]:
    """A fresh, uniquely named netns: (name, path). Always deleted afterwards."""
    name = f"gsbtest-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    before = host_links()
    ip("netns", "add", name)
    try:
        yield name, f"/var/run/netns/{name}"
    finally:
        ip("netns", "del", name, check=False)
    assert host_links() == before  # nothing was made or moved on the host


def cni(
    plugin: Path,
    command: str,
    conf: dict[str, Any] | str,
    *,
    netns: str = "",
    ifname: str = "eth0",
    container_id: str = "c0ffee",
) -> tuple[int, dict[str, Any] | None]:
    """Run the plugin once; return its exit code and its JSON output (None if empty)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"),
        "CNI_COMMAND": command,
        "CNI_CONTAINERID": container_id,
        "CNI_NETNS": netns,
        "CNI_IFNAME": ifname,
        "CNI_PATH": str(plugin.parent),
    }
    stdin = conf if isinstance(conf, str) else json.dumps(conf)
    proc = subprocess.run(
        [str(plugin)], input=stdin, env=env, capture_output=True, text=True, timeout=30
    )
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    if proc.returncode != 0:
        assert out is not None and isinstance(out.get("code"), int) and out["msg"], proc.stdout
    return proc.returncode, out


def link_flags(ns: str, dev: str) -> list[str]:
    [link] = json.loads(ip("-n", ns, "-j", "link", "show", "dev", dev).stdout)
    flags: list[str] = link["flags"]
    return flags


@needs_root
def test_loopback_add_brings_lo_up(plugin: Path, netns: tuple[str, str]) -> None:
    name, path = netns
    assert "UP" not in link_flags(name, "lo")
    rc, out = cni(plugin, "ADD", LOOPBACK_CONF, netns=path, ifname="lo")
    assert rc == 0, out
    assert out == {
        "cniVersion": "0.3.1",
        "interfaces": [{"name": "lo", "mac": "00:00:00:00:00:00", "sandbox": path}],
        "ips": [{"version": "4", "address": "127.0.0.1/8", "interface": 0}],
        "dns": {},
    }
    assert "UP" in link_flags(name, "lo")
    assert "inet 127.0.0.1/8" in ip("-n", name, "addr", "show", "dev", "lo").stdout
    assert cni(plugin, "CHECK", {**LOOPBACK_CONF, "cniVersion": "1.0.0"}, netns=path)[0] == 0
    assert cni(plugin, "DEL", LOOPBACK_CONF, netns=path, ifname="lo") == (0, None)


@needs_root
def test_add_check_del(plugin: Path, netns: tuple[str, str]) -> None:
    name, path = netns
    cid = "4f7e" + uuid.uuid4().hex
    rc, out = cni(plugin, "ADD", NETNS_CONF, netns=path, container_id=cid)
    assert rc == 0, out
    assert out is not None and out["cniVersion"] == "1.0.0"
    eth0, peer = out["interfaces"]
    assert eth0["name"] == "eth0" and peer["name"] == "gsbpeer0"
    assert eth0["sandbox"] == peer["sandbox"] == path
    [addr] = out["ips"]
    assert addr["interface"] == 0 and addr["gateway"] == "10.88.0.1"
    iface = ipaddress.ip_interface(addr["address"])
    net = ipaddress.ip_network("10.88.0.0/16")
    assert iface.network == net
    assert iface.ip not in (net.network_address, net.network_address + 1, net.broadcast_address)
    assert out["routes"] == [{"dst": "0.0.0.0/0", "gw": "10.88.0.1"}]

    shown = ip("-n", name, "addr", "show", "dev", "eth0").stdout
    assert f"inet {addr['address']} " in shown
    assert "UP" in link_flags(name, "eth0") and "UP" in link_flags(name, "lo")
    assert "default via 10.88.0.1 dev eth0" in ip("-n", name, "route", "show", "default").stdout

    # The address comes from the container id alone: a retried ADD gives the same.
    assert cni(plugin, "ADD", NETNS_CONF, netns=path, container_id=cid) == (0, out)
    assert cni(
        plugin, "CHECK", {**NETNS_CONF, "prevResult": out}, netns=path, container_id=cid
    ) == (
        0,
        None,
    )
    assert cni(plugin, "CHECK", NETNS_CONF, netns=path, container_id=cid) == (0, None)
    rc, err = cni(plugin, "CHECK", NETNS_CONF, netns=path, container_id=cid + "-other")
    assert rc != 0 and err is not None and "lacks address" in err["msg"]

    assert cni(plugin, "DEL", NETNS_CONF, netns=path, container_id=cid) == (0, None)
    for dev in ("eth0", "gsbpeer0"):
        assert ip("-n", name, "link", "show", "dev", dev, check=False).returncode != 0
    # DEL is idempotent, and CHECK now reports the missing interface.
    assert cni(plugin, "DEL", NETNS_CONF, netns=path, container_id=cid) == (0, None)
    rc, err = cni(plugin, "CHECK", NETNS_CONF, netns=path, container_id=cid)
    assert rc != 0 and err is not None and "does not exist" in err["msg"]


@needs_root
def test_subnet_from_config(plugin: Path, netns: tuple[str, str]) -> None:
    name, path = netns
    conf = {**NETNS_CONF, "subnet": "192.168.77.0/24"}
    seen = set()
    for i in range(5):
        rc, out = cni(plugin, "ADD", conf, netns=path, container_id=f"pod-{i}")
        assert rc == 0, out
        assert out is not None
        iface = ipaddress.ip_interface(out["ips"][0]["address"])
        assert iface.network == ipaddress.ip_network("192.168.77.0/24")
        assert 2 <= int(iface.ip) - int(iface.network.network_address) <= 253
        assert out["ips"][0]["gateway"] == "192.168.77.1"
        seen.add(iface.ip)
        assert cni(plugin, "DEL", conf, netns=path, container_id=f"pod-{i}") == (0, None)
        assert ip("-n", name, "link", "show", "dev", "eth0", check=False).returncode != 0
    assert len(seen) > 1  # the id really picks the address


@needs_root
def test_gone_netns(plugin: Path, tmp_path: Path) -> None:
    missing = f"/var/run/netns/gsbtest-missing-{uuid.uuid4().hex[:8]}"
    # DEL succeeds when the sandbox's netns (or CNI_NETNS itself) is gone.
    assert cni(plugin, "DEL", NETNS_CONF, netns=missing) == (0, None)
    assert cni(plugin, "DEL", NETNS_CONF, netns="") == (0, None)
    rc, err = cni(plugin, "ADD", NETNS_CONF, netns=missing)
    assert rc != 0 and err is not None and err["code"] == 3
    plain = tmp_path / "not-a-netns"
    plain.write_text("")
    rc, err = cni(plugin, "ADD", NETNS_CONF, netns=str(plain))
    assert rc != 0 and err is not None and err["code"] == 4


def test_version_and_config_errors(plugin: Path) -> None:
    rc, out = cni(plugin, "VERSION", {"cniVersion": "1.0.0"})
    assert rc == 0 and out is not None
    assert out["cniVersion"] == "1.0.0"
    assert {"0.3.1", "0.4.0", "1.0.0"} <= set(out["supportedVersions"])
    assert cni(plugin, "VERSION", "")[0] == 0
    assert cni(plugin, "STATUS", {**NETNS_CONF, "cniVersion": "1.1.0"}) == (0, None)

    def code(command: str, conf: dict[str, Any] | str, **kw: str) -> int:
        rc, err = cni(plugin, command, conf, **kw)
        assert rc != 0 and err is not None
        return int(err["code"])

    assert code("ADD", {**NETNS_CONF, "cniVersion": "9.9.9"}, netns="/x") == 1
    assert code("ADD", "{not json", netns="/x") == 6
    assert code("ADD", NETNS_CONF, netns="") == 4  # CNI_NETNS is required for ADD
    assert code("ADD", {**NETNS_CONF, "subnet": "10.0.0.0/31"}, netns="/x") == 7
    assert code("ADD", {**NETNS_CONF, "subnet": "fd00::/64"}, netns="/x") == 7
    assert code("FROB", NETNS_CONF, netns="/x") == 4
