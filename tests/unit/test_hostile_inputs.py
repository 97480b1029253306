"""Hostile inputs: generated kubeconfigs and command lines, and each case the issue found.

Generated cases (hypothesis, a fixed seed: `derandomize=True`, a few hundred cases a family,
each under CASE_LIMIT_S) must give 0 tracebacks, 0 hangs, exit codes only from the documented
set and 0 writes into the lab directory. Set GSB_HOSTILE_EXAMPLES for a larger run and
GSB_HOSTILE_REPORT=FILE to collect the figures (bench/hostile.py writes docs/RELIABILITY.md's
table from them).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gsb_tui import cli
from gsb_tui.cli_io import EXIT_CODES
from gsb_tui.kube import config as kc
from gsb_tui.kube import exec_plugin, oneshot
from gsb_tui.kube.config import KubeconfigError, Target, resolve
from gsb_tui.kube.exec_plugin import ExecPluginError, run_plugin
from gsb_tui.kube.recording import ReadStats, Recorder, RecordingError, read_changes
from gsb_tui.kube.source import MAX_SPEED, ReplaySource
from gsb_tui.kube.store import Change, Store
from gsb_tui.kube.transport import NativeTransport
from gsb_tui.snapshot import Kind, KindState, Snapshot
from gsb_tui.words import text
from tests.recorded import RECORDING, snap, view

REPO = Path(__file__).resolve().parents[2]
CASE_LIMIT_S = 10.0
EXAMPLES = int(os.environ.get("GSB_HOSTILE_EXAMPLES", "200"))
SETTINGS = settings(
    derandomize=True,
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
FIGURES: Counter[tuple[str, str]] = Counter()  # (family, cases|tracebacks|hangs|writes)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kubeconfig(server: str, user: dict[str, Any] | None = None, **cluster: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "clusters": [{"name": "c", "cluster": {"server": server, **cluster}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [{"name": "u", "user": user or {"token": "t"}}],
        "current-context": "x",
    }


def tree(root: Path) -> dict[str, str]:
    """Every entry under root with a digest of its content (a write shows as a difference)."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = f"link:{os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = "special"
    return out


# ---------------------------------------------------------------- running the CLI in-process


class FailingStream(io.TextIOBase):
    """A stdout whose every write fails (a reader gone, a full disk)."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, _data: str) -> int:
        raise self.error

    def writable(self) -> bool:
        return True


def make_stream(mode: str, buf: io.BytesIO) -> Any:
    if mode == "closed":
        return None
    if mode == "broken-pipe":
        return FailingStream(BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)))
    if mode == "full":
        return FailingStream(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    return io.TextIOWrapper(buf, encoding=mode, newline="\n")


@dataclass
class Outcome:
    code: int | None
    out: str
    err: str
    error: BaseException | None
    hung: bool

    @property
    def traceback(self) -> bool:
        return self.error is not None or "Traceback" in self.err


def run_cli(argv: list[str], stdout: str = "utf-8", limit: float = CASE_LIMIT_S) -> Outcome:
    """gsb_tui.cli.main(argv) in a thread, under a time limit, its output captured."""
    out_buf, err_buf = io.BytesIO(), io.BytesIO()
    out_stream = make_stream(stdout, out_buf)
    err_stream = io.TextIOWrapper(err_buf, encoding="utf-8", newline="\n")
    result: dict[str, Any] = {}

    def target() -> None:
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out_stream, err_stream
        try:
            result["code"] = cli.main(argv)
        except BaseException as exc:  # a traceback: what this file hunts
            result["error"] = exc
        finally:
            for stream in (out_stream, err_stream):
                if isinstance(stream, io.TextIOWrapper):
                    stream.flush()
            sys.stdout, sys.stderr = saved

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(limit)
    return Outcome(
        code=result.get("code"),
        out=out_buf.getvalue().decode("utf-8", "replace"),
        err=err_buf.getvalue().decode("utf-8", "replace"),
        error=result.get("error"),
        hung=thread.is_alive(),
    )


# ---------------------------------------------------------------- the world the CLI runs in


@dataclass
class World:
    root: Path
    lab: Path  # a lab directory with answer files (some hostile): must never change
    out: Path  # where `record` may write
    kubeconfigs: dict[str, Path]
    recordings: dict[str, Path]


RECORDED = "recorded"  # a --kubeconfig that stands for the recorded lab cluster (step 8)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("hostile")
    lab = root / "gsb-dra"
    lab.mkdir()
    (lab / "slices.txt").write_text("driver=gpu.example.com\ndevices=8\n")
    (lab / "claim.json").write_text('{"claim": "\\udc80x", "device": "gpu-\\ud800", "env_var": 1}')
    (lab / "report.json").write_text(
        '{"allocated_devices": "\\udcff", "free_devices": 1e999, "pending_pods": ["\\ud83d"]}'
    )
    (lab / "pick.yaml").write_text("apiVersion: v1\nkind: [\n")
    out = root / "out"
    out.mkdir()
    (out / "exists.jsonl").write_text("keep me\n")
    configs = root / "configs"
    configs.mkdir()
    port = closed_port()
    kubeconfigs = {
        "closed": configs / "closed.yaml",
        "missing": configs / "missing.yaml",
        "directory": configs,
        "fifo": configs / "fifo",
        "dev-zero": Path("/dev/zero"),
        "wrong-types": configs / "wrong-types.yaml",
        "not-pem": configs / "not-pem.yaml",
        RECORDED: configs / "recorded.yaml",
    }
    kubeconfigs["closed"].write_text(json.dumps(kubeconfig(f"https://127.0.0.1:{port}")))
    kubeconfigs[RECORDED].write_text(json.dumps(kubeconfig(f"https://127.0.0.1:{port}")))
    kubeconfigs["wrong-types"].write_text("clusters: []\ncontexts: 5\n")
    kubeconfigs["not-pem"].write_text(
        json.dumps(
            kubeconfig(f"https://127.0.0.1:{port}", **{"certificate-authority-data": "aGVsbG8K"})
        )
    )
    os.mkfifo(kubeconfigs["fifo"])
    recordings = {
        "lab": RECORDING,
        "truncated": root / "truncated.jsonl",
        "empty": root / "empty.jsonl",
        "garbage": root / "garbage.jsonl",
        "missing": root / "missing.jsonl",
        "fifo": root / "recording.fifo",
    }
    lines = RECORDING.read_bytes().splitlines(keepends=True)[:40]
    recordings["truncated"].write_bytes(b"".join(lines)[:-30])
    recordings["empty"].write_bytes(b"")
    recordings["garbage"].write_bytes(b"[1,2]\n\xff\xfe\n{}\n" + b"[" * 100_000 + b"\n")
    os.mkfifo(recordings["fifo"])
    yield World(root, lab, out, kubeconfigs, recordings)


@pytest.fixture
def patched(monkeypatch: pytest.MonkeyPatch, world: World) -> World:
    """Fast and contained: give up on a closed port at once, the recorded lab for RECORDED,
    the dashboard replaced by a short run of its source (no terminal taken)."""
    monkeypatch.setattr(oneshot, "GIVE_UP_AFTER_S", 0.0)
    monkeypatch.setenv("HOME", str(world.root / "home"))  # no real ~/.kube/config joins in
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.setattr(kc, "K3S_KUBECONFIG", world.root / "no-k3s.yaml")
    real_fetch = oneshot.fetch_snapshot
    recorded = snap("step-8")

    async def fetch(
        target: Target, kinds: Any = tuple(Kind), timeout: float = 8.0, source: Any = None
    ) -> Snapshot:
        if target.kubeconfig == world.kubeconfigs[RECORDED]:
            return recorded
        return await real_fetch(target, kinds, timeout=min(timeout, 3.0), source=source)

    import gsb_tui.check_cli
    import gsb_tui.cli
    import gsb_tui.match_cli
    import gsb_tui.ui.run

    monkeypatch.setattr(gsb_tui.check_cli, "fetch_snapshot", fetch)
    monkeypatch.setattr(gsb_tui.match_cli, "fetch_snapshot", fetch)

    def dashboard(
        source: Any, lab_dir: Path, lang: str, scope: str | None = None, first_frame: Any = None
    ) -> int:
        store = Store()

        async def briefly() -> None:
            # The app shows a RecordingError as a banner and retries.
            with contextlib.suppress(TimeoutError, RecordingError):
                await asyncio.wait_for(source.run(store.apply), 0.3)

        asyncio.run(briefly())
        return 0

    monkeypatch.setattr(gsb_tui.ui.run, "run_dashboard", dashboard)
    # The dashboard's terminal check would stop every case here (pytest's stdin is no terminal);
    # the no-terminal path has its own tests (test_edges_cli.py).
    monkeypatch.setattr(gsb_tui.cli, "_no_terminal", lambda lang: "")
    return world


# ---------------------------------------------------------------- generated command lines

SUBCOMMAND_WORDS = {"cluster", "up", "build", "record-lab", "record-profile", "driver", "down"}
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\udc80\x00-="),
    max_size=12,
).filter(lambda s: s not in SUBCOMMAND_WORDS)
NOISE = st.sampled_from(
    ["--", "-", "--help", "-h", "--version", "--bogus", "--json=1", "-n", "--step", "--force"]
)
EXPRESSIONS = st.sampled_from(
    [
        "true",
        "device.attributes['gpu.example.com'].index == 7",
        "device.driver.matches('[')",
        "device.attributes.index == 7",
        "size(device.attributes['gpu.example.com'].model) > 3",
        "",
        "((((",
        "'\udc80' == device.driver",
        "device.capacity['gpu.example.com'].memory.compareTo(quantity('1Gi')) >= 0",
    ]
)


def flat(groups: list[list[str]]) -> list[str]:
    return [token for group in groups for token in group]


@st.composite
def command_lines(draw: st.DrawFn, world: World) -> tuple[list[str], str]:
    def value(choices: list[str]) -> str:  # mostly a meaningful value, sometimes any text
        return draw(TEXT) if draw(st.integers(0, 4)) == 0 else draw(st.sampled_from(choices))

    kubeconfigs = [str(p) for p in world.kubeconfigs.values()]
    recordings = [str(p) for p in world.recordings.values()] + ["lab", "no-such-demo"]
    lab_dirs = [str(world.lab), str(world.lab / "slices.txt"), str(world.root / "nope"), ""]
    command = draw(st.sampled_from(["check", "match", "record", "dashboard", "cluster"]))
    groups: list[list[str]] = []
    if draw(st.booleans()):
        groups.append(["--lang", value(["ko", "en", "ko", "en", "fr"])])
    if command == "cluster":
        sub = draw(st.sampled_from([["status"], ["status", "--json"], ["env"], ["down"]]))
        argv = [*flat(groups), "cluster", "--dir", str(world.root / "cluster"), *sub]
        return argv, draw(st.sampled_from(["utf-8", "ascii", "closed", "broken-pipe", "full"]))
    target = ["--kubeconfig", value(kubeconfigs)]
    options: list[list[str]] = [target]
    options.append(["--context", value(["x", "", "nope"])])
    options.append(["-n", value(["dra-lab", ""])])
    if command == "dashboard":
        options.append(["--lab-dir", value(lab_dirs)])
        options.append(["--demo", value(recordings)])
        options.append(["--demo"])
        options.append(["--speed", value(["0", "1", "1000", "1001", "inf", "nan", "-1", "1e308"])])
    elif command == "check":
        options.append(["--lab-dir", value(lab_dirs)])
        options.append(["--step", value(["1", "4", "8", "0", "9", "x"])])
        options.append(["--json"])
    positional: list[str] = []  # what the command needs, most of the time
    if command == "match":
        positional.append(draw(EXPRESSIONS | TEXT))
        options.append(["--class", value(["gpu.example.com", "", "nope"])])
    elif command == "record":
        names = ["new.jsonl", "exists.jsonl", ".", "no-folder/x.jsonl"]
        positional.append(str(world.out / value(names).lstrip("/")))
        options.append(["--force"])
    if positional and draw(st.integers(0, 5)) != 0:
        options.append(positional)
    picks = st.lists(st.sampled_from(range(len(options))), unique=True, max_size=len(options))
    chosen = [options[i] for i in draw(st.permutations(draw(picks)))]
    head = [] if command == "dashboard" else [command]
    argv = [*flat(groups), *head, *flat(chosen)]
    if draw(st.integers(0, 3)) == 0:  # a stray token somewhere
        at = draw(st.integers(0, len(argv)))
        argv.insert(at, draw(NOISE | TEXT))
    stdout = draw(st.sampled_from(["utf-8", "utf-8", "ascii", "closed", "broken-pipe", "full"]))
    return argv, stdout


def test_generated_command_lines(patched: World) -> None:
    world = patched
    before = tree(world.lab)

    @SETTINGS
    @given(command_lines(world))
    def case(generated: tuple[list[str], str]) -> None:
        argv, stdout = generated
        (world.out / "new.jsonl").unlink(missing_ok=True)
        outcome = run_cli(argv, stdout=stdout)
        FIGURES["command lines", "cases"] += 1
        FIGURES["command lines", "tracebacks"] += outcome.traceback
        FIGURES["command lines", "hangs"] += outcome.hung
        wrote = tree(world.lab) != before
        FIGURES["command lines", "writes"] += wrote
        assert not outcome.hung, argv
        assert outcome.error is None, (argv, outcome.error)
        assert "Traceback" not in outcome.err, (argv, outcome.err)
        assert outcome.code in EXIT_CODES, (argv, outcome.code, outcome.err)
        assert not wrote, argv
        assert (world.out / "exists.jsonl").read_text() == "keep me\n"

    case()


# ---------------------------------------------------------------- generated kubeconfigs

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["https://127.0.0.1:1", "c", "x", "u", "http://", "::", "a:b:c"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["name", "cluster", "context", "user", "server"]), inner)
    ),
    max_leaves=12,
)


def entries(section: str, body: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    entry = st.fixed_dictionaries({"name": st.sampled_from(["c", "x", "u", ""]) | SCALARS}) | VALUES
    shaped = st.builds(lambda e, b: {**e, section: b} if isinstance(e, dict) else e, entry, body)
    return st.lists(shaped, max_size=3) | VALUES


CLUSTER_BODY = (
    st.fixed_dictionaries(
        {},
        optional={
            "server": st.sampled_from(["https://127.0.0.1:1", "127.0.0.1:1", "ftp://x", ""])
            | SCALARS,
            "certificate-authority-data": st.sampled_from(["aGVsbG8K", "%%%", ""]) | SCALARS,
            "certificate-authority": st.sampled_from(["/dev/zero", "ca.pem", "/nope"]) | SCALARS,
            "insecure-skip-tls-verify": SCALARS,
        },
    )
    | VALUES
)
USER_BODY = (
    st.fixed_dictionaries(
        {},
        optional={
            "token": st.sampled_from(["t", "a\nb", "ä"]) | SCALARS,
            "tokenFile": st.sampled_from(["/dev/zero", "token", "/nope"]) | SCALARS,
            "client-certificate-data": SCALARS,
            "client-key-data": SCALARS,
            "exec": VALUES,
            "username": SCALARS,
            "password": SCALARS,
        },
    )
    | VALUES
)
CONFIGS = (
    st.fixed_dictionaries(
        {},
        optional={
            "clusters": entries("cluster", CLUSTER_BODY),
            "contexts": entries(
                "context",
                st.fixed_dictionaries(
                    {}, optional={"cluster": st.just("c") | SCALARS, "user": st.just("u") | SCALARS}
                )
                | VALUES,
            ),
            "users": entries("user", USER_BODY),
            "current-context": st.just("x") | SCALARS,
            "apiVersion": SCALARS,
        },
    )
    | VALUES
)


def render(data: Any, form: str) -> bytes:
    if form == "yaml":
        return yaml.safe_dump(data, allow_unicode=True).encode("utf-8", "surrogatepass")
    return json.dumps(data).encode()


FILES = (
    st.tuples(CONFIGS, st.sampled_from(["yaml", "json"])).map(lambda c: render(*c))
    | st.binary(max_size=300)
    | st.text(st.sampled_from("[]{}:-, \n\"'&*!|>#%@`abc0123"), max_size=200).map(str.encode)
    | st.integers(1, 20_000).map(lambda depth: b"clusters: " + b"[" * depth + b"]" * depth)
    | st.integers(1, 20_000).map(
        lambda depth: b"a:\n" + b"".join(b" " * i + b"- \n" for i in range(0, depth, 50))
    )
    | st.just(b"clusters: 1" + b"0" * 5000 + b"\n")
)


def resolve_case(directory: Path, files: list[bytes], via_env: bool) -> None:
    """Resolve and set up a transport: KubeconfigError or a result, nothing else."""
    paths = []
    for i, data in enumerate(files):
        path = directory / f"k{i}.yaml"
        path.write_bytes(data)
        paths.append(path)
    saved = os.environ.get("KUBECONFIG")
    try:
        if via_env:
            os.environ["KUBECONFIG"] = os.pathsep.join(str(p) for p in paths)
            target = Target()
        else:
            target = Target(kubeconfig=paths[0])
        try:
            resolved = resolve(target)
            if not resolved.user_info.get("auth-provider"):
                NativeTransport(resolved)
        except KubeconfigError as exc:
            assert "\n" not in str(exc) and "object at 0x" not in str(exc)
    finally:
        if saved is None:
            os.environ.pop("KUBECONFIG", None)
        else:
            os.environ["KUBECONFIG"] = saved


def test_generated_kubeconfigs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # no real ~/.kube/config joins in
    monkeypatch.setattr(kc, "K3S_KUBECONFIG", tmp_path / "no-k3s.yaml")
    counter = iter(range(10**9))

    @SETTINGS
    @given(st.lists(FILES, min_size=1, max_size=3), st.booleans())
    def case(files: list[bytes], via_env: bool) -> None:
        directory = tmp_path / f"case{next(counter)}"
        directory.mkdir()
        before = tree(tmp_path / "lab") if (tmp_path / "lab").exists() else {}
        result: dict[str, BaseException] = {}

        def target() -> None:
            try:
                resolve_case(directory, files, via_env)
            except BaseException as exc:
                result["error"] = exc

        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        thread.join(CASE_LIMIT_S)
        FIGURES["kubeconfigs", "cases"] += 1
        FIGURES["kubeconfigs", "hangs"] += thread.is_alive()
        FIGURES["kubeconfigs", "tracebacks"] += "error" in result
        written = sorted(p.name for p in directory.iterdir())
        wrote = written != [f"k{i}.yaml" for i in range(len(files))] or (
            (tmp_path / "lab").exists() and tree(tmp_path / "lab") != before
        )
        FIGURES["kubeconfigs", "writes"] += wrote
        assert not thread.is_alive()
        assert "error" not in result, result.get("error")
        assert not wrote, written
        shutil.rmtree(directory)

    case()


# ---------------------------------------------------------------- kubeconfig cases, one by one


def test_fifo_and_devices_are_refused_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    for path, kind in (
        (fifo, "a FIFO"),
        (Path("/dev/zero"), "a device"),
        (Path("/dev/urandom"), "a device"),
        (tmp_path, "a directory"),
    ):
        with pytest.raises(KubeconfigError, match=f"is {kind}, not a regular file"):
            resolve(Target(kubeconfig=path))
    assert time.monotonic() - started < 2.0


def test_a_kubeconfig_over_the_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as fh:
        fh.truncate(kc.KUBECONFIG_LIMIT + 1)
    with pytest.raises(KubeconfigError, match="over the 4 MiB limit"):
        resolve(Target(kubeconfig=big))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("clusters: []\ncontexts: 5\n", "contexts must be a list, not an integer"),
        (
            "clusters: [{name: c, cluster: {server: 'https://h'}}]\n"
            "contexts: [{name: x, context: hello}]\ncurrent-context: x\n",
            "contexts[0].context must be a mapping, not a string",
        ),
        (
            "clusters: [{name: c, cluster: str}]\n"
            "contexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n",
            "clusters[0].cluster must be a mapping, not a string",
        ),
        (
            "clusters: [{name: c, cluster: {server: 5}}]\n"
            "contexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n",
            "clusters[0].cluster.server must be a string, not an integer",
        ),
        ("clusters: {}\n", "clusters must be a list, not a mapping"),
        ("current-context: [x]\nclusters: []\n", "current-context must be a string, not a list"),
        ("clusters: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("clusters: 1" + "0" * 5000 + "\n", "is not valid YAML"),
        ("- a\n- b\n", "has no clusters"),
    ],
)
def test_wrong_shapes_are_one_plain_sentence(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "k.yaml"
    path.write_text(text)
    with pytest.raises(KubeconfigError) as err:
        resolve(Target(kubeconfig=path))
    assert says in str(err.value)
    assert "\n" not in str(err.value)


def test_kubeconfig_list_is_merged_as_kubectl_merges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    (two / "ca.pem").write_text("-")
    first = {
        "clusters": [{"name": "c1", "cluster": {"server": "https://first:6443"}}],
        "contexts": [{"name": "a", "context": {"cluster": "c1", "user": "u"}}],
        "users": [{"name": "u", "user": {"token": "first"}}],
    }
    second = {
        "clusters": [
            {"name": "c1", "cluster": {"server": "https://ignored:6443"}},
            {
                "name": "c2",
                "cluster": {"server": "https://second:6443", "certificate-authority": "ca.pem"},
            },
        ],
        "contexts": [
            {"name": "a", "context": {"cluster": "c2", "user": "u"}},
            {"name": "b", "context": {"cluster": "c2", "user": "u"}},
        ],
        "users": [{"name": "u", "user": {"token": "second"}}],
        "current-context": "b",
    }
    third = {"clusters": [], "current-context": "a"}
    for directory, data in ((one, first), (two, second), (tmp_path, third)):
        (directory / "config").write_text(yaml.safe_dump(data))
    missing = tmp_path / "absent"
    monkeypatch.setenv(
        "KUBECONFIG",
        os.pathsep.join(
            str(p) for p in (missing, one / "config", two / "config", tmp_path / "config")
        ),
    )
    resolved = resolve(Target())
    assert resolved.context == "b"  # the first file that sets current-context
    assert resolved.server == "https://second:6443"
    assert resolved.user_info == {"token": "first"}  # the first file naming user u wins it
    assert resolved.cluster_info["certificate-authority"] == str(two / "ca.pem")  # its own folder
    assert resolved.path == two / "config"
    assert resolved.paths == (one / "config", two / "config", tmp_path / "config")
    picked = resolve(Target(context="a"))
    assert picked.server == "https://first:6443" and picked.path == one / "config"


def test_a_ca_that_is_not_pem_is_said_at_once(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text(
        json.dumps(
            kubeconfig(
                f"https://127.0.0.1:{closed_port()}", **{"certificate-authority-data": "aGVsbG8K"}
            )
        )
    )
    started = time.monotonic()
    with pytest.raises(KubeconfigError, match="is not a PEM certificate") as err:
        asyncio.run(oneshot.fetch_snapshot(Target(kubeconfig=path)))
    assert time.monotonic() - started < 2.0
    assert "_ssl.c" not in str(err.value) and "object at" not in str(err.value)


def test_a_closed_port_is_said_plainly(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text(json.dumps(kubeconfig(f"https://127.0.0.1:{closed_port()}")))
    with pytest.raises(oneshot.Unreachable) as err:
        asyncio.run(oneshot.fetch_snapshot(Target(kubeconfig=path)))
    message = str(err.value)
    assert "cannot connect to the API server at 127.0.0.1:" in message
    assert "Connection refused" in message
    assert "object at 0x" not in message and "ssl:" not in message and "\n" not in message


async def test_an_http_server_that_is_not_kubernetes_is_unusable_at_once(tmp_path: Path) -> None:
    from aiohttp import web

    async def page(_request: web.Request) -> web.Response:
        return web.Response(
            status=404, text="<html>\n<h1>Not Found</h1>\n</html>", content_type="text/html"
        )

    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", page)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    path = tmp_path / "k.yaml"
    path.write_text(json.dumps(kubeconfig(f"http://127.0.0.1:{port}")))
    started = time.monotonic()
    try:
        with pytest.raises(oneshot.Unreachable, match="does not answer as a Kubernetes API server"):
            await oneshot.fetch_snapshot(Target(kubeconfig=path))
    finally:
        await runner.cleanup()
    assert time.monotonic() - started < 3.0


# ---------------------------------------------------------------- exec credential plugins

HANG = """#!/bin/sh
echo $$ > "{dir}/plugin.pid"
sleep 1000 &
echo $! > "{dir}/child.pid"
wait
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead, only not yet reaped by its (new) parent
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def hanging_plugin(tmp_path: Path) -> dict[str, Any]:
    script = tmp_path / "hang.sh"
    script.write_text(HANG.format(dir=tmp_path))
    script.chmod(0o755)
    return {"command": str(script), "apiVersion": "client.authentication.k8s.io/v1"}


def wait_for_file(path: Path, seconds: float = 20.0) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.02)
    raise AssertionError(f"{path} never written")


def test_a_plugin_that_never_answers_is_stopped_with_its_children(tmp_path: Path) -> None:
    spec = hanging_plugin(tmp_path)
    with pytest.raises(ExecPluginError, match=r"gave no credential within 0\.5 s"):
        asyncio.run(run_plugin(spec, timeout=0.5))
    pids = wait_for_file(tmp_path / "plugin.pid"), wait_for_file(tmp_path / "child.pid")
    time.sleep(0.1)
    assert not any(alive(p) for p in pids)
    assert exec_plugin.running() == frozenset()


@pytest.mark.timeout(90)  # a hang here must fail fast, not hold the suite for 10 minutes
def test_a_cancelled_plugin_run_leaves_nothing_behind(tmp_path: Path) -> None:
    spec = hanging_plugin(tmp_path)

    async def cancel_it() -> None:
        task = asyncio.create_task(run_plugin(spec, timeout=60))
        await asyncio.to_thread(wait_for_file, tmp_path / "child.pid")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_it())
    time.sleep(0.1)
    pids = int((tmp_path / "plugin.pid").read_text()), int((tmp_path / "child.pid").read_text())
    assert not any(alive(p) for p in pids)


def test_check_with_a_hanging_plugin_exits_2_and_reaps_it(tmp_path: Path) -> None:
    config = kubeconfig(
        f"https://127.0.0.1:{closed_port()}", user={"exec": hanging_plugin(tmp_path)}
    )
    path = tmp_path / "k.yaml"
    path.write_text(json.dumps(config))
    proc = subprocess.run(
        [sys.executable, "-m", "gsb_tui.cli", "check", "--kubeconfig", str(path), "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert proc.returncode == 2, proc.stderr
    assert "waiting for the credential plugin" in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    pids = int((tmp_path / "plugin.pid").read_text()), int((tmp_path / "child.pid").read_text())
    time.sleep(0.1)
    assert not any(alive(p) for p in pids)


def test_a_failing_plugin_is_said_once(tmp_path: Path) -> None:
    script = tmp_path / "fail.sh"
    script.write_text("#!/bin/sh\necho 'error: you must log in' >&2\necho more >&2\nexit 3\n")
    script.chmod(0o755)
    spec = {"command": str(script), "apiVersion": "client.authentication.k8s.io/v1"}
    config = kubeconfig(f"https://127.0.0.1:{closed_port()}", user={"exec": spec})
    path = tmp_path / "k.yaml"
    path.write_text(json.dumps(config))
    outcome = run_cli(["check", "--kubeconfig", str(path), "--lang", "en"])
    assert outcome.code == 2
    assert outcome.err.count("you must log in") == 1
    assert "failed (exit 3): error: you must log in more" in outcome.err
    assert outcome.err.count("\n") == 1


# ---------------------------------------------------------------- the command line


def test_exit_codes_are_in_the_help() -> None:
    outcome = run_cli(["--help"])
    assert outcome.code == 0
    for code in ("0 ", "1 ", "2 ", "64 ", "130 "):
        assert f"\n  {code}" in outcome.out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["check", "--step", "9"], "argument --step"),
        (["--demo", "--speed", "inf"], "inf is not a speed"),
        (["--demo", "--speed", "nan"], "nan is not a speed"),
        (["--demo", "--speed", "1e308"], "1e308 is not a speed"),
        (["--demo", "--speed", "-1"], "-1 is not a speed"),
        (["match", "true", "--class", ""], "argument --class: must not be empty"),
        (["check", "--context", ""], "argument --context: must not be empty"),
    ],
)
def test_usage_errors_exit_64(argv: list[str], says: str) -> None:
    outcome = run_cli(["--lang", "en", *argv])
    assert outcome.code == 64
    assert says in outcome.err


def test_a_lab_dir_that_is_a_file_is_not_a_directory(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    for argv in (["check", "--lab-dir", str(file)], ["--lab-dir", str(file)]):
        outcome = run_cli(["--lang", "en", *argv])
        assert outcome.code == 64
        assert f"{file} is not a directory" in outcome.err


def test_speed_is_clamped_in_the_source() -> None:
    assert ReplaySource(RECORDING, speed=float("inf")).speed == 0.0
    assert ReplaySource(RECORDING, speed=float("nan")).speed == 0.0
    assert ReplaySource(RECORDING, speed=1e308).speed == MAX_SPEED


def test_invalid_regex_keeps_one_line_per_device(patched: World) -> None:
    kubeconfig_path = str(patched.kubeconfigs[RECORDED])
    # A regex built at run time (a constant one is refused when the expression compiles).
    expression = "device.driver.matches(device.driver + '[')"
    outcome = run_cli(["match", expression, "--kubeconfig", kubeconfig_path])
    devices = len({d.id for d in view("step-8").devices})
    lines = outcome.out.splitlines()
    assert outcome.code == 0, outcome.err
    assert len(lines) == devices
    assert all(" error: " in line and "regex" in line.lower() for line in lines)
    # A library message over several lines, with a caret line, becomes one line.
    from gsb_tui.match_cli import _one_line

    raw = "selector #0: '[' not a valid regex:\nregex parse error:\n    [\n    ^\nerror: unclosed"
    assert (
        _one_line(raw) == "selector #0: '[' not a valid regex: regex parse error: [ error: unclosed"
    )


@pytest.mark.parametrize("stdout", ["ascii", "utf-8", "closed", "broken-pipe", "full"])
@pytest.mark.parametrize("json_out", [False, True])
def test_lone_surrogates_and_bad_stdout_never_raise(
    patched: World, stdout: str, json_out: bool
) -> None:
    argv = ["--lang", "ko", "check", "--kubeconfig", str(patched.kubeconfigs[RECORDED])]
    argv += ["--lab-dir", str(patched.lab), *(["--json"] if json_out else [])]
    outcome = run_cli(argv, stdout=stdout)
    assert outcome.error is None and "Traceback" not in outcome.err
    if stdout in ("ascii", "utf-8"):
        assert outcome.code == 1  # judged: not all green
        assert "\\udc80" in outcome.out or "\\udcff" in outcome.out or json_out
    elif stdout == "broken-pipe":
        assert outcome.code == 1 and outcome.err == ""  # a reader that left is no error
    else:
        assert outcome.code == 1
        assert text("ko", "cli.stdout-failed", error="").rstrip(": ") in outcome.err


# ---------------------------------------------------------------- output through real pipes

BIG_MATCH = textwrap.dedent(
    """
    import sys
    import gsb_tui.match_cli as m
    from gsb_tui.kube.store import Change, Store
    from gsb_tui.snapshot import Kind

    devices = [{"name": f"gpu-{i}", "attributes": {}} for i in range(5000)]
    slice_ = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
              "metadata": {"name": "s"},
              "spec": {"driver": "gpu.example.com", "pool": {"name": "p", "generation": 1,
                       "resourceSliceCount": 1}, "nodeName": "n", "devices": devices}}
    store = Store((Kind.SLICES, Kind.CLASSES))
    store.apply(Change(Kind.SLICES, "SYNCED", items=(slice_,)))
    store.apply(Change(Kind.CLASSES, "SYNCED", items=()))
    from gsb_tui.snapshot import KindState
    for kind in (Kind.SLICES, Kind.CLASSES):
        store.apply(Change(kind, "STATE", state=KindState(phase="synced")))

    async def fetch(*_a, **_k):
        return store.snapshot()

    m.fetch_snapshot = fetch
    from gsb_tui.cli import main
    sys.exit(main(["match", "true", "--kubeconfig", "/nowhere"]))
    """
)


def shell(pipeline: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`pipeline` in bash (pipefail), $GSB being `match` over 5,000 devices (~200 KB out)."""
    script = tmp_path / "big_match.py"
    script.write_text(BIG_MATCH)
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {pipeline}"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={
            **os.environ,
            "GSB": f"{sys.executable} {script}",
            "ERR": str(tmp_path / "err"),
            **env,
        },
    )


def test_broken_pipe_through_head_and_true(tmp_path: Path) -> None:
    head = shell('$GSB 2>"$ERR" | head -1 >/dev/null; echo ${PIPESTATUS[0]}', tmp_path)
    assert head.stdout.strip() == "0", head.stderr
    err = (tmp_path / "err").read_text()
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err
    true = shell("$GSB | true", tmp_path)
    assert true.returncode == 0, true.stderr
    assert "Traceback" not in true.stderr and "Exception ignored" not in true.stderr


def test_dev_full_and_closed_stdout_through_the_shell(tmp_path: Path) -> None:
    full = shell("$GSB >/dev/full", tmp_path)
    assert full.returncode == 1
    assert full.stderr.strip().endswith("cannot write to standard output: No space left on device")
    assert "Traceback" not in full.stderr
    closed = shell("$GSB >&-", tmp_path)
    assert closed.returncode == 1 and "Traceback" not in closed.stderr
    ascii_only = shell("$GSB --lang ko >/dev/null", tmp_path, PYTHONIOENCODING="ascii")
    assert ascii_only.returncode == 0 and "Traceback" not in ascii_only.stderr


# ---------------------------------------------------------------- recordings and `record`


def replay(path: Path) -> tuple[Store, ReplaySource]:
    store = Store()
    source = ReplaySource(path, speed=0)
    asyncio.run(source.run(store.apply))
    return store, source


def test_a_truncated_recording_is_replayed_up_to_its_cut(tmp_path: Path) -> None:
    lines = RECORDING.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(lines[:-1]))
    store, source = replay(cut)
    assert source.stats.bad_lines == 1 and source.stats.first_bad == len(lines)
    assert source.stats.changes == len(lines) - 1
    expected, _ = replay(whole)
    assert store.snapshot().objects == expected.snapshot().objects


def test_stray_lines_are_skipped_and_an_empty_recording_says_so(tmp_path: Path) -> None:
    stray = tmp_path / "stray.jsonl"
    good = json.dumps({"t": 0, "kind": "pods", "type": "MARK", "label": "a"})
    bad_lines = [
        "[1, 2]",
        '"text"',
        '{"t": "soon", "kind": "pods", "type": "MARK"}',
        '{"t": 1e999, "kind": "pods", "type": "MARK"}',
        '{"kind": "nope", "type": "MARK"}',
        '{"kind": "pods", "type": "ADDED", "object": {"metadata": "x"}}',
        '{"kind": "pods", "type": "STATE", "state": {"phase": "weird"}}',
        "[" * 50_000,
    ]
    stray.write_text("\n".join([good, *bad_lines, good]) + "\n")
    stats = ReadStats()
    assert len(list(read_changes(stray, stats))) == 2
    assert stats.bad_lines == len(bad_lines) and stats.first_bad == 2
    for name, data, says in (
        ("empty", b"", "is empty"),
        ("junk", b"{oops\n", "no recorded changes (1 line(s)"),
    ):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        store, _ = replay(path)
        states = [store.snapshot().state(k) for k in Kind]
        assert all(s.phase == "error" and says in s.message for s in states)


LINES = 40_000


def test_a_huge_recording_streams_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("w") as fh:
        Recorder(fh, start=0.0).write(Change(Kind.PODS, "MARK", label="start"), at=0.0)
        state = KindState(phase="reconnecting", message="x" * 200, attempts=1)
        line = json.dumps({"t": 1.0, **Change(Kind.PODS, "STATE", state=state).to_json()})
        fh.write((line + "\n") * LINES)
    assert path.stat().st_size > LINES * 200
    source = ReplaySource(path, speed=0)
    seen = Counter[str]()
    tracemalloc.start()
    try:
        asyncio.run(source.run(lambda change: seen.update([change.type])))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen["STATE"] == LINES
    assert peak < 4_000_000, peak  # the whole file as Changes would be tens of MB


def test_a_recording_that_is_a_fifo_is_refused(world: World) -> None:
    store = Store()
    source = ReplaySource(world.recordings["fifo"], speed=0)
    with pytest.raises(RecordingError, match="is a FIFO, not a regular file"):
        asyncio.run(source.run(store.apply))


def test_record_refuses_to_overwrite_without_force(patched: World, tmp_path: Path) -> None:
    target = tmp_path / "rec.jsonl"
    target.write_text("precious\n")
    closed = str(patched.kubeconfigs["closed"])
    outcome = run_cli(["--lang", "en", "record", "--kubeconfig", closed, str(target)])
    assert outcome.code == 64
    assert f"{target} already exists; pass --force to overwrite it" in outcome.err
    assert target.read_text() == "precious\n"
    # --force against a closed port: never synced, exit 2, and the old file is untouched.
    outcome = run_cli(["--lang", "en", "record", "--force", "--kubeconfig", closed, str(target)])
    assert outcome.code == 2, outcome.err
    assert "nothing recorded" in outcome.err and "Connection refused" in outcome.err
    assert target.read_text() == "precious\n"


def test_record_against_a_closed_port_exits_2_and_writes_nothing(
    patched: World, tmp_path: Path
) -> None:
    target = tmp_path / "rec.jsonl"
    closed = str(patched.kubeconfigs["closed"])
    outcome = run_cli(["--lang", "en", "record", "--kubeconfig", closed, str(target)])
    assert outcome.code == 2
    assert not target.exists()
    for bad, says in (
        (tmp_path, "is a directory, not a regular file"),
        (tmp_path / "no" / "x", "its folder does not exist"),
    ):
        outcome = run_cli(["--lang", "en", "record", "--kubeconfig", closed, str(bad)])
        assert outcome.code == 64 and says in outcome.err


# ---------------------------------------------------------------- the figures


def write_figures(path: Path) -> None:
    """The figures of this run, for bench/hostile.py (tests/conftest.py writes them when the
    session ends, where GSB_HOSTILE_REPORT says: a report, not a test)."""
    families: dict[str, dict[str, int]] = {}
    for (family, what), count in FIGURES.items():
        families.setdefault(family, {})[what] = count
    path.write_text(json.dumps(families, indent=2))


def test_a_device_count_of_thousands_of_digits_is_a_plain_reason(tmp_path: Path) -> None:
    """slices.txt with devices=<4,301 digits> used to raise (Python's int digit limit)."""
    from gsb_tui.lab.checks import CHECKS
    from gsb_tui.lab.files import LabFiles
    from tests.recorded import view

    lab = tmp_path / "lab"
    lab.mkdir()
    (lab / "slices.txt").write_text("driver=gpu.example.com\ndevices=" + "9" * 4301 + "\n")
    before = sorted(p.name for p in lab.iterdir())
    verdict = CHECKS[1](view("step-8"), LabFiles(lab))
    assert not verdict.ok
    devices = next(s for s in verdict.subchecks if s.name == "devices")
    assert devices.ok is False and len(devices.reason) < 200
    assert sorted(p.name for p in lab.iterdir()) == before  # nothing written
