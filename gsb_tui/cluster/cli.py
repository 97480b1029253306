"""`gsb-tui cluster up|down|env|status`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gsb_tui.cluster.build import BuildError
from gsb_tui.cluster.control_plane import ClusterError, ControlPlane, Settings
from gsb_tui.cluster.rest import RestError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "cluster",
        help="start/stop a local practice cluster (real Kubernetes 1.36 control plane + kwok)",
    )
    p.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="state directory (default: ~/.local/state/gsb-tui/cluster)",
    )
    csub = p.add_subparsers(dest="cluster_cmd", required=True)
    up = csub.add_parser(
        "up", help="build (first time) and start the cluster, seed the lab objects"
    )
    up.add_argument("--nodes", type=int, default=1, help="fake nodes (default 1)")
    up.add_argument("--devices", type=int, default=8, help="devices per node (default 8)")
    up.add_argument("--node-name", default="lab-node", help="node name (prefix when --nodes > 1)")
    csub.add_parser("build", help="build (or reuse) the control-plane binaries and print where")
    csub.add_parser("down", help="stop exactly the processes `up` started")
    csub.add_parser("env", help="print `export KUBECONFIG=...` for this cluster")
    rec = csub.add_parser(
        "record-lab",
        help="start a temporary cluster, perform the lab with kubectl, record the watch stream",
    )
    rec.add_argument("out", type=Path, help="recording to write (JSON lines)")
    st = csub.add_parser("status", help="which components run and whether the API server is ready")
    st.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    cp = ControlPlane(args.dir)
    try:
        if args.cluster_cmd == "up":
            if args.nodes < 1 or args.devices < 1 or args.devices > 128:
                print(
                    "--nodes must be >= 1 and --devices 1..128 (one slice holds at most 128)",
                    file=sys.stderr,
                )
                return 2
            info = cp.up(
                Settings(nodes=args.nodes, devices=args.devices, node_prefix=args.node_name),
                log=lambda m: print(f"[cluster] {m}", file=sys.stderr, flush=True),
            )
            print(f"export KUBECONFIG={info['kubeconfig']}")
            print(
                "# then: kubectl get resourceslices,deviceclasses; "
                f"gsb-tui --kubeconfig {info['kubeconfig']}",
            )
            return 0
        if args.cluster_cmd == "build":
            from gsb_tui.cluster.build import ensure_binaries

            bins = ensure_binaries(
                log=lambda m: print(f"[cluster] {m}", file=sys.stderr, flush=True)
            )
            print(bins.apiserver.parent)
            print(bins.kwok.parent)
            return 0
        if args.cluster_cmd == "record-lab":
            from gsb_tui.cluster.lab_run import LabRunError, record_lab

            try:
                record_lab(args.out, log=lambda m: print(f"[record] {m}", file=sys.stderr))
            except LabRunError as exc:
                print(f"gsb-tui cluster record-lab: {exc}", file=sys.stderr)
                return 1
            return 0
        if args.cluster_cmd == "down":
            cp.down(log=lambda m: print(f"[cluster] {m}", file=sys.stderr))
            return 0
        if args.cluster_cmd == "env":
            if not cp.kubeconfig.is_file():
                print(
                    f"no practice cluster in {cp.dir}: run `gsb-tui cluster up` first",
                    file=sys.stderr,
                )
                return 1
            print(f"export KUBECONFIG={cp.kubeconfig}")
            return 0
        status = cp.status()
        if args.json:
            print(json.dumps(status, indent=2))
        else:
            for name, pid in status["components"].items():
                print(f"{name:24} {f'running (pid {pid})' if pid else 'stopped'}")
            print(f"{'api server':24} {'ready' if status['api_ready'] else 'not ready'}")
            if status.get("server"):
                print(f"{'server':24} {status['server']}")
                print(f"{'kubeconfig':24} {status['kubeconfig']}")
        return 0 if status["api_ready"] else 1
    except (BuildError, ClusterError) as exc:
        print(f"gsb-tui cluster: {exc}", file=sys.stderr)
        return 1
    except RestError as exc:
        print(f"gsb-tui cluster: the API server refused a request: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "gsb-tui cluster: interrupted; run `gsb-tui cluster down` to stop what started",
            file=sys.stderr,
        )
        return 130
