"""Command line: the dashboard by default, plus `cluster`, `check`, `match` and `record`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gsb_tui import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gsb-tui",
        description="Watch Kubernetes DRA live: slices, devices, claims, pods, the lab checklist.",
    )
    parser.add_argument("--version", action="version", version=f"gsb-tui {__version__}")
    sub = parser.add_subparsers(dest="command")
    from gsb_tui.cluster import cli as cluster_cli

    cluster_cli.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "cluster":
        from gsb_tui.cluster import cli as cluster_cli

        return cluster_cli.run(args)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
