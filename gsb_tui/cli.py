"""Command line: the dashboard by default, plus `cluster`, `check`, `match` and `record`.

Heavy imports (Textual, the Kubernetes client, CEL) happen inside the branch that needs them,
so `--help`, `check` and `cluster` start fast.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, NoReturn, cast

from gsb_tui import __version__
from gsb_tui.allocator import fix_mmap_threshold
from gsb_tui.cli_io import EXIT_INTERRUPTED, EXIT_USAGE, finish, guarded_stdio
from gsb_tui.words import LANGS, choose_lang, text

DEFAULT_LAB_DIR = Path("/root/gsb-dra")
EXIT_UNREACHABLE = 2
# A namespace name is an RFC 1123 label (what the API server accepts), so it can go into a URL.
NAMESPACE = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


# Commands that read the cluster and print: nothing of theirs needs the interpreter's teardown.
PRINT_ONLY = frozenset({"check", "match", "why", "devices"})


def _demo_dirs() -> tuple[Path, ...]:
    """Where the demo recordings are: shipped in the wheel, or the test fixtures in a checkout."""
    here = Path(__file__).resolve().parent
    return (here / "data", here.parent / "tests" / "fixtures")


# The lab on a real node (`cluster record-lab --real-node`): CDI env, device health, a
# prepare failure.
REAL_NODE_DEMO = ("real-node", Path("realnode", "lab.jsonl"))


def demo_names() -> list[str]:
    """What `--demo NAME` takes: the lab, the lab on a real node, and each profile recording
    (`record-profile`)."""
    found = {p.stem for d in _demo_dirs() for p in (d / "profiles").glob("*.jsonl")}
    if any((d / REAL_NODE_DEMO[1]).is_file() for d in _demo_dirs()):
        found.add(REAL_NODE_DEMO[0])
    return ["lab", *sorted(found - {"lab"})]


def demo_recording(name: str = "lab") -> Path:
    """The recording --demo replays: the lab's, the real node's, or
    tests/fixtures/profiles/<name>.jsonl."""
    relative = Path("lab.jsonl") if name == "lab" else Path("profiles", f"{name}.jsonl")
    if name == REAL_NODE_DEMO[0]:
        relative = REAL_NODE_DEMO[1]
    for directory in _demo_dirs():
        if (directory / relative).is_file():
            return directory / relative
    raise FileNotFoundError(text("en", "cli.no-demo"))


def add_target_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--kubeconfig",
        type=Path,
        default=None,
        help="kubeconfig file (default: $KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml)",
    )
    p.add_argument(
        "--context",
        type=_name(UsageParser.lang),
        default=None,
        help="kubeconfig context (default: current)",
    )
    p.add_argument(
        "-n",
        "--namespace",
        type=_namespace(UsageParser.lang),
        default=None,
        help="lab namespace (default dra-lab); given, the dashboard opens on its claims only",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default=argparse.SUPPRESS,  # a subcommand's absent --lang must not hide the main one
        help="language of what gsb-tui says (default from LC_ALL, LC_MESSAGES, LANG)",
    )


class UsageParser(argparse.ArgumentParser):
    """argparse, except that a usage error exits 64 (EX_USAGE): 2 means the cluster."""

    lang: ClassVar[str] = "en"  # set by build_parser, for the messages of every subparser

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        message = " ".join(message.split())
        self.exit(
            EXIT_USAGE, text(self.lang, "cli.usage-error", prog=self.prog, message=message) + "\n"
        )


def _speed(lang: str) -> Callable[[str], float]:
    from gsb_tui.kube.source import MAX_SPEED

    def parse(value: str) -> float:
        try:
            speed = float(value)
        except ValueError:
            speed = math.nan
        if not math.isfinite(speed) or not 0 <= speed <= MAX_SPEED:
            raise argparse.ArgumentTypeError(
                text(lang, "cli.bad-speed", value=value, max=f"{MAX_SPEED:g}")
            )
        return speed

    return parse


def _lab_dir(lang: str) -> Callable[[str], Path]:
    def parse(value: str) -> Path:
        path = Path(value)
        try:
            is_dir = not os.path.exists(path) or os.path.isdir(path)
        except ValueError:  # a NUL in the path
            is_dir = False
        if not is_dir:
            raise argparse.ArgumentTypeError(text(lang, "cli.not-a-directory", path=value))
        return path

    return parse


def _name(lang: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if not value.strip():
            raise argparse.ArgumentTypeError(text(lang, "cli.empty-name"))
        return value

    return parse


def _namespace(lang: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if not NAMESPACE.fullmatch(value):
            raise argparse.ArgumentTypeError(text(lang, "cli.bad-namespace", value=repr(value)))
        return value

    return parse


def _no_terminal(lang: str) -> str:
    """Why the dashboard cannot run here ("" when it can): Textual reads keys from stdin and
    draws on stderr; without a terminal on stdin it would read end-of-file forever."""
    for name, stream in (("stdin", sys.__stdin__), ("stderr", sys.__stderr__)):
        try:
            ok = stream is not None and os.isatty(stream.fileno())
        except (OSError, ValueError):
            ok = False
        if not ok:
            return text(lang, f"cli.no-terminal.{name}")
    return ""


def _early_lang(argv: Sequence[str] | None) -> str:
    """The language for what is said before (or while) the arguments are parsed."""
    args = list(sys.argv[1:] if argv is None else argv)
    chosen = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            chosen = args[i + 1]
        elif arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
    return choose_lang(chosen if chosen in LANGS else None)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    UsageParser.lang = lang
    parser = UsageParser(
        prog="gsb-tui",
        description="Watch Kubernetes DRA live: slices, devices, claims, pods, the lab checklist.",
        epilog=text(lang, "cli.exit-codes"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gsb-tui {__version__}")
    add_target_args(parser)
    parser.add_argument(
        "--lab-dir",
        type=_lab_dir(lang),
        default=DEFAULT_LAB_DIR,
        help=f"the learner's answer files (default {DEFAULT_LAB_DIR})",
    )
    parser.add_argument(
        "--demo",
        nargs="?",
        const="",
        default=None,
        metavar="NAME|RECORDING",
        help="replay a recording made on a real cluster: the lab (default), a profile's "
        f"({', '.join(demo_names()[1:])}) or a file",
    )
    parser.add_argument(
        "--speed",
        type=_speed(lang),
        default=1.0,
        help="demo replay speed (2 = twice as fast, 0 = instant)",
    )
    sub = parser.add_subparsers(dest="command")

    from gsb_tui.cluster import cli as cluster_cli

    cluster_cli.add_parser(cast("argparse._SubParsersAction[argparse.ArgumentParser]", sub))

    check = sub.add_parser("check", help="judge the lab steps once and print the verdicts")
    add_target_args(check)
    check.add_argument("--lab-dir", type=_lab_dir(lang), default=DEFAULT_LAB_DIR)
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
        "--class",
        dest="device_class",
        type=_name(lang),
        default=None,
        help="also apply this DeviceClass's selectors",
    )
    match.add_argument("--json", action="store_true", help="print one JSON object")

    from gsb_tui.why_cli import parse_pod_ref

    why = sub.add_parser(
        "why",
        help="would a pod not yet bound get every device now, where, and if not why",
        description="Decide as kube-scheduler does (every node, every claim of the pod, "
        "complete and valid pools) whether NAMESPACE/POD would get its devices now. "
        "Exit 0 fits or already bound, 1 does not fit / not decided / no such pod, "
        "2 cluster unusable, 64 usage.",
    )
    add_target_args(why)
    why.add_argument("pod", type=parse_pod_ref, metavar="NAMESPACE/POD")
    why.add_argument("--json", action="store_true", help="print one JSON object")

    devices = sub.add_parser(
        "devices",
        help="every published device: state, reasons, claims and pods (kubectl get devices)",
        description="One row per device of the current pool generations, in the grid's words; "
        "--json gives {devices: [...], summary: {...}}. Exit 0 listed, 1 --node has no "
        "devices, 2 cluster unusable, 64 usage.",
    )
    add_target_args(devices)
    devices.add_argument("--node", type=_name(lang), default=None, help="only this node")
    devices.add_argument("--json", action="store_true", help="print one JSON object")

    record = sub.add_parser("record", help="record the live watch stream to a file (Ctrl-C stops)")
    add_target_args(record)
    record.add_argument("out", type=Path)
    record.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    return parser


def _target(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from gsb_tui.kube.config import Target

    target = Target(kubeconfig=args.kubeconfig, context=args.context)
    return replace(target, namespace=args.namespace) if args.namespace else target


def run_dashboard(args: argparse.Namespace, lang: str) -> int:
    from gsb_tui.kube.source import ChangeSource, ReplaySource

    problem = _no_terminal(lang)  # --demo too needs one (said once the recording is known)

    source: ChangeSource
    first_frame: Callable[[], None] | None = None  # a recording has nothing to hold back
    if args.demo is not None:
        names = demo_names()
        try:
            name = args.demo or "lab"
            path = demo_recording(name) if name in names else Path(args.demo)
        except FileNotFoundError:
            print(f"gsb-tui: {text(lang, 'cli.no-demo')}", file=sys.stderr)
            return 1
        if not path.is_file():
            words = (
                text(lang, "cli.no-recording", path=path)
                if path.suffix or len(path.parts) > 1  # meant as a file
                else text(lang, "cli.unknown-demo", name=args.demo, names=", ".join(names))
            )
            print(f"gsb-tui: {words}", file=sys.stderr)
            return 1
        if problem:
            print(f"gsb-tui: {problem}", file=sys.stderr)
            return EXIT_USAGE
        speed = max(0.0, args.speed)
        # Speed 0 jumps to the end and holds it; looping instantly would only burn CPU.
        source = ReplaySource(path, speed=speed, loop=speed > 0, mark_pause=2.0)
    else:
        if problem:
            print(f"gsb-tui: {problem}", file=sys.stderr)
            return EXIT_USAGE
        from gsb_tui.kube.live import LiveSource

        live = LiveSource(_target(args), hold_first_watches=True)
        live.begin_lists()  # on their way while Textual imports and starts
        source, first_frame = live, live.drawn  # its first watches wait for the first frame
    from gsb_tui.ui.run import run_dashboard as run_ui

    code = run_ui(source, args.lab_dir, lang, scope=args.namespace, first_frame=first_frame)
    if isinstance(source, ReplaySource) and source.stats.bad_lines:
        words = text(
            lang,
            "recording.skipped",
            path=source.path,
            count=source.stats.bad_lines,
            line=source.stats.first_bad,
        )
        print(f"gsb-tui: {words}", file=sys.stderr)
    return code


def run_record(args: argparse.Namespace, lang: str) -> int:
    from gsb_tui.record_cli import run_record as record

    return record(args, _target(args), lang)


def main(argv: Sequence[str] | None = None, leave_at_once: bool = False) -> int:
    """Run gsb-tui and return its exit code (`--help` lists them; gsb_tui/cli_io.py).
    `leave_at_once` (the console script): a command that only prints ends the process once its
    output is flushed, without tearing its objects down (0.15 s after `why` at 10,000 devices)."""
    fix_mmap_threshold()  # before the first large body: see gsb_tui/allocator.py
    lang = _early_lang(argv)
    # asyncio's own log lines (e.g. a child watcher finding its loop closed after a timed-out
    # credential plugin was killed) are internals, not a problem the user can act on.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    ran: dict[str, str] = {}
    with guarded_stdio() as (out, _err):
        try:
            code = _run(argv, lang, ran)
        except SystemExit as exc:  # argparse: --help, --version (0) or a usage error (64)
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else EXIT_USAGE
        except KeyboardInterrupt:
            code = EXIT_INTERRUPTED
        finally:
            from gsb_tui.kube.exec_plugin import reap_all

            reap_all()  # no credential plugin outlives gsb-tui
        code = finish(code, out, lang)
    # Not under a profiler or a tracer (pyinstrument, coverage): they write out at exit.
    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if leave_at_once and ran.get("command") in PRINT_ONLY and not watched:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a reader gone: said already
                stream.flush()
        os._exit(code)
    return code


def script() -> None:
    """The `gsb-tui` console script: the print-only commands leave at once."""
    sys.exit(main(leave_at_once=True))


def _run(argv: Sequence[str] | None, parse_lang: str, ran: dict[str, str]) -> int:
    parser = build_parser(parse_lang)
    args = parser.parse_args(argv)
    ran["command"] = args.command or ""
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
        if args.command == "why":
            from gsb_tui.why_cli import run_why

            return run_why(args, _target(args), lang)
        if args.command == "devices":
            from gsb_tui.devices_cli import run_devices

            return run_devices(args, _target(args), lang)
        if args.command == "record":
            return run_record(args, lang)
        return run_dashboard(args, lang)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # `python -m gsb_tui.cli`, as profilers run it: the usual exit
    sys.exit(main())
