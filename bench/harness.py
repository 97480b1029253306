"""What the live benchmarks share: figures, percentiles, /proc readings, a busy core, a practice
cluster with a keep-alive client and the API server's own readings, kubectl's watch with
arrival timestamps, the real gsb-tui in tmux, and the headless app instrumented at render.

Benchmarks print figures (`name value unit`); they never assert timings.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shlex
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.lab_run import kubectl
from gsb_tui.cluster.process import is_zombie, start_ticks
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed import LAB_NAMESPACE
from gsb_tui.ui import ask_frame_rate

# The benchmarks that start the App import this module first: Textual gets gsb-tui's frame
# rate as `gsb-tui` asks for it (ui/run.make_app), before it is imported.
ask_frame_rate()

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GSB_TUI = ROOT / ".venv" / "bin" / "gsb-tui"
NO_LAB_DIR = Path("/nonexistent-gsb-bench-lab")
CLAIMS_PATH = f"/apis/resource.k8s.io/v1/namespaces/{LAB_NAMESPACE}/resourceclaims"
PODS_PATH = f"/api/v1/namespaces/{LAB_NAMESPACE}/pods"
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- figures ---------------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    value: float | str
    unit: str
    note: str = ""

    def line(self) -> str:
        value = f"{self.value:.3g}" if isinstance(self.value, float) else str(self.value)
        if isinstance(self.value, float) and abs(self.value) >= 1000:
            value = f"{self.value:.0f}"
        return f"{self.name} {value} {self.unit}"


@dataclass
class Figures:
    """Every figure of one run, in the order measured; printed as soon as it is known."""

    items: list[Figure] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)  # section -> observations

    def add(self, name: str, value: float | str, unit: str, note: str = "") -> None:
        fig = Figure(name, value, unit, note)
        self.items.append(fig)
        print(fig.line(), flush=True)

    def note(self, section: str, text: str) -> None:
        self.notes.setdefault(section, []).append(text)
        print(f"# {section}: {text}", file=sys.stderr, flush=True)

    def get(self, name: str) -> float | None:
        for fig in self.items:
            if fig.name == name and isinstance(fig.value, float | int):
                return float(fig.value)
        return None


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: p95 of 200 values is the 190th)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.4999)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# --- /proc -------------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int, children: bool = False) -> float:
    """utime + stime of one process, in seconds (fields 14 and 15 of /proc/<pid>/stat), or
    with `children` cutime + cstime (16 and 17: the children it has reaped)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    first = 13 if children else 11
    return (int(fields[first]) + int(fields[first + 1])) / CLK_TCK


def idle_cpu_pct(pid: int, seconds: float) -> float:
    start_cpu, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return 100 * (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start)


# --- a busy core ------------------------------------------------------------------------------

# Bounded by its own deadline too: a bench killed before its cleanup leaves no spinning process.
BUSY_LOOP = (
    "import sys, time\n"
    "end = time.monotonic() + float(sys.argv[1])\n"
    "while time.monotonic() < end:\n"
    "    pass\n"
)


@dataclass
class BusyLoad:
    pid: int
    core: int
    started: float
    cpu_at_start: float
    cpu_pct: float = float("nan")  # of one core, over its life (set when it is stopped)


@contextlib.contextmanager
def busy_core(core: int = 0, limit_s: float = 900.0) -> Iterator[BusyLoad]:
    """A CPU-bound Python loop pinned to one core (sched_setaffinity, as `taskset -c core`)
    while inside; stopped on the way out, also on error, and by its own deadline regardless."""
    core = min(core, (os.cpu_count() or 1) - 1)
    proc = subprocess.Popen(
        [sys.executable, "-c", BUSY_LOOP, str(limit_s)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.sched_setaffinity(0, {core}),  # pinned before it runs a loop
    )
    load = BusyLoad(proc.pid, core, time.monotonic(), 0.0)
    try:
        with contextlib.suppress(OSError):
            load.cpu_at_start = cpu_seconds(proc.pid)
        yield load
    finally:
        with contextlib.suppress(OSError):
            spent = cpu_seconds(proc.pid) - load.cpu_at_start
            load.cpu_pct = 100 * spent / max(1e-9, time.monotonic() - load.started)
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- the cluster -------------------------------------------------------------------------------


@contextlib.contextmanager
def practice_cluster(settings: Settings) -> Iterator[ControlPlane]:
    """A control plane in a temporary state dir, always stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="gsb-bench-") as tmp:
        cp = ControlPlane(Path(tmp))
        started = time.monotonic()
        try:
            cp.up(settings, log=lambda _m: None)
            log(
                f"cluster up in {time.monotonic() - started:.1f} s "
                f"({settings.nodes} node(s) x {settings.devices} devices)"
            )
            yield cp
        finally:
            cp.down(log=lambda _m: None)


class Client:
    """Keep-alive HTTPS to the practice API server, one connection per thread (the cluster's
    Rest opens a TLS connection per request: at thousands of creates that handshake is most
    of the cost, on both sides)."""

    def __init__(self, cp: ControlPlane) -> None:
        rest = cp.rest()
        url = urlsplit(rest.server)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 443
        self.token = rest.token
        self.ctx = rest.ctx or ssl.create_default_context()
        self.local = threading.local()

    def _conn(self) -> http.client.HTTPSConnection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = http.client.HTTPSConnection(self.host, self.port, context=self.ctx, timeout=30)
            self.local.conn = conn
        return conn

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = (
                "application/merge-patch+json" if method == "PATCH" else "application/json"
            )
        for attempt in range(3):
            conn = self._conn()
            try:
                conn.request(method, path, body=data, headers=headers)
                resp = conn.getresponse()
                return resp.status, resp.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                self.local.conn = None
                if attempt == 2:
                    raise
                time.sleep(0.2)
        raise AssertionError("unreachable")

    def get(self, path: str) -> dict[str, Any]:
        status, raw = self.request("GET", path)
        if status >= 300:
            raise RestError(status, raw.decode(errors="replace")[:300])
        out = json.loads(raw)
        return out if isinstance(out, dict) else {}

    def text(self, path: str) -> str:
        status, raw = self.request("GET", path)
        if status >= 300:
            raise RestError(status, raw.decode(errors="replace")[:300])
        return raw.decode(errors="replace")

    def create(self, path: str, body: dict[str, Any]) -> int:
        """The HTTP status (409: it exists already)."""
        return self.request("POST", path, body)[0]

    def delete(self, path: str) -> int:
        return self.request("DELETE", path)[0]

    def patch(self, path: str, body: dict[str, Any]) -> int:
        return self.request("PATCH", path, body)[0]


def apiserver_pid(cp: ControlPlane) -> int | None:
    return cp.running().get("kube-apiserver")


def apiserver_metrics(cp: ControlPlane, names: tuple[str, ...]) -> dict[str, float]:
    """Some of the API server's own /metrics (unlabelled series), read once."""
    rest = cp.rest()
    req = urllib.request.Request(rest.server + "/metrics")
    req.add_header("Authorization", f"Bearer {rest.token}")
    with urllib.request.urlopen(req, timeout=30, context=rest.ctx) as resp:
        body = resp.read().decode(errors="replace")
    out: dict[str, float] = {}
    for line in body.splitlines():
        name, _, value = line.partition(" ")
        if name in names:
            out[name] = float(value)
    return out


class PeakRss:
    """Samples one process's RSS every `every` seconds in a thread while inside."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.pid, self.every = pid, every
        self.samples: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError, ValueError):
                self.samples.append(rss_mb(self.pid))
            time.sleep(self.every)

    @property
    def peak(self) -> float:
        return max(self.samples, default=float("nan"))

    def __enter__(self) -> PeakRss:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)


def claim_body(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": LAB_NAMESPACE},
        "spec": {
            "devices": {
                "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]
            }
        },
    }


def pod_body(name: str, claim: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": LAB_NAMESPACE},
        "spec": {
            "terminationGracePeriodSeconds": 0,
            "containers": [
                {
                    "name": "ctr",
                    "image": "ubuntu:22.04",
                    "command": ["sleep", "infinity"],
                    "resources": {"claims": [{"name": "gpu"}]},
                }
            ],
            "resourceClaims": [{"name": "gpu", "resourceClaimName": claim}],
        },
    }


def delete_quietly(rest: Rest, path: str) -> None:
    with contextlib.suppress(RestError):
        rest.delete(path)


def kubectl_args(cp: ControlPlane, *args: str) -> list[str]:
    return [kubectl(), f"--kubeconfig={cp.kubeconfig}", *args]


def wall_time(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> tuple[float, int]:
    """Median wall time of a command (seconds) and its last exit code."""
    times, code = [], 0
    for _ in range(runs):
        started = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, env=env, check=False)
        times.append(time.monotonic() - started)
        code = proc.returncode
    return median(times), code


# --- kubectl get -w ----------------------------------------------------------------------------


class KubectlWatch:
    """`kubectl get resourceclaims -w --output-watch-events` with each line timestamped on
    arrival (a reader thread; kubectl writes unbuffered)."""

    def __init__(
        self, cp: ControlPlane, resource: str = "resourceclaims", watch_only: bool = False
    ) -> None:
        # watch_only: kubectl lists (for the resourceVersion) but prints none of the existing
        # rows; at thousands of claims their printing would run into the measured events.
        self.cmd = kubectl_args(
            cp,
            "-n",
            LAB_NAMESPACE,
            "get",
            resource,
            "-w",
            "--output-watch-events",
            *(["--watch-only"] if watch_only else []),
        )
        self.seen: dict[tuple[str, str], float] = {}  # (EVENT, name) -> first arrival
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.thread: threading.Thread | None = None

    def __enter__(self) -> KubectlWatch:
        self.proc = subprocess.Popen(
            self.cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
        )
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            now = time.monotonic()
            parts = raw.decode(errors="replace").split()
            if len(parts) >= 2:
                with self.lock:
                    self.seen.setdefault((parts[0], parts[1]), now)

    def when(self, event: str, name: str) -> float | None:
        with self.lock:
            return self.seen.get((event, name))

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --- the real gsb-tui process in tmux ----------------------------------------------------------


class TmuxApp:
    """The installed `gsb-tui` running in a detached tmux session of a given size.

    The session starts with an idle `cat`, then `respawn-pane` execs gsb-tui: process start is
    the moment of respawn, not tmux's own start-up.
    """

    def __init__(self, args: list[str], width: int = 200, height: int = 60) -> None:
        self.session = f"gsb-bench-{os.getpid()}-{time.monotonic_ns() % 10**9}"
        # A server of its own: nobody else's sessions, options or restarts get in the way.
        self.socket = self.session
        self.args = args
        self.width, self.height = width, height
        self.started = 0.0

    def _tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        ).stdout

    def __enter__(self) -> TmuxApp:
        started = subprocess.run(
            [
                "tmux",
                "-L",
                self.socket,
                "new-session",
                "-d",
                "-s",
                self.session,
                "-x",
                str(self.width),
                "-y",
                str(self.height),
                "cat",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if started.returncode:
            raise RuntimeError(
                f"tmux new-session failed ({started.returncode}): {started.stderr.strip()}"
            )
        self._tmux("set-option", "-t", self.session, "remain-on-exit", "on")
        env = f"XDG_STATE_HOME={shlex.quote(tempfile.gettempdir())}/gsb-bench-state"
        command = f"exec env {env} " + " ".join(shlex.quote(a) for a in self.args)
        self.started = time.monotonic()
        self._tmux("respawn-pane", "-k", "-t", self.session, command)
        return self

    def pid(self) -> int:
        return int(self._tmux("display-message", "-p", "-t", self.session, "#{pane_pid}").strip())

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.session)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float) -> float | None:
        """Seconds from process start until the screen satisfies predicate (None: never)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.screen()):
                return time.monotonic() - self.started
            time.sleep(0.01)
        return None

    def __exit__(self, *exc: object) -> None:
        pane = self._tmux("display-message", "-p", "-t", self.session, "#{pane_pid}").strip()
        self._tmux("send-keys", "-t", self.session, "q")
        time.sleep(0.3)
        socket = self._tmux("display-message", "-p", "#{socket_path}").strip()
        self._tmux("kill-server")
        if socket:
            Path(socket).unlink(missing_ok=True)
        if pane.isdigit():
            gone(int(pane), LEFTOVER_S)


LEFTOVER_S = 3.0  # a gsb-tui still running this long after its terminal went is killed


def gone(pid: int, within: float) -> None:
    """The process is gone: it left within `within` of its terminal closing, or it is killed
    (and said): a leftover would share the cores every later figure is timed on."""
    deadline = time.monotonic() + within
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if not running(pid):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
        log(f"pid {pid} still ran {within:.0f} s after its terminal closed: killed")


def running(pid: int) -> bool:
    """Still running: in /proc and not a zombie its new parent has yet to reap."""
    return start_ticks(pid) is not None and not is_zombie(pid)


def all_synced(screen: str) -> bool:
    """The header's watch line names all seven kinds synced (wide terminal)."""
    return any(line.count(" synced") >= 7 for line in screen.splitlines()[:4])


def gsb_tui_args(cp: ControlPlane, lab_dir: Path = NO_LAB_DIR) -> list[str]:
    return [
        str(GSB_TUI),
        f"--kubeconfig={cp.kubeconfig}",
        "-n",
        LAB_NAMESPACE,
        f"--lab-dir={lab_dir}",
        "--lang=en",
    ]
