"""Regenerate the hostile-input table of docs/RELIABILITY.md (between its hostile markers).

Runs tests/unit/test_hostile_inputs.py (and the dashboard's plugin test) with more generated
cases than CI does, then tabulates: input family, cases tried, tracebacks, hangs, writes.

Run: .venv/bin/python bench/hostile.py [EXAMPLES]   (default 1000 a generated family; CI: 200)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "RELIABILITY.md"
BEGIN, END = "<!-- hostile:begin -->", "<!-- hostile:end -->"
GENERATED = {
    "kubeconfigs": "kubeconfigs, generated: kubeconfig-shaped YAML with random types and values, "
    "random bytes and text, nesting up to 20,000 deep, 1 to 3 files as --kubeconfig or a "
    "$KUBECONFIG list; resolved and given a transport",
    "command lines": "command lines, generated: check, match, record, the dashboard (its source "
    "run briefly) and cluster status/env/down, with random flags, values and stray tokens, "
    "kubeconfigs that are missing, a FIFO, /dev/zero, a directory, wrong types, a CA not PEM, "
    "a closed port or the recorded lab; stdout UTF-8, ASCII-only, closed, a broken pipe or full",
}
# Explicit cases: a family, the tests that try it, whether they check for writes.
EXPLICIT = [
    (
        "kubeconfig that is a FIFO, /dev/zero, /dev/urandom, a directory, over 4 MiB",
        ("test_fifo_and_devices", "test_a_kubeconfig_over_the_cap"),
        False,
    ),
    (
        "kubeconfig with wrong types (`contexts: 5`, `context: hello`, `cluster: str` …), "
        "nested 5,000 deep, a 5,000-digit number",
        ("test_wrong_shapes",),
        False,
    ),
    ("$KUBECONFIG with several files, merged as kubectl merges", ("test_kubeconfig_list",), False),
    (
        "a CA that is not PEM, a closed port, an HTTP server answering 404 HTML",
        ("test_a_ca_that", "test_a_closed_port", "test_an_http_server"),
        False,
    ),
    (
        "exec plugins: one that never answers (timeout, cancelled, `check`), one that fails; "
        "`q` in the dashboard while one hangs",
        (
            "test_a_plugin",
            "test_a_failing_plugin",
            "test_a_cancelled_plugin",
            "test_check_with_a_hanging",
            "test_q_quits",
        ),
        False,
    ),
    (
        "usage errors (exit 64): unknown flags, --speed inf/nan/1e308/-1, --class '', "
        "--context '', --lab-dir that is a file; exit codes in --help",
        ("test_usage_errors", "test_a_lab_dir", "test_exit_codes", "test_speed_is_clamped"),
        False,
    ),
    ("`match` with an invalid regex (one line per device)", ("test_invalid_regex",), False),
    (
        "lab files with lone surrogates, printed to stdout that is ASCII-only, closed, a broken "
        "pipe or full (text and --json); `\\| head -1`, `\\| true`, `>/dev/full`, `>&-` in a shell",
        ("test_lone_surrogates", "test_broken_pipe", "test_dev_full"),
        True,
    ),
    (
        "recordings: a truncated last line, stray lines, empty, 40,000 lines (memory), a FIFO",
        ("test_a_truncated", "test_stray_lines", "test_a_huge_recording", "test_a_recording_that"),
        False,
    ),
    (
        "`record` over an existing file (with and without --force), to a closed port, into a "
        "directory or a missing folder",
        ("test_record_",),
        True,
    ),
]


def main() -> int:
    examples = sys.argv[1] if len(sys.argv) > 1 else "1000"
    with tempfile.TemporaryDirectory() as tmp:
        junit, report = Path(tmp) / "junit.xml", Path(tmp) / "figures.json"
        started = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                f"--junitxml={junit}",
                "tests/unit/test_hostile_inputs.py",
                "tests/ui/test_exec_plugin_reaped.py",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                "GSB_HOSTILE_EXAMPLES": examples,
                "GSB_HOSTILE_REPORT": str(report),
            },
        )
        took = time.monotonic() - started
        figures = json.loads(report.read_text()) if report.exists() else {}
        cases = [
            (c.get("name", ""), c.find("failure") is not None or c.find("error") is not None)
            for c in ET.parse(junit).getroot().iter("testcase")
        ]
    rows = []
    for family, what in GENERATED.items():
        got = figures.get(family, {})
        rows.append(
            f"| {what} | {got.get('cases', 0)} | {got.get('tracebacks', 0)} "
            f"| {got.get('hangs', 0)} | {got.get('writes', 0)} |"
        )
    for what, prefixes, writes in EXPLICIT:
        mine = [failed for name, failed in cases if name.startswith(prefixes)]
        rows.append(
            f"| {what} | {len(mine)} | {sum(mine)} | {sum(mine)} | {'0' if writes else '—'} |"
        )
    section = [
        BEGIN,
        "## Hostile inputs: generated and explicit cases",
        "",
        f"Regenerated by `.venv/bin/python bench/hostile.py {examples}` on "
        f"{time.strftime('%Y-%m-%d')} ({took:.0f} s, pytest exit {proc.returncode}); CI runs the "
        "same tests with 200 generated cases a family (`derandomize=True`: the same cases each "
        "run). Every case runs under a 10 s limit; a write is any change to the lab directory "
        "(or, for kubeconfigs, a file appearing beside them). Exit codes were only ever 0, 1, 2, "
        "64 or 130. For explicit cases, tracebacks and hangs count failed tests (each asserts "
        "neither happened); writes are checked where the row says 0.",
        "",
        "| input family | cases tried | tracebacks | hangs | writes |",
        "|---|---|---|---|---|",
        *rows,
        END,
    ]
    text = DOC.read_text() if DOC.exists() else ""
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    block = "\n".join(section)
    text = pattern.sub(lambda _m: block, text) if pattern.search(text) else text + "\n" + block
    DOC.write_text(text.rstrip("\n") + "\n")
    print(block)
    if proc.returncode:
        print(proc.stdout[-4000:], proc.stderr[-2000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
