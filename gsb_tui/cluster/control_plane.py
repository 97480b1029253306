"""Start and stop a real Kubernetes control plane on loopback for the DRA lab: the recipe
(components, flags, certificates, kubeconfig, seeding); process.py starts and stops processes.
etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok each log apart; pid files
(with the start time: a recycled pid is never ours) let `down` stop exactly what `up` started,
one `up` or `down` at a time per state directory (state_lock.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gsb_tui.cluster import flags, node_config, profiles, real_node, seed, seed_run
from gsb_tui.cluster.build import Binaries, ensure_binaries
from gsb_tui.cluster.node_build import ensure_node_binaries
from gsb_tui.cluster.pki import Pki, admin_kubeconfig, read_token, write_pki
from gsb_tui.cluster.process import (
    PidFile,
    free_port,
    log_tail,
    signal_until_gone,
    spawn,
    terminate,
    wait_port_free,
    wait_start_ticks,
)
from gsb_tui.cluster.rest import Rest
from gsb_tui.cluster.state_lock import locked
from gsb_tui.words import t

Log = Callable[[str], None]  # given catalog Texts (cluster.*): the caller picks the language
# Stop order; start order is the reverse.
COMPONENTS = ("kwok", "kube-scheduler", "kube-controller-manager", "kube-apiserver", "etcd")
# Started by some profiles only (profiles.Profile.components); stopped before the rest.
OPTIONAL = ("binding-driver", *real_node.COMPONENTS)


class ClusterError(RuntimeError):
    """Something about the practice cluster went wrong; the message says what to do."""


def default_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "gsb-tui" / "cluster"


@dataclass
class Settings:
    nodes: int = 1
    devices: int = 8
    node_prefix: str = "lab-node"
    audit: bool = True
    profiles: tuple[str, ...] = profiles.DEFAULT  # see profiles.py; ("lab",) is the lab
    partitions: int = 2  # per GPU, `partitions` profile
    binding_delay: float = 2.0  # seconds before the practice driver answers, `binding`
    binding_fail: bool = False  # the practice driver sets the failure condition instead
    # The scheduler's client rate limit (0: its default, 50 requests/s). Binding one DRA pod
    # takes ~4 writes, so by default it places ~12.5 pods/s whatever the machine: the scale
    # benchmark raises it to fill thousands of pods in a few minutes.
    scheduler_qps: float = 0.0
    kube: str = "1.36"  # which Kubernetes release (gsb_tui/cluster/build.py RELEASES)
    real_node: bool = False  # a real kubelet + containerd + the practice driver (real_node.py)


@dataclass
class Timings:
    phases: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, started: float) -> None:
        self.phases[name] = round(time.monotonic() - started, 2)


class ControlPlane:
    """One practice cluster living in a state directory."""

    def __init__(self, state_dir: Path | None = None) -> None:
        self.dir = (state_dir or default_dir()).resolve()
        self.kubeconfig = self.dir / "kubeconfig"
        self.run_dir = self.dir / "run"
        self.log_dir = self.dir / "logs"
        self.pki = self.dir / "pki"
        self.info_file = self.dir / "cluster.json"
        self.node_paths = node_config.NodePaths(self.dir / "node")

    # ---- pid files -------------------------------------------------------------------------

    def _pid_file(self, name: str) -> PidFile:
        return PidFile(self.run_dir / f"{name}.pid")

    def _alive(self, name: str) -> int | None:
        """The pid of our component if it is still the process we started."""
        return self._pid_file(name).alive()

    def _forget(self, name: str) -> None:
        self._pid_file(name).remove()

    def running(self) -> dict[str, int | None]:
        names = [n for n in OPTIONAL if self._pid_file(n).exists()] + list(COMPONENTS)
        return {name: self._alive(name) for name in names}

    # ---- start -----------------------------------------------------------------------------

    def _log(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def _spawn(
        self, name: str, args: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        proc = spawn(args, self._log(name), cwd=self.dir, env=env)
        self._pid_file(name).write(proc.pid, wait_start_ticks(proc.pid), args)
        return proc

    def _wait(
        self,
        what: str,
        check: Callable[[], bool],
        procs: dict[str, subprocess.Popen[bytes]],
        timeout: float,
        interval: float = 0.1,
    ) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, proc in procs.items():
                if proc.poll() is not None:
                    raise ClusterError(
                        f"{name} exited with code {proc.returncode} while waiting for {what}; "
                        f"log: {self._log(name)}\n{log_tail(self._log(name))}"
                    )
            if check():
                return
            time.sleep(interval)
        raise ClusterError(
            f"timed out after {timeout:.0f} s waiting for {what}; logs in {self.log_dir}"
        )

    def _write_pki(self) -> Pki:
        pki = write_pki(self.pki)
        (self.pki / "audit-policy.yaml").write_text(flags.AUDIT_POLICY)
        return pki

    def _write_kubeconfig(self, server: str, pki: Pki, ca: bytes) -> None:
        config = admin_kubeconfig(server, pki, ca, namespace=seed.LAB_NAMESPACE)
        self.kubeconfig.write_text(json.dumps(config, indent=2))
        os.chmod(self.kubeconfig, 0o600)

    @locked(create=True)
    def up(self, settings: Settings | None = None, log: Log = print) -> dict[str, Any]:
        """Start every component, seed the lab objects; returns what cluster.json records."""
        settings = settings or Settings()
        settings = replace(settings, profiles=profiles.normalize(settings.profiles))
        live = {n: p for n, p in self.running().items() if p}
        if all(live.get(n) for n in COMPONENTS):
            had = tuple(self.info().get("profiles") or profiles.DEFAULT)
            if had != settings.profiles:
                raise ClusterError(
                    f"a cluster with profile(s) {','.join(had)} is running in {self.dir}; "
                    "run `gsb-tui cluster down` first to start one with "
                    f"{','.join(settings.profiles)}"
                )
            log(t("cluster.already-running", dir=self.dir))
            return self.info()
        if live:
            log(t("cluster.stopping-partial", names=", ".join(live)))
            self.down(log=lambda _m: None)
        self._clear_stale(log)
        if settings.real_node:
            real_node.check_can_run()
        bins = ensure_binaries(log, settings.kube)
        node_bins = ensure_node_binaries(log, settings.kube) if settings.real_node else None
        started = time.monotonic()
        timings = Timings()
        for sub in ("etcd", "pki", "logs", "run", "node"):
            shutil.rmtree(self.dir / sub, ignore_errors=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        pki = self._write_pki()
        ports = {
            "etcd": free_port(),
            "etcd_peer": free_port(),
            "apiserver": free_port(),
            "kwok": free_port(),
        }
        procs: dict[str, subprocess.Popen[bytes]] = {}
        node: dict[str, object] = {}
        try:
            self._start_all(bins, ports, pki, settings, procs, timings, log)
            if node_bins is not None:
                t0 = time.monotonic()
                rest = self.rest()
                node = real_node.start(
                    self._spawn,
                    self._wait,
                    self.node_paths,
                    node_bins,
                    self.kubeconfig,
                    rest,
                    settings.profiles,
                    settings.devices,
                    log,
                )
                timings.add("real_node", t0)
        except BaseException:
            self.down(log=lambda _m: None)
            raise
        timings.add("total", started)
        info = {
            "dir": str(self.dir),
            "kubeconfig": str(self.kubeconfig),
            "server": f"https://127.0.0.1:{ports['apiserver']}",
            "ports": ports,
            "nodes": seed.node_names(settings.node_prefix, settings.nodes),
            "devices_per_node": settings.devices,
            "kube": settings.kube,
            "profiles": list(settings.profiles),
            "feature_gates": profiles.feature_gates(settings.profiles),
            "runtime_config": profiles.runtime_config(settings.profiles, settings.kube),
            "controllers": flags.controllers(settings.profiles, settings.real_node),
            "real_node": node or None,
            "audit_log": str(self.log_dir / "audit.log") if settings.audit else "",
            "timings_s": timings.phases,
            "started_at": time.time(),
        }
        self.info_file.write_text(json.dumps(info, indent=2))
        log(t("cluster.ready", seconds=f"{timings.phases['total']:.1f}", server=info["server"]))
        return info

    def _start_all(
        self,
        bins: Binaries,
        ports: dict[str, int],
        pki: Pki,
        settings: Settings,
        procs: dict[str, subprocess.Popen[bytes]],
        timings: Timings,
        log: Log,
    ) -> None:
        t0 = time.monotonic()
        etcd_url = f"http://127.0.0.1:{ports['etcd']}"
        peer_url = f"http://127.0.0.1:{ports['etcd_peer']}"
        log(t("cluster.starting", component="etcd", url=etcd_url))
        procs["etcd"] = self._spawn("etcd", flags.etcd(bins, self.dir / "etcd", etcd_url, peer_url))
        etcd_rest = Rest(etcd_url, "", None)
        self._wait("etcd /health", lambda: etcd_rest.healthy("/health"), procs, 30)
        timings.add("etcd", t0)

        server = f"https://127.0.0.1:{ports['apiserver']}"
        log(t("cluster.starting", component="kube-apiserver", url=server))
        audit_log = self.log_dir / "audit.log" if settings.audit else None
        args = flags.apiserver(
            bins,
            etcd_url,
            ports["apiserver"],
            self.pki,
            pki,
            settings.profiles,
            audit_log,
            settings.kube,
        )
        procs["kube-apiserver"] = self._spawn("kube-apiserver", args)
        crt = self.pki / "apiserver.crt"
        self._wait("the API server's certificate", crt.is_file, procs, 60)
        # The generated file holds the serving cert and the self-signed CA that issued it.
        rest = Rest(server, pki.token, crt)
        self._wait("kube-apiserver /readyz", rest.healthy, procs, 90)
        self._write_kubeconfig(server, pki, crt.read_bytes())
        timings.add("apiserver_ready", t0)

        log(t("cluster.starting-rest"))
        names, kubeconfig = settings.profiles, self.kubeconfig
        procs["kube-controller-manager"] = self._spawn(
            "kube-controller-manager",
            flags.controller_manager(bins, kubeconfig, names, settings.real_node),
        )
        procs["kube-scheduler"] = self._spawn(
            "kube-scheduler", flags.scheduler(bins, kubeconfig, names, settings.scheduler_qps)
        )
        procs["kwok"] = self._spawn("kwok", flags.kwok(bins, kubeconfig, ports["kwok"]))

        log(
            t(
                "cluster.seeding",
                nodes=settings.nodes,
                devices=settings.devices,
                driver=seed.DRIVER,
                namespace=seed.LAB_NAMESPACE,
            )
        )
        if settings.profiles != profiles.DEFAULT:
            extra = [*profiles.apiserver_flags(settings.profiles, settings.kube)]
            extra += [f"+{c}" for c in profiles.controllers(settings.profiles)]
            shown = " ".join(extra) or "-"
            log(t("cluster.profiles", profiles=",".join(settings.profiles), flags=shown))
        seed_run.seed_cluster(
            rest,
            seed.node_names(settings.node_prefix, settings.nodes),
            settings.profiles,
            settings.devices,
            settings.partitions,
            lambda what, check, timeout, interval: self._wait(
                what, check, procs, timeout, interval
            ),
        )
        if "binding-driver" in profiles.components(settings.profiles):
            log(t("cluster.binding-driver", log=self._log("binding-driver")))
            driver = [sys.executable, "-m", "gsb_tui.cli", "cluster", "--dir", str(self.dir)]
            driver += ["binding-driver", f"--delay={settings.binding_delay:g}"]
            procs["binding-driver"] = self._spawn(
                "binding-driver", driver + (["--fail"] if settings.binding_fail else [])
            )
        timings.add("seeded", t0)

    # ---- stop / status ---------------------------------------------------------------------

    def _clear_stale(self, log: Log) -> None:
        for name in (*OPTIONAL, *COMPONENTS):
            if self._pid_file(name).exists() and not self._alive(name):
                self._pid_file(name).remove()
                log(t("cluster.stale-pid", name=name))

    @locked(create=False)
    def down(self, log: Log = print) -> int:
        """Stop what `up` started; returns how many processes were stopped."""
        stopped = 0
        if not self.run_dir.is_dir() or not any(self.run_dir.glob("*.pid")):
            if self.node_paths.root.is_dir():  # a crash may leave the node's mounts behind
                real_node.stop(self.node_paths, None, self._alive, self._forget, log)
            log(t("cluster.nothing-running", dir=self.run_dir))
            return 0
        if self.node_paths.root.is_dir():
            exe = (self._pid_file("containerd").read() or {}).get("exe")
            shims = Path(str(exe)).parent if exe else None
            stopped += real_node.stop(self.node_paths, shims, self._alive, self._forget, log)
        for name in (*OPTIONAL, *COMPONENTS):
            pid = self._alive(name)
            if pid is None:
                if self._pid_file(name).exists():
                    log(t("cluster.not-running", name=name))
                self._pid_file(name).remove()
                continue
            terminate(pid)
            self._pid_file(name).remove()
            log(t("cluster.stopped", name=name, pid=pid))
            stopped += 1
        return stopped

    def kill(self, name: str, sig: int = signal.SIGKILL) -> int:
        """Send a signal to one component (fault tests); returns its pid."""
        pid = self._alive(name)
        if pid is None:
            raise ClusterError(f"{name} is not running")
        signal_until_gone(pid, sig)  # gone, not just a zombie: `start_again` reuses its port
        return pid

    def start_again(self, name: str) -> None:
        """Start a stopped component with the arguments it had (restart after a fault)."""
        data = self._pid_file(name).read()
        if not data or not data.get("args"):
            raise ClusterError(f"no recorded arguments for {name}; run `up` again")
        if self._alive(name):
            raise ClusterError(f"{name} is still running")
        args = [str(a) for a in data["args"]]
        for arg in args:  # the old process's port may be a moment from free
            if arg.startswith("--secure-port="):
                wait_port_free(int(arg.split("=", 1)[1]))
        self._spawn(name, args)

    def info(self) -> dict[str, Any]:
        try:
            data = json.loads(self.info_file.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def status(self) -> dict[str, Any]:
        running = self.running()
        info = self.info()
        healthy = False
        if running.get("kube-apiserver") and self.kubeconfig.is_file():
            try:
                rest = self.rest()
                healthy = rest.healthy()
            except (OSError, ValueError, KeyError):
                healthy = False
        return {"dir": str(self.dir), "components": running, "api_ready": healthy, **info}

    def rest(self) -> Rest:
        """A client for this cluster (for seeding, tests and benchmarks; never the dashboard)."""
        config = json.loads(self.kubeconfig.read_text())
        cluster = config["clusters"][0]["cluster"]
        ca = self.pki / "apiserver.crt"
        return Rest(cluster["server"], read_token(self.pki), ca)
