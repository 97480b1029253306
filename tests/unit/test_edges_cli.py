"""The command line's edges (issue 26, parts 5 and 7): `-n` is a namespace name or a usage
error, what goes into a URL is escaped, the dashboard refuses to run without a terminal (the
CLIs keep working), and the exit codes for a stop by SIGTERM/SIGHUP are the documented ones."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gsb_tui.cli import build_parser, main
from gsb_tui.cli_io import EXIT_CODES, EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE
from gsb_tui.kube.reflector import Reflector
from gsb_tui.snapshot import KINDS, Kind
from gsb_tui.ui.run import signal_code

REPO = Path(__file__).resolve().parents[2]
GSB = str(Path(sys.executable).parent / "gsb-tui")
BOUND_S = 60  # a failure bound: each of these ends at once

# ---------------------------------------------------------------- -n is a namespace name


@pytest.mark.parametrize("value", ["dra-lab", "a", "0", "a" * 63, "kube-system", "x-1-y"])
def test_namespace_names_are_accepted(value: str) -> None:
    args = build_parser("en").parse_args(["check", "-n", value])
    assert args.namespace == value


@pytest.mark.parametrize(
    "value",
    [
        "../..",  # used to ask for /apis/resource.k8s.io/v1/resourceclaimtemplates (404)
        "dra-lab/pods?watch=1&x=",  # used to turn every namespaced list into a watch of pods
        "a b",
        "Dra-Lab",
        "",
        "-lab",
        "lab-",
        "a" * 64,
        "dra.lab",
        "dra_lab",
        "라브",
        "dra-lab\n",
    ],
)
def test_anything_else_is_a_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "check", f"--namespace={value}"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"argument -n/--namespace: {value!r} is not a namespace name" in " ".join(err.split())
    assert "Traceback" not in err


def test_the_message_in_korean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "ko", "-n", "Dra-Lab", "devices"]) == EXIT_USAGE
    # the particle follows the name as it is read ("랩"): 은, not 는
    assert "'Dra-Lab'은 네임스페이스 이름이 아닙니다" in capsys.readouterr().err


class _NoApi:
    pass


@pytest.mark.parametrize("kind", [k for k in Kind if KINDS[k].namespaced])
def test_the_namespace_is_one_escaped_path_segment(kind: Kind) -> None:
    """Whatever reaches the reflector (the CLI refuses it first), it stays one segment."""
    info = KINDS[kind]
    for namespace, segment in [
        ("dra-lab", "dra-lab"),
        ("../..", "..%2F.."),
        ("dra-lab/pods?watch=1&x=", "dra-lab%2Fpods%3Fwatch%3D1%26x%3D"),
        ("a b", "a%20b"),
    ]:
        reflector = Reflector(_NoApi(), info, lambda _c: None, namespace=namespace)  # type: ignore[arg-type]
        assert reflector.path == f"{info.api_prefix}/namespaces/{segment}/{kind.value}"
        assert "?" not in reflector.path and "#" not in reflector.path
    wide = Reflector(_NoApi(), info, lambda _c: None, namespace="x", all_namespaces_first=True)  # type: ignore[arg-type]
    assert wide.path == f"{info.api_prefix}/{kind.value}"


# ---------------------------------------------------------------- no terminal, no dashboard


def _gsb(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_STATE_HOME": "/nonexistent-gsb-state", "LANG": "C.UTF-8"}
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        [GSB, *argv], capture_output=True, text=True, timeout=BOUND_S, env=env, **kw
    )


def test_the_dashboard_without_a_terminal_on_stdin_says_so(tmp_path: Path) -> None:
    """`setsid gsb-tui --demo </dev/null` used to spin at full CPU, forever."""
    for argv in (["--demo"], ["--demo", "partitions"], ["--kubeconfig", str(tmp_path / "no")]):
        proc = _gsb([*argv, "--lang", "en"], stdin=subprocess.DEVNULL, start_new_session=True)
        assert proc.returncode == EXIT_USAGE, proc
        assert proc.stderr == (
            "gsb-tui: the dashboard needs a terminal, and standard input is not one; run it in "
            "a terminal (check, why, devices, match and record work without one)\n"
        )
        assert proc.stdout == ""


def test_the_dashboard_drawing_into_a_file_says_so(tmp_path: Path) -> None:
    """stdin a terminal, stderr (where Textual draws) redirected: said, not drawn blind."""
    leader, follower = pty.openpty()
    try:
        proc = _gsb(["--demo", "--lang", "ko"], stdin=follower, start_new_session=True)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == EXIT_USAGE
    assert "화면을 그리는 표준 오류가 터미널이 아닙니다" in proc.stderr


def test_the_demo_name_is_checked_before_the_terminal() -> None:
    proc = _gsb(["--demo", "no-such-demo", "--lang", "en"], stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and "is neither a recording file nor a demo name" in proc.stderr


def test_the_clis_need_no_terminal(tmp_path: Path) -> None:
    missing = tmp_path / "no-kubeconfig"
    for command in (["check"], ["devices"], ["match", "true"], ["why", "dra-lab/dra-1"]):
        proc = _gsb([*command, "--kubeconfig", str(missing)], stdin=subprocess.DEVNULL)
        assert proc.returncode == 2, (command, proc.stderr)  # the cluster, not the terminal
        assert "needs a terminal" not in proc.stderr
    proc = _gsb(["cluster", "--dir", str(tmp_path / "c"), "status"], stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and "needs a terminal" not in proc.stderr


# ---------------------------------------------------------------- documented exit codes


def test_the_signal_codes_are_the_documented_ones() -> None:
    assert signal_code(signal.SIGTERM) == EXIT_TERMINATED == 143
    assert signal_code(signal.SIGHUP) == EXIT_HANGUP == 129
    assert signal_code(signal.SIGINT) == EXIT_INTERRUPTED == 130
    assert {EXIT_HANGUP, EXIT_TERMINATED} <= EXIT_CODES


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_help_and_readme_list_every_exit_code(lang: str) -> None:
    epilog = build_parser(lang).epilog or ""
    listed = {int(code) for code in re.findall(r"^  (\d+) ", epilog, re.MULTILINE)}
    assert listed == set(EXIT_CODES)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = {int(code) for code in re.findall(r"^\| (\d+) \|", readme, re.MULTILINE)}
    assert table == set(EXIT_CODES)
    for word in ("SIGTERM", "SIGHUP"):
        assert word in epilog
        assert word in readme
