"""The command-line side of profiles: `up --profile …` options and `binding-driver`."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import urllib.parse
from types import FrameType
from typing import Any

from gsb_tui.cluster import profiles
from gsb_tui.cluster.releases import DEFAULT_RELEASE
from gsb_tui.words import text

MAX_PARTITIONS = 16


def add_up_args(up: argparse.ArgumentParser) -> None:
    up.add_argument(
        "--profile",
        default=",".join(profiles.DEFAULT),
        metavar="NAME[,NAME…]",
        help=f"what to seed and enable: {', '.join(profiles.PROFILES)} (default lab; "
        "combine with commas; docs/CLUSTER.md says what each one adds)",
    )
    up.add_argument(
        "--partitions",
        type=int,
        default=2,
        help=f"partitions per GPU for the partitions profile (1..{MAX_PARTITIONS}, default 2)",
    )
    up.add_argument(
        "--binding-delay",
        type=float,
        default=2.0,
        metavar="S",
        help="binding profile: seconds before the practice driver answers (default 2)",
    )
    up.add_argument(
        "--binding-fail",
        action="store_true",
        help="binding profile: the practice driver sets the failure condition instead",
    )


def add_driver_parser(csub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    drv = csub.add_parser(
        "binding-driver",
        help="the binding profile's practice driver (`up` starts it; runs until stopped)",
    )
    drv.add_argument("--delay", type=float, default=2.0, help="seconds before answering")
    drv.add_argument("--fail", action="store_true", help="set the failure condition instead")


def settings_from(args: argparse.Namespace) -> dict[str, Any]:
    """Settings fields from `up`'s options; raises ProfileError with a message for the user."""
    chosen = profiles.parse(args.profile)
    profiles.check_release(chosen, getattr(args, "kube", None) or DEFAULT_RELEASE)
    if not 1 <= args.partitions <= MAX_PARTITIONS:
        raise profiles.ProfileError(f"--partitions must be 1..{MAX_PARTITIONS}")
    if args.binding_delay < 0:
        raise profiles.ProfileError("--binding-delay must be >= 0")
    return {
        "profiles": chosen,
        "partitions": args.partitions,
        "binding_delay": args.binding_delay,
        "binding_fail": args.binding_fail,
    }


def run_binding_driver(args: argparse.Namespace) -> int:
    """Run the practice driver against the cluster in --dir until SIGTERM or Ctrl-C."""
    from gsb_tui.cluster.binding_driver import BindingDriver
    from gsb_tui.cluster.control_plane import ControlPlane

    cp = ControlPlane(args.dir)
    if not cp.kubeconfig.is_file():
        print(f"binding-driver: {text('en', 'cluster.none-in', dir=cp.dir)}", file=sys.stderr)
        return 1
    rest = cp.rest()
    host = urllib.parse.urlsplit(rest.server).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):  # ours listens on loopback only
        words = text("en", "cluster.not-practice", server=rest.server)
        print(f"binding-driver: {words}", file=sys.stderr)
        return 1
    stop = threading.Event()

    def on_signal(_sig: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    driver = BindingDriver(
        rest, delay=max(0.0, args.delay), fail=args.fail, log=lambda m: print(m, flush=True)
    )
    driver.run(stop)
    return 0
