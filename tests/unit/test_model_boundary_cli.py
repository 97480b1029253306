"""Bad fields on the wire: `check`, `match`, `devices`, `why` against an API server stand-in
whose objects carry a count "v2", a pool generation that is a list, NaN, 10**400, a lone
surrogate in an attribute and a slice whose spec is a list; and `--demo FILE` (the dashboard,
headless) on a recording of the same objects. No traceback, an exit code from the documented
set, the malformed objects named."""

from __future__ import annotations

import copy
import io
import json
import math
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest
from rich.console import Console

from gsb_tui.cli_io import EXIT_CODES
from gsb_tui.kube.source import ReplaySource
from gsb_tui.snapshot import KINDS, Kind
from tests.recorded import snap
from tests.unit.local_server import serving, token_kubeconfig

NS = "dra-lab"
BAD_SLICE = "bad-spec-slice"


def bad_objects() -> dict[Kind, list[dict[str, Any]]]:
    """The lab at step 8 with one bad field of each sort the issue measured."""
    base = snap("step-8")
    out = {k: [copy.deepcopy(dict(o)) for o in base.items(k)] for k in base.objects}
    first = out[Kind.SLICES][0]
    first["spec"]["pool"]["generation"] = ["v2"]
    first["spec"]["pool"]["resourceSliceCount"] = math.nan
    first["spec"]["devices"][0]["attributes"]["model"] = {"string": "x\ud800"}
    first["spec"]["devices"][1]["capacity"]["memory"]["value"] = 10**400
    other = copy.deepcopy(first)
    other["metadata"]["name"] = BAD_SLICE
    other["spec"] = ["not", "a", "map"]
    out[Kind.SLICES].append(other)
    claim = next(c for c in out[Kind.CLAIMS] if c["metadata"]["name"].startswith("dra-big"))
    claim["spec"]["devices"]["requests"][0]["exactly"]["count"] = "v2"
    return out


class Server(BaseHTTPRequestHandler):
    """Lists of the bad objects as the API server words lists; /version; 404 otherwise."""

    protocol_version = "HTTP/1.1"
    objects: ClassVar[dict[Kind, list[dict[str, Any]]]] = {}

    def log_message(self, *_args: Any) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        body: Any = {"kind": "Status", "code": 404, "reason": "NotFound"}
        code = 404
        if path == "/version":
            body, code = {"major": "1", "minor": "36", "gitVersion": "v1.36.5"}, 200
        for kind, info in KINDS.items():
            if kind not in self.objects:
                continue
            items = self.objects[kind]
            namespace = path.partition("/namespaces/")[2].partition("/")[0]
            if path == info.path(namespace or None):
                # a namespace and a field selector as an API server reads them (`why`'s pod)
                items = [o for o in items if _chosen(o, namespace, query.get("fieldSelector"))]
                kind_name = f"{info.object_kind}List"
                body = {"kind": kind_name, "metadata": {"resourceVersion": "9"}, "items": items}
                code = 200
        data = json.dumps(body).encode()  # NaN, 10**400 and "\ud800" as JSON writes them
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _chosen(obj: Any, namespace: str, selector: list[str] | None) -> bool:
    if not isinstance(obj, dict) or not isinstance(obj.get("metadata"), dict):
        return not namespace and not selector  # a malformed object: only in a whole list
    if namespace and obj["metadata"].get("namespace") != namespace:
        return False
    for term in (selector or [""])[0].split(","):
        field, _, value = term.partition("=")
        if not field:
            continue
        top, _, key = field.partition(".")
        if not isinstance(obj.get(top), dict) or obj[top].get(key) != value:
            return False
    return True


@pytest.fixture(scope="module")
def kubeconfig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    Server.objects = bad_objects()
    with serving(Server) as url:
        yield token_kubeconfig(tmp_path_factory.mktemp("wire"), url)


def gsb(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", *argv],
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=120,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )


def no_crash(done: subprocess.CompletedProcess[str]) -> str:
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said
    assert done.returncode in EXIT_CODES - {130}, said
    return said


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_check_names_each_malformed_object(kubeconfig: Path, tmp_path: Path, lang: str) -> None:
    said = no_crash(
        gsb(
            "check",
            "--kubeconfig",
            str(kubeconfig),
            "--lab-dir",
            str(tmp_path),
            "--lang",
            lang,
            home=tmp_path,
        )
    )
    assert f"! ResourceSlice {BAD_SLICE}: " in said
    assert ("spec: expected a map, found a list" if lang == "en" else "맵 자리에 목록") in said
    assert "spec.pool.generation" in said and "exactly.count" in said


def test_check_json_lists_them_as_findings(kubeconfig: Path, tmp_path: Path) -> None:
    done = gsb(
        "check",
        "--kubeconfig",
        str(kubeconfig),
        "--lab-dir",
        str(tmp_path),
        "--json",
        home=tmp_path,
    )
    no_crash(done)
    found = [f for f in json.loads(done.stdout)["findings"] if f["code"] == "malformed"]
    assert {f["subject"].split()[0] for f in found} == {"ResourceSlice", "ResourceClaim"}
    assert len(found) == 3


def test_match_answers_every_device_and_names_the_malformed(
    kubeconfig: Path, tmp_path: Path
) -> None:
    expression = "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"
    done = gsb("match", expression, "--kubeconfig", str(kubeconfig), home=tmp_path)
    said = no_crash(done)
    assert done.returncode == 0
    devices = [line for line in done.stdout.splitlines() if line.startswith("gpu.example.com/")]
    assert len(devices) == 8  # the slice whose spec is a list has none; none is lost
    assert "3 malformed object(s)" in done.stderr and f"ResourceSlice {BAD_SLICE}" in said
    as_json = gsb("match", expression, "--json", "--kubeconfig", str(kubeconfig), home=tmp_path)
    no_crash(as_json)
    assert {m["name"] for m in json.loads(as_json.stdout)["malformed"]} >= {BAD_SLICE}


def test_devices_and_why_name_them(kubeconfig: Path, tmp_path: Path) -> None:
    done = gsb("devices", "--kubeconfig", str(kubeconfig), home=tmp_path)
    said = no_crash(done)
    assert "3 malformed object(s)" in said and "malformed" in done.stdout.splitlines()[1]
    rows = json.loads(
        no_crash(gsb("devices", "--json", "--kubeconfig", str(kubeconfig), home=tmp_path)).split(
            "\n", 0
        )[0]
    )
    assert rows["devices"][0]["malformed"] == ["spec.devices[0].attributes.model.string"]
    why = gsb("why", f"{NS}/dra-big", "--kubeconfig", str(kubeconfig), home=tmp_path)
    said = no_crash(why)
    assert "exactly.count: expected an integer, found the string 'v2'" in said


def write_recording(path: Path) -> Path:
    lines = []
    states = snap("step-8").states
    objects = bad_objects()
    for kind, state in states.items():
        lines.append(
            {"t": 0.0, "kind": kind.value, "type": "SYNCED", "items": objects.get(kind, [])}
        )
        lines.append(
            {"t": 0.0, "kind": kind.value, "type": "STATE", "state": {"phase": state.phase}}
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


async def test_the_dashboard_shows_them_and_keeps_drawing(tmp_path: Path) -> None:
    from tests.ui.helpers import make_app, wait_until

    app = make_app(ReplaySource(write_recording(tmp_path / "bad.jsonl"), speed=0))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.source_finished and app.dashboard.grid.cells)
        await pilot.pause()
        assert not getattr(app, "crash_line", "")
        assert app.dashboard.slices.border_subtitle.endswith("3 malformed object(s)")
        claim = next(k for k in app.dashboard.claims.visible_keys() if k[1].startswith("dra-big"))
        from gsb_tui.ui.messages import ClaimSelected

        app.dashboard.claims.post_message(ClaimSelected(claim))  # as the table's highlight
        await wait_until(pilot, lambda: claim[1] in str(app.dashboard.details.body.render()))
        shown = str(app.dashboard.details.body.render())
        assert shown.startswith(f"ResourceClaim {NS}/{claim[1]} is malformed: ")
        console = Console(file=io.StringIO(), width=200, record=True)
        for part in app.dashboard.slices.query(".slices-text"):
            console.print(part.content)  # what each slice's Static shows
        slices = console.export_text()
        assert (
            f"ResourceSlice {BAD_SLICE} is malformed: spec: expected a map, found a list" in slices
        )
        assert "spec.pool.generation: expected an integer, found a list" in slices


def test_demo_file_takes_the_recording(tmp_path: Path) -> None:
    """`--demo FILE` on the bad recording: the command line reaches the dashboard (a usage
    error or a traceback would end it at once); stopped after a moment."""
    recording = write_recording(tmp_path / "bad.jsonl")
    done = subprocess.run(
        [sys.executable, "-c", DEMO, str(recording)],
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=120,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "malformed: 3", done.stdout


# The CLI's own path to the dashboard, with run_dashboard headless for a few seconds.
DEMO = """
import asyncio, sys
import gsb_tui.ui.run as run
from gsb_tui import cli

def headless(source, lab_dir, lang, scope=None, first_frame=None):
    from tests.ui.helpers import make_app

    async def go():
        app = make_app(source, lang)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                await pilot.pause(0.05)
                if app.source_finished and app.dashboard.grid.cells:
                    break
            await pilot.pause(0.2)
            print("malformed:", len(app.dashboard.slices.view.malformed()))
            assert not getattr(app, "crash_line", "")
        return 0
    return asyncio.run(go())

run.run_dashboard = headless
cli._no_terminal = lambda lang: ""  # headless: no terminal needed
sys.exit(cli.main(["--demo", sys.argv[1], "--speed", "0"]))
"""
