"""One real node beside the kwok nodes: containerd, a kubelet and the practice DRA driver.

Here the node half of DRA happens for real: the kubelet calls the driver's
NodePrepareResources, containerd injects the CDI devices (GPU_DEVICE_<n>), and the kubelet
reports device health in pod status. Everything lives under <cluster dir>/node; `stop` leaves
no process, mount or cgroup behind (the kubelet does not stop pods when it exits, and runc's
shims outlive containerd, so each is ended explicitly, deepest first).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from gsb_tui.cluster import node_config, seed
from gsb_tui.cluster.node_build import PAUSE_IMAGE, NodeBinaries
from gsb_tui.cluster.process import free_port, start_ticks, terminate
from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.words import t

# Stop order (start order is the reverse).
COMPONENTS = ("practice-driver", "kubelet", "containerd")
NODE_LABEL = ("type", "real")
CTR_TIMEOUT = 60.0
CGROUP_ROOT = Path("/sys/fs/cgroup")
Log = Callable[[str], None]
# The control plane's: start a component with its log and pid file (env None: ours).
Spawn = Callable[[str, list[str], "dict[str, str] | None"], subprocess.Popen[bytes]]
# The control plane's: wait for a check while watching that the processes live.
Wait = Callable[[str, Callable[[], bool], "dict[str, subprocess.Popen[bytes]]", float], None]


class NodeError(RuntimeError):
    """The real node could not start; the message says why and where its log is."""


def node_name() -> str:
    """The host's name, which must resolve to loopback: the kubelet names its node after it and
    the API server reaches the kubelet through it (a loopback --node-ip is refused)."""
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        address = ""
    if not address.startswith("127."):
        raise NodeError(
            f"the host name {name!r} must resolve to 127.0.0.1 for the real node "
            f"(it resolves to {address or 'nothing'}): add '127.0.0.1 {name}' to /etc/hosts"
        )
    return name


def check_can_run() -> None:
    if os.geteuid() != 0:
        raise NodeError(
            "--real-node needs root: a kubelet and containerd create cgroups, mounts and "
            "network namespaces (run `sudo gsb-tui cluster up --real-node`)"
        )
    node_name()
    if pod_pids() or _kubelets():
        raise NodeError(
            "a kubelet already runs on this host (one real node per host: it is named after "
            "the host and owns the kubepods cgroups); stop its cluster with "
            "`gsb-tui cluster --dir DIR down` first"
        )


def _kubelets() -> set[int]:
    found = set()
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "exe")).name == "kubelet":
                found.add(int(proc.name))
        except OSError:
            continue
    return found


def ctr(bins: NodeBinaries, paths: node_config.NodePaths, *args: str) -> str:
    """Run `ctr` against the node's containerd (namespace k8s.io), bounded in time."""
    cmd = [str(bins.ctr), "--address", str(paths.containerd_sock), "-n", "k8s.io", *args]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=CTR_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        raise NodeError(f"`ctr {' '.join(args)}` took more than {CTR_TIMEOUT:.0f} s") from exc
    if done.returncode != 0:
        raise NodeError(f"`ctr {' '.join(args)}` failed: {done.stderr.strip()[-400:]}")
    return done.stdout


def prepare(paths: node_config.NodePaths, bins: NodeBinaries) -> None:
    """Write containerd's and the CNI's configuration, install the CNI plugin twice."""
    for d in (paths.containerd_root, paths.containerd_state, paths.cni_bin, paths.cni_conf):
        d.mkdir(parents=True, exist_ok=True)
    paths.cdi.mkdir(parents=True, exist_ok=True)
    paths.kubelet_root.mkdir(parents=True, exist_ok=True)
    paths.containerd_config.write_text(node_config.containerd_toml(paths, bins.runc, PAUSE_IMAGE))
    # containerd's CRI always runs a loopback network before the pod's own.
    for name in (node_config.NETWORK, "loopback"):
        shutil.copy2(bins.cni, paths.cni_bin / name)
    conflist = paths.cni_conf / "10-gsb-tui.conflist"
    conflist.write_text(json.dumps(node_config.cni_conflist(), indent=2))


def containerd_env(bins: NodeBinaries) -> dict[str, str]:
    """containerd finds its shim and runc on PATH."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(
        [str(bins.shim_dir), str(bins.runc.parent), "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
    )
    return env


def import_images(bins: NodeBinaries, paths: node_config.NodePaths) -> None:
    for tar in (bins.pause_tar, bins.busybox_tar):
        ctr(bins, paths, "images", "import", "--local", str(tar))


def kubelet_args(
    bins: NodeBinaries, paths: node_config.NodePaths, kubeconfig: Path, names: tuple[str, ...]
) -> tuple[list[str], dict[str, int]]:
    ports = {"kubelet": free_port(), "kubelet_healthz": free_port()}
    config = node_config.kubelet_config(paths, ports["kubelet"], ports["kubelet_healthz"], names)
    paths.kubelet_config.write_text(json.dumps(config, indent=2))
    key, value = NODE_LABEL
    args = [
        str(bins.kubelet),
        f"--config={paths.kubelet_config}",
        f"--kubeconfig={kubeconfig}",
        f"--root-dir={paths.kubelet_root}",
        f"--node-labels={key}={value}",
        "--v=2",
    ]
    return args, ports


def driver_args(
    bins: NodeBinaries, paths: node_config.NodePaths, kubeconfig: Path, node: str, devices: int
) -> list[str]:
    return [
        str(bins.driver),
        f"--kubeconfig={kubeconfig}",
        f"--node-name={node}",
        f"--kubelet-dir={paths.kubelet_root}",
        f"--cdi-dir={paths.cdi}",
        f"--devices={devices}",
        f"--driver={seed.DRIVER}",
    ]


def start(
    spawn: Spawn,
    wait: Wait,
    paths: node_config.NodePaths,
    bins: NodeBinaries,
    kubeconfig: Path,
    rest: Rest,
    names: tuple[str, ...],
    devices: int,
    log: Log,
) -> dict[str, object]:
    """containerd (images imported), the kubelet (node Ready), the practice driver (its slice
    published); returns what cluster.json records of the node."""
    node = node_name()
    prepare(paths, bins)
    log(t("cluster.starting-node", component="containerd", log=paths.containerd_sock))
    procs = {"containerd": spawn("containerd", containerd_args(bins, paths), containerd_env(bins))}

    def containerd_up() -> bool:
        try:
            ctr(bins, paths, "version")
            return True
        except NodeError:
            return False

    wait("containerd to answer", containerd_up, procs, 60)
    import_images(bins, paths)
    args, ports = kubelet_args(bins, paths, kubeconfig, names)
    log(t("cluster.starting-node", component="kubelet", log=node))
    procs["kubelet"] = spawn("kubelet", args, None)

    def ready() -> bool:
        try:
            status = rest.get(f"/api/v1/nodes/{node}").get("status") or {}
        except RestError:
            return False
        return any(
            c.get("type") == "Ready" and c.get("status") == "True"
            for c in status.get("conditions") or []
        )

    wait(f"the kubelet to register node {node} Ready", ready, procs, 90)
    log(t("cluster.starting-node", component="practice-driver", log=seed.DRIVER))
    procs["practice-driver"] = spawn(
        "practice-driver", driver_args(bins, paths, kubeconfig, node, devices), None
    )

    def published() -> bool:
        path = f"/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.nodeName={node}"
        try:
            return bool(rest.get(path).get("items"))
        except RestError:
            return False

    wait(f"the practice driver's ResourceSlice on {node}", published, procs, 60)
    return {"name": node, "dir": str(paths.root), "ports": ports, "driver": seed.DRIVER}


def containerd_args(bins: NodeBinaries, paths: node_config.NodePaths) -> list[str]:
    return [str(bins.containerd), f"--config={paths.containerd_config}", "--log-level=warn"]


# ---- stop ------------------------------------------------------------------------------------


def _kubepods() -> list[Path]:
    """The kubelet's cgroup trees, one per cgroup v1 hierarchy (and v2's, if mounted)."""
    if not CGROUP_ROOT.is_dir():
        return []
    found = [d / "kubepods" for d in CGROUP_ROOT.iterdir() if (d / "kubepods").is_dir()]
    if (CGROUP_ROOT / "kubepods").is_dir():
        found.append(CGROUP_ROOT / "kubepods")
    return found


def _walk_deepest_first(root: Path) -> Iterator[Path]:
    children = [p for p in root.iterdir() if p.is_dir()] if root.is_dir() else []
    for child in children:
        yield from _walk_deepest_first(child)
    yield root


def pod_pids() -> set[int]:
    """Every process in a pod's cgroup: containers and pause."""
    pids: set[int] = set()
    for tree in _kubepods():
        for group in _walk_deepest_first(tree):
            try:
                text = (group / "cgroup.procs").read_text()
            except OSError:
                continue
            pids.update(int(p) for p in text.split() if p.isdigit())
    return pids


def _pids_of(exe_dir: Path) -> set[int]:
    """Running processes whose executable lives in `exe_dir` (our shims)."""
    found: set[int] = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            exe = Path(os.readlink(proc / "exe"))
        except OSError:
            continue
        if exe.parent == exe_dir:
            found.add(int(proc.name))
    return found


SHIM_SOCKETS = Path("/run/containerd/s")  # fixed in containerd's shim, whatever its config


def shim_sockets(pids: set[int]) -> list[Path]:
    """The sockets our shims listen on: a shim killed by signal leaves its socket file, named
    by the sha256 of <containerd address>/<namespace>/<id> (containerd's pkg/shim)."""
    found = []
    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except (OSError, UnicodeDecodeError):
            continue
        opts = dict(itertools.pairwise(argv))
        if {"-namespace", "-id", "-address"} <= opts.keys():
            key = os.path.join(opts["-address"], opts["-namespace"], opts["-id"])
            found.append(SHIM_SOCKETS / hashlib.sha256(key.encode()).hexdigest())
    return found


def kill_all(pids: set[int], timeout: float = 10.0) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(start_ticks(p) is not None for p in pids):
        time.sleep(0.05)


def _unescape(field: str) -> str:
    """mountinfo escapes space, tab, newline and backslash as octal."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def mounts_under(root: Path) -> list[Path]:
    """Mount points at or below `root`, deepest first (each read of mountinfo is fresh)."""
    prefix = str(root.resolve())
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = _unescape(line.split()[4])
        if point == prefix or point.startswith(prefix + "/"):
            found.append(Path(point))
    return sorted(found, key=lambda p: (-len(p.parts), str(p)))


def unmount_all(root: Path) -> list[str]:
    """Unmount everything under `root`; returns what could not be unmounted."""
    failed: list[str] = []
    for _ in range(5):  # a mount may hide another at the same point
        points = mounts_under(root)
        if not points:
            return []
        failed = []
        for point in points:
            done = subprocess.run(
                ["umount", str(point)], capture_output=True, text=True, timeout=30
            )
            if done.returncode != 0:
                lazy = subprocess.run(["umount", "-l", str(point)], capture_output=True, timeout=30)
                if lazy.returncode != 0:
                    failed.append(f"{point}: {done.stderr.strip()}")
    return failed


def remove_cgroups() -> list[str]:
    failed = []
    for tree in _kubepods():
        for group in _walk_deepest_first(tree):
            try:
                group.rmdir()
            except OSError as exc:
                failed.append(f"{group}: {exc.strerror}")
    return failed


def stop(
    paths: node_config.NodePaths,
    shim_dir: Path | None,
    alive: Callable[[str], int | None],
    forget: Callable[[str], None],
    log: Log,
) -> int:
    """Stop the driver and the kubelet, end every pod process, then containerd and its shims;
    unmount and remove what they left. Returns how many of our components were stopped."""
    stopped = 0
    for name in COMPONENTS:
        if name == "containerd":
            kill_all(pod_pids())  # the kubelet is gone: nobody restarts them now
        pid = alive(name)
        forget(name)
        if pid is None:
            continue
        terminate(pid)
        log(t("cluster.stopped", name=name, pid=pid))
        stopped += 1
    if shim_dir is not None:
        shims = _pids_of(shim_dir)
        sockets = shim_sockets(shims)
        kill_all(shims)
        for sock in sockets:
            sock.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # only when empty: another containerd may use it
            SHIM_SOCKETS.rmdir()
    kill_all(pod_pids())
    problems = unmount_all(paths.root) + remove_cgroups()
    if problems:
        log(t("cluster.node-leftovers", what="; ".join(problems[:5])))
    return stopped
