"""Command line: the dashboard by default, plus `cluster`, `check`, `match` and `record`.

Heavy imports (Textual, the Kubernetes client, CEL) happen inside the branch that needs them,
so `--help`, `check` and `cluster` start fast.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from gsb_tui import __version__
from gsb_tui.words import LANGS, choose_lang, text

DEFAULT_LAB_DIR = Path("/root/gsb-dra")
EXIT_UNREACHABLE = 2


def demo_recording() -> Path:
    """The recording --demo replays: shipped in the wheel, or the test fixture in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (
        here / "data" / "lab.jsonl",
        here.parent / "tests" / "fixtures" / "lab.jsonl",
    ):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(text("en", "cli.no-demo"))


def add_target_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--kubeconfig",
        type=Path,
        default=None,
        help="kubeconfig file (default: $KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml)",
    )
    p.add_argument("--context", default=None, help="kubeconfig context (default: current)")
    p.add_argument("-n", "--namespace", default="dra-lab", help="lab namespace (default dra-lab)")
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=argparse.SUPPRESS,  # a subcommand's absent --lang must not hide the main one
        help="language of what gsb-tui says (default from LC_ALL, LC_MESSAGES, LANG)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gsb-tui",
        description="Watch Kubernetes DRA live: slices, devices, claims, pods, the lab checklist.",
    )
    parser.add_argument("--version", action="version", version=f"gsb-tui {__version__}")
    add_target_args(parser)
    parser.add_argument(
        "--lab-dir",
        type=Path,
        default=DEFAULT_LAB_DIR,
        help=f"the learner's answer files (default {DEFAULT_LAB_DIR})",
    )
    parser.add_argument(
        "--demo",
        nargs="?",
        const="",
        default=None,
        metavar="RECORDING",
        help="replay a recording made on a real cluster (default: the lab)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="demo replay speed (2 = twice as fast, 0 = instant)",
    )
    sub = parser.add_subparsers(dest="command")

    from gsb_tui.cluster import cli as cluster_cli

    cluster_cli.add_parser(sub)

    check = sub.add_parser("check", help="judge the lab steps once and print the verdicts")
    add_target_args(check)
    check.add_argument("--lab-dir", type=Path, default=DEFAULT_LAB_DIR)
    check.add_argument(
        "--step",
        type=int,
        action="append",
        choices=range(1, 9),
        metavar="N",
        help="only this step (repeatable)",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")

    match = sub.add_parser("match", help="which devices a CEL selector admits, one line each")
    add_target_args(match)
    match.add_argument(
        "expression", help="CEL, e.g. \"device.attributes['gpu.example.com'].index == 7\""
    )
    match.add_argument(
        "--class", dest="device_class", default=None, help="also apply this DeviceClass's selectors"
    )

    record = sub.add_parser("record", help="record the live watch stream to a file (Ctrl-C stops)")
    add_target_args(record)
    record.add_argument("out", type=Path)
    return parser


def _target(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from gsb_tui.kube.config import Target

    return Target(kubeconfig=args.kubeconfig, context=args.context, namespace=args.namespace)


def run_dashboard(args: argparse.Namespace, lang: str) -> int:
    from gsb_tui.kube.source import ChangeSource, ReplaySource

    source: ChangeSource
    if args.demo is not None:
        try:
            path = Path(args.demo) if args.demo else demo_recording()
        except FileNotFoundError:
            print(f"gsb-tui: {text(lang, 'cli.no-demo')}", file=sys.stderr)
            return 1
        if not path.is_file():
            print(f"gsb-tui: {text(lang, 'cli.no-recording', path=path)}", file=sys.stderr)
            return 1
        speed = max(0.0, args.speed)
        # Speed 0 jumps to the end and holds it; looping instantly would only burn CPU.
        source = ReplaySource(path, speed=speed, loop=speed > 0, mark_pause=2.0)
    else:
        from gsb_tui.kube.live import LiveSource

        source = LiveSource(_target(args))
    from gsb_tui.ui.run import run_dashboard as run_ui

    return run_ui(source, args.lab_dir, lang)


def run_record(args: argparse.Namespace, lang: str) -> int:
    from gsb_tui.kube.live import LiveSource
    from gsb_tui.kube.recording import Recorder

    source = LiveSource(_target(args))
    if source.config_error:
        print(f"gsb-tui record: {source.config_error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    try:
        with args.out.open("w", encoding="utf-8") as fh:
            recorder = Recorder(fh)
            words = text(lang, "cli.recording", server=source.info.server, path=args.out)
            print(words, file=sys.stderr)
            asyncio.run(source.run(recorder.write))
    except KeyboardInterrupt:
        print(text(lang, "cli.saved", path=args.out), file=sys.stderr)
    except OSError as exc:
        words = text(lang, "cli.cannot-write", path=args.out, error=exc.strerror)
        print(f"gsb-tui record: {words}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    lang = choose_lang(getattr(args, "lang", None))  # the one place the language is chosen
    try:
        if args.command == "cluster":
            from gsb_tui.cluster import cli as cluster_cli

            return cluster_cli.run(args, lang)
        if args.command == "check":
            from gsb_tui.check_cli import run_check

            return run_check(args, _target(args), lang)
        if args.command == "match":
            from gsb_tui.match_cli import run_match

            return run_match(args, _target(args), lang)
        if args.command == "record":
            return run_record(args, lang)
        return run_dashboard(args, lang)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
