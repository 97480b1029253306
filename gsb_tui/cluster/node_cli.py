"""The command-line side of the real node: `up --real-node` and `cluster health`.

`health` pins a device's health the way dra-example-driver v0.5.0 does with annotations on
its pod: here an annotation `health.example.com/<device>` on the real node's Node object,
which the practice driver reads every second and streams to the kubelet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gsb_tui.words import text

HEALTH_PREFIX = "health.example.com/"
HEALTH_STATES = ("healthy", "unhealthy", "unknown")


def add_up_args(up: argparse.ArgumentParser) -> None:
    up.add_argument(
        "--real-node",
        action="store_true",
        help="also run one real node (kubelet, containerd, the practice DRA driver; root only): "
        "pods there run for real, with CDI env and device health (kwok nodes default to 0)",
    )


def add_build_args(build: argparse.ArgumentParser) -> None:
    build.add_argument(
        "--real-node",
        action="store_true",
        help="also build what the real node runs (kubelet, containerd, practice driver, images)",
    )


def add_health_parser(csub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    health = csub.add_parser(
        "health",
        help="set a real-node device's health as the practice driver reports it to the kubelet",
    )
    health.add_argument("device", help="device name on the real node, e.g. gpu-3")
    health.add_argument("state", choices=HEALTH_STATES)


def annotation_patch(device: str, state: str) -> dict[str, Any]:
    """The Node patch: healthy removes the pin (the driver's default is healthy)."""
    value = None if state == "healthy" else state
    return {"metadata": {"annotations": {HEALTH_PREFIX + device: value}}}


def run_health(args: argparse.Namespace, cp: Any, lang: str) -> int:
    """`cp`: the ControlPlane of --dir (its cluster.json says which node is real)."""
    info = cp.info()
    node = (info.get("real_node") or {}).get("name")
    if not node:
        print(text(lang, "cluster.no-real-node"), file=sys.stderr)
        return 1
    devices = int(info.get("devices_per_node") or 0)
    known = {f"gpu-{i}" for i in range(devices)}
    if args.device not in known:
        print(
            text(lang, "cluster.health-unknown-device", device=args.device, node=node),
            file=sys.stderr,
        )
        return 64  # EX_USAGE: the command line names no device of the node
    cp.rest().request("PATCH", f"/api/v1/nodes/{node}", annotation_patch(args.device, args.state))
    print(text(lang, "cluster.health-set", device=args.device, node=node, state=args.state))
    return 0


def build_node(release: str, log: Any) -> Path:
    from gsb_tui.cluster.node_build import ensure_node_binaries

    return ensure_node_binaries(log=log, release=release).kubelet.parent
