"""Build what the real node runs: kubelet, containerd, the practice driver, CNI, images.

The kubelet comes from the release's own module (cluster/, cluster/v1.37/), beside the control
plane, so it is the cluster's version; containerd from a module of its own (cluster/node/), so
its dependencies never move the Kubernetes ones; the practice driver, the CNI plugin and the
pause program are ours (cluster/practicedriver, cluster/nodeparts). runc comes from the
system's packages: we say how to install it rather than build it.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gsb_tui.cluster import images
from gsb_tui.cluster.build import (
    BuildError,
    Log,
    _build_env,
    _run_step,
    cache_root,
    find_go,
    k8s_key,
    module_dir,
    version_ldflags,
)
from gsb_tui.cluster.releases import DEFAULT_RELEASE, RELEASES
from gsb_tui.words import t

KUBELET = "k8s.io/kubernetes/cmd/kubelet"
CONTAINERD_VERSION = "v2.4.2"
CONTAINERD_PACKAGES = ("cmd/containerd", "cmd/ctr")
SHIM_PACKAGE = "cmd/containerd-shim-runc-v2"
CONTAINERD_MODULE = "github.com/containerd/containerd/v2"
PAUSE_IMAGE = "registry.k8s.io/pause:3.10.2"  # containerd 2.4's default sandbox image
BUSYBOX_REFS = ("docker.io/library/busybox:latest", "docker.io/library/busybox:1.36")
BUSYBOX = Path("/usr/bin/busybox")
# What the node needs from the system's packages, and the Debian package that has it.
SYSTEM_TOOLS = (("runc", "runc"), ("nsenter", "util-linux"), ("ip", "iproute2"))


@dataclass(frozen=True)
class NodeBinaries:
    kubelet: Path
    containerd: Path
    ctr: Path
    shim_dir: Path  # holds containerd-shim-runc-v2 (containerd finds its shim on PATH)
    runc: Path
    driver: Path  # the practice DRA driver (kubelet plugin)
    cni: Path  # our CNI plugin; installed as "gsb-netns" and as "loopback"
    pause_tar: Path
    busybox_tar: Path


def system_tools() -> dict[str, Path]:
    """runc, nsenter and ip from the system, or a BuildError saying what to install."""
    found = {name: shutil.which(name) for name, _ in SYSTEM_TOOLS}
    if not BUSYBOX.is_file():
        found["busybox"] = None
    missing = sorted(
        {pkg for name, pkg in SYSTEM_TOOLS if not found[name]}
        | ({"busybox-static"} if not BUSYBOX.is_file() else set())
    )
    if missing:
        raise BuildError(
            "the real node needs programs from the system's packages: "
            f"apt-get install {' '.join(missing)}"
        )
    return {name: Path(str(path)) for name, path in found.items() if path}


def _digest(*paths: Path, extra: str = "") -> str:
    digest = hashlib.sha256(extra.encode())
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _go_version(go: str) -> str:
    return subprocess.run([go, "version"], capture_output=True, text=True).stdout


def _sources(*dirs: Path) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*.go") if p.is_file())


def _into(out_dir: Path, build: Callable[[Path], None]) -> Path:
    """Build into a directory of this build's own, then move it into place (two builds at
    once never share a half-written directory)."""
    if out_dir.is_dir():
        return out_dir
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.partial-", dir=out_dir.parent))
    partial.chmod(0o755)
    try:
        build(partial)
        try:
            partial.rename(out_dir)
        except OSError:
            if not out_dir.is_dir():
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return out_dir


def _kubelet(go: str, release: str, log: Log) -> Path:
    mod = module_dir(release)
    version = RELEASES[release].k8s
    binary = cache_root() / k8s_key(go, mod, version) / "bin" / "kubelet"
    if binary.is_file():
        return binary
    suffix = "" if release == DEFAULT_RELEASE else f"-{release}"
    log_file = cache_root() / "logs" / f"build-kubelet{suffix}.log"
    log(t("cluster.building-node", what=f"kubelet {version}", log=log_file))
    binary.parent.mkdir(parents=True, exist_ok=True)
    partial = binary.with_name(f"kubelet.partial-{time.monotonic_ns()}")
    try:
        flags = ["-trimpath", "-ldflags", version_ldflags(version), "-o", str(partial)]
        _run_step(
            "build kubelet",
            [go, "build", *flags, KUBELET],
            mod,
            _build_env(),
            log_file,
        )
        partial.rename(binary)
    finally:
        partial.unlink(missing_ok=True)
    return binary


def _containerd(go: str, log: Log) -> Path:
    mod = module_dir() / "node"
    if not (mod / "go.mod").is_file():
        raise BuildError(f"the node's Go module is missing: {mod / 'go.mod'}")
    key = _digest(mod / "go.mod", mod / "go.sum", extra=_go_version(go))
    out_dir = cache_root() / f"containerd-{CONTAINERD_VERSION}-{key}"
    log_file = cache_root() / "logs" / "build-containerd.log"

    def build(into: Path) -> None:
        log(t("cluster.building-node", what=f"containerd {CONTAINERD_VERSION}", log=log_file))
        pkgs = [f"{CONTAINERD_MODULE}/{p}" for p in CONTAINERD_PACKAGES]
        tags = "urfave_cli_no_docs"
        cmd = [go, "build", "-trimpath", "-tags", tags, "-o", str(into) + "/", *pkgs]
        _run_step("build containerd", cmd, mod, _build_env(), log_file)
        shim = [go, "build", "-trimpath", "-tags", f"{tags} no_grpc", "-o", str(into) + "/"]
        _run_step(
            "build containerd shim",
            [*shim, f"{CONTAINERD_MODULE}/{SHIM_PACKAGE}"],
            mod,
            _build_env(),
            log_file.with_name("build-containerd-shim.log"),
        )

    return _into(out_dir, build)


def _parts(go: str, release: str, log: Log) -> Path:
    """The practice driver (per release), the CNI plugin, pause and the two images."""
    mod = module_dir()
    modfile = module_dir(release) / "go.mod"
    srcs = _sources(mod / "practicedriver", mod / "nodeparts")
    if not srcs:
        raise BuildError(f"the practice driver's sources are missing: {mod / 'practicedriver'}")
    key = _digest(
        modfile,
        modfile.with_suffix(".sum"),
        *srcs,
        Path(images.__file__),
        BUSYBOX,
        extra=_go_version(go) + release,
    )
    suffix = "" if release == DEFAULT_RELEASE else f"-{release}"
    out_dir = cache_root() / f"node-parts{suffix}-{key}"
    log_file = cache_root() / "logs" / f"build-node-parts{suffix}.log"
    flags: list[str] = []
    if release != DEFAULT_RELEASE:
        flags = ["-modfile", str(modfile), "-tags", "k" + release.replace(".", "")]

    def build(into: Path) -> None:
        log(t("cluster.building-node", what="practice driver, CNI plugin, images", log=log_file))
        for name, pkg, extra in (
            ("gsb-practice-driver", "./practicedriver", flags),
            ("gsb-cni", "./nodeparts/cni", []),
            ("pause", "./nodeparts/pause", ["-ldflags", "-s -w"]),
        ):
            cmd = [go, "build", "-trimpath", *extra, "-o", str(into / name), pkg]
            _run_step(f"build {name}", cmd, mod, _build_env(), log_file)
        images.pause_image(into / "pause", into / "pause.tar", PAUSE_IMAGE)
        images.busybox_image(into / "busybox.tar", BUSYBOX_REFS, BUSYBOX)

    return _into(out_dir, build)


def ensure_node_binaries(log: Log = print, release: str = DEFAULT_RELEASE) -> NodeBinaries:
    """Return what the real node runs for a release, building whatever the cache lacks."""
    tools = system_tools()
    go = find_go()
    started = time.monotonic()
    kubelet = _kubelet(go, release, log)
    ctrd = _containerd(go, log)
    parts = _parts(go, release, log)
    if time.monotonic() - started > 1:
        log(t("cluster.built-node", seconds=f"{time.monotonic() - started:.0f}"))
    return NodeBinaries(
        kubelet=kubelet,
        containerd=ctrd / "containerd",
        ctr=ctrd / "ctr",
        shim_dir=ctrd,
        runc=tools["runc"],
        driver=parts / "gsb-practice-driver",
        cni=parts / "gsb-cni",
        pause_tar=parts / "pause.tar",
        busybox_tar=parts / "busybox.tar",
    )
