"""`gsb-tui cluster up|down|env|status|build|record-lab|record-profile`.

What a person reads is worded from the catalog (`cluster.*`) in the language gsb_tui.cli chose;
what a script reads (`export KUBECONFIG=...`, paths, --json) is the same in every language.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

from gsb_tui.cluster import node_cli, profile_cli, profiles
from gsb_tui.cluster.releases import DEFAULT_RELEASE, RELEASES
from gsb_tui.words import localize, text

STATUS_COLUMN = 24  # the width of the first column of `status`, in terminal cells


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
    up.add_argument(
        "--nodes", type=int, default=None, help="fake (kwok) nodes (default 1; 0 with --real-node)"
    )
    up.add_argument("--devices", type=int, default=8, help="devices per node (default 8)")
    up.add_argument("--node-name", default="lab-node", help="node name (prefix when --nodes > 1)")
    up.add_argument(
        "--kube", choices=sorted(RELEASES), default=DEFAULT_RELEASE, help="Kubernetes release"
    )
    profile_cli.add_up_args(up)
    node_cli.add_up_args(up)
    build = csub.add_parser(
        "build", help="build (or reuse) the control-plane binaries and print where"
    )
    build.add_argument(
        "--kube",
        choices=[*sorted(RELEASES), "all"],
        default=DEFAULT_RELEASE,
        help="Kubernetes release (all: every one)",
    )
    node_cli.add_build_args(build)
    node_cli.add_health_parser(csub)
    csub.add_parser("down", help="stop exactly the processes `up` started")
    csub.add_parser("env", help="print `export KUBECONFIG=...` for this cluster")
    profile_cli.add_driver_parser(csub)
    rec = csub.add_parser(
        "record-lab",
        help="start a temporary cluster, perform the lab with kubectl, record the watch stream",
    )
    rec.add_argument("out", type=Path, help="recording to write (JSON lines)")
    rec.add_argument(
        "--real-node",
        action="store_true",
        help="on a real node (root): also CDI env, device health and a prepare failure",
    )
    prof = csub.add_parser(
        "record-profile",
        help="start a temporary cluster with a profile, show its feature with kubectl, record it",
    )
    prof.add_argument(
        "name",
        choices=[*profiles.PROFILES, "operator"],
        help="the profile to show (operator: a 40-node, 960-device cluster, filled)",
    )
    prof.add_argument("out", type=Path, help="recording to write (JSON lines)")
    prof.add_argument(
        "--binding-fail",
        action="store_true",
        help="binding: the practice driver reports failure (the scheduler gives the device back)",
    )
    st = csub.add_parser("status", help="which components run and whether the API server is ready")
    st.add_argument("--json", action="store_true")


def _progress(tag: str, lang: str) -> Callable[[str], None]:
    """A log for the cluster's progress lines: on stderr, in `lang` when they are catalog Texts."""

    def log(message: str) -> None:
        print(f"[{tag}] {localize(message, lang)}", file=sys.stderr, flush=True)

    return log


def _cells(value: str) -> int:
    """Terminal cells `value` takes (Hangul and other wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in value)


def _row(label: str, value: str) -> str:
    """One `status` line: the label padded to STATUS_COLUMN cells, a space, the value."""
    return f"{label}{' ' * max(0, STATUS_COLUMN - _cells(label))} {value}"


def run(args: argparse.Namespace, lang: str) -> int:
    # Here, not at the top: every command builds the parser from this module, and the control
    # plane's imports (cryptography for the PKI) cost `check` and `--help` ~0.1 s.
    from gsb_tui.cluster.build import BuildError
    from gsb_tui.cluster.control_plane import ClusterError, ControlPlane, Settings
    from gsb_tui.cluster.real_node import NodeError
    from gsb_tui.cluster.rest import RestError

    cp = ControlPlane(args.dir)
    log = _progress("cluster", lang)
    try:
        if args.cluster_cmd == "up":
            if args.nodes is None:
                args.nodes = 0 if args.real_node else 1
            low = 0 if args.real_node else 1
            if args.nodes < low or args.devices < 1 or args.devices > 128:
                print(text(lang, "cluster.bad-sizes"), file=sys.stderr)
                return 64  # EX_USAGE (cli_io.EXIT_USAGE): the command line is wrong
            try:
                chosen = profile_cli.settings_from(args)
            except ValueError as exc:  # profiles.ProfileError: says what is accepted
                print(f"gsb-tui cluster up: {exc}", file=sys.stderr)
                return 64  # EX_USAGE, as above
            info = cp.up(
                Settings(
                    nodes=args.nodes,
                    devices=args.devices,
                    node_prefix=args.node_name,
                    kube=args.kube,
                    real_node=args.real_node,
                    **chosen,
                ),
                log=log,
            )
            print(f"export KUBECONFIG={info['kubeconfig']}")
            print(text(lang, "cluster.then", kubeconfig=info["kubeconfig"]))
            return 0
        if args.cluster_cmd == "build":
            from gsb_tui.cluster.build import ensure_binaries, ensure_oracle

            releases = sorted(RELEASES) if args.kube == "all" else [args.kube]
            for release in releases:
                bins = ensure_binaries(log=log, release=release)
                print(bins.apiserver.parent)
                if args.real_node:
                    node_cli.build_node(release, log)
            print(bins.kwok.parent)
            oracle = ensure_oracle(log=log)  # the tests' allocation oracle, from the same module
            print(oracle.parent)
            return 0
        if args.cluster_cmd == "record-lab":
            from gsb_tui.cluster.lab_run import LabRunError, record_lab

            try:
                if args.real_node:
                    from gsb_tui.cluster.node_run import record_real_node_lab

                    record_real_node_lab(args.out, log=_progress("record", lang))
                else:
                    record_lab(args.out, log=_progress("record", lang))
            except LabRunError as exc:
                print(f"gsb-tui cluster record-lab: {exc}", file=sys.stderr)
                return 1
            return 0
        if args.cluster_cmd == "record-profile":
            from gsb_tui.cluster.lab_run import LabRunError
            from gsb_tui.cluster.profile_run import record_profile

            try:
                record_profile(
                    args.name, args.out, args.binding_fail, log=_progress("record", lang)
                )
            except LabRunError as exc:
                print(f"gsb-tui cluster record-profile: {exc}", file=sys.stderr)
                return 1
            return 0
        if args.cluster_cmd == "health":
            return node_cli.run_health(args, cp, lang)
        if args.cluster_cmd == "binding-driver":
            return profile_cli.run_binding_driver(args)
        if args.cluster_cmd == "down":
            cp.down(log=log)
            return 0
        if args.cluster_cmd == "env":
            if not cp.kubeconfig.is_file():
                print(text(lang, "cluster.no-cluster", dir=cp.dir), file=sys.stderr)
                return 1
            print(f"export KUBECONFIG={cp.kubeconfig}")
            return 0
        status = cp.status()
        if args.json:
            print(json.dumps(status, indent=2))
        else:
            for name, pid in status["components"].items():
                state = (
                    text(lang, "cluster.status.running", pid=pid)
                    if pid
                    else text(lang, "cluster.status.stopped")
                )
                print(_row(name, state))
            ready = "cluster.status.ready" if status["api_ready"] else "cluster.status.not-ready"
            print(_row(text(lang, "cluster.status.api-server"), text(lang, ready)))
            if status.get("server"):
                print(_row(text(lang, "cluster.status.server"), status["server"]))
                print(_row("kubeconfig", status["kubeconfig"]))
        return 0 if status["api_ready"] else 1
    except (BuildError, ClusterError, NodeError) as exc:
        # A worded error (the state lock's) carries both languages in its first argument.
        said = exc.args[0] if len(exc.args) == 1 else str(exc)
        print(f"gsb-tui cluster: {localize(said, lang)}", file=sys.stderr)
        return 1
    except RestError as exc:
        print(f"gsb-tui cluster: {text(lang, 'cluster.refused', error=exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"gsb-tui cluster: {text(lang, 'cluster.interrupted')}", file=sys.stderr)
        return 130
