"""Build the practice control plane from Go modules, once per version, into a cache.

kube-apiserver, kube-scheduler, kube-controller-manager and etcd come from our own
module in cluster/ (k8s.io/kubernetes pinned with a replace line per staging module);
kwok is installed on its own so its dependencies do not move the Kubernetes ones.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gsb_tui.cluster.releases import DEFAULT_RELEASE, RELEASES
from gsb_tui.words import t

KWOK_VERSION = "v0.8.0"


K8S_VERSION = RELEASES[DEFAULT_RELEASE].k8s
ETCD_VERSION = RELEASES[DEFAULT_RELEASE].etcd
KWOK_STAGES = (
    "kustomize/stage/node/fast/node-initialize.yaml",
    "kustomize/stage/pod/fast/pod-ready.yaml",
    "kustomize/stage/pod/fast/pod-complete.yaml",
    "kustomize/stage/pod/fast/pod-delete.yaml",
)
K8S_PACKAGES = (
    "k8s.io/kubernetes/cmd/kube-apiserver",
    "k8s.io/kubernetes/cmd/kube-scheduler",
    "k8s.io/kubernetes/cmd/kube-controller-manager",
)

Log = Callable[[str], None]


class BuildError(RuntimeError):
    """A build step failed; the message names the step, the log file and its last lines."""


@dataclass(frozen=True)
class Binaries:
    apiserver: Path
    scheduler: Path
    controller_manager: Path
    etcd: Path
    kwok: Path
    kwok_stages: tuple[Path, ...]


def cache_root() -> Path:
    """Where built binaries live, keyed by version, outside any checkout."""
    if os.environ.get("GSB_TUI_CACHE"):
        return Path(os.environ["GSB_TUI_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gsb-tui" / "cluster"


def module_dir(release: str = DEFAULT_RELEASE) -> Path:
    """The release's Go module: under cluster/ in a checkout, or the copy in the wheel."""
    here = Path(__file__).resolve().parent
    sub = RELEASES[release].module
    for candidate in (here.parents[1] / "cluster", here / "gomod"):
        found = candidate / sub if sub else candidate
        if (found / "go.mod").is_file():
            return found
    raise BuildError(
        f"cannot find the cluster Go module for Kubernetes {release} "
        f"(cluster/{sub + '/' if sub else ''}go.mod) next to gsb_tui"
    )


def find_go() -> str:
    go = shutil.which("go")
    if go is None:
        raise BuildError(
            "Go is not installed or not on PATH. The practice cluster is built from Go modules "
            "(Go 1.26 or newer): install Go, then run the command again."
        )
    return go


def _go_env(go: str, name: str) -> str:
    return subprocess.run(
        [go, "env", name], capture_output=True, text=True, check=True
    ).stdout.strip()


def k8s_key(go: str, mod: Path, version: str = K8S_VERSION) -> str:
    """Cache key: what decides the binaries (module files, Go version)."""
    digest = hashlib.sha256()
    for name in ("go.mod", "go.sum"):
        digest.update((mod / name).read_bytes())
    digest.update(subprocess.run([go, "version"], capture_output=True, text=True).stdout.encode())
    return f"k8s-{version}-{digest.hexdigest()[:12]}"


def _run_step(step: str, cmd: list[str], cwd: Path, env: dict[str, str], log_file: Path) -> None:
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("w") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        tail = log_file.read_text(errors="replace").splitlines()[-15:]
        hint = ""
        text = "\n".join(tail)
        if any(s in text.lower() for s in ("proxy", "dial tcp", "403 forbidden", "410 gone")):
            hint = "\n(the Go module proxy refused or could not be reached: check GOPROXY)"
        raise BuildError(
            f"build step '{step}' failed (exit {proc.returncode}); full log: {log_file}\n"
            + text
            + hint
        )


def version_ldflags(version: str) -> str:
    """What `kubectl version` and /version say: a release build's version stamps."""
    return " ".join(
        f"-X k8s.io/component-base/version.{k}={v}"
        for k, v in (
            ("gitVersion", version),
            ("gitMajor", "1"),
            ("gitMinor", version.split(".")[1]),
            ("gitTreeState", "clean"),
        )
    )


def _build_env() -> dict[str, str]:
    env = dict(os.environ)
    env["CGO_ENABLED"] = "0"
    return env


ORACLE_NAME = "gsb-alloc-oracle"


def _oracle_sources(mod: Path) -> list[Path]:
    """The oracle's own files (cluster/oracle/), in a stable order."""
    src = mod / "oracle"
    return sorted(p for p in src.rglob("*") if p.is_file() and p.suffix == ".go")


def _oracle_modfile(release: str) -> tuple[Path, list[str]]:
    """The go.mod the oracle builds against for a release, and the build flags that pick its
    release_<minor>.go (the oracle's sources live once, in the default module)."""
    modfile = module_dir(release) / "go.mod"
    if release == DEFAULT_RELEASE:
        return modfile, []
    tag = "k" + release.replace(".", "")
    return modfile, ["-modfile", str(modfile), "-tags", tag]


def oracle_key(go: str, mod: Path, release: str = DEFAULT_RELEASE) -> str:
    """Cache key of the allocation oracle: the release's module files, its sources, Go."""
    digest = hashlib.sha256()
    modfile, flags = _oracle_modfile(release)
    for path in (modfile, modfile.with_suffix(".sum")):
        digest.update(path.read_bytes())
    digest.update(" ".join(flags[2:]).encode() + b"\0")
    for path in _oracle_sources(mod):
        digest.update(path.relative_to(mod).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(subprocess.run([go, "version"], capture_output=True, text=True).stdout.encode())
    suffix = "" if release == DEFAULT_RELEASE else f"-{release}"
    return f"oracle{suffix}-{digest.hexdigest()[:12]}"


def ensure_oracle(log: Log = print, release: str = DEFAULT_RELEASE) -> Path:
    """Return the allocation oracle of a release (cluster/oracle, a test tool), building it
    when missing.

    It runs that release's structured allocator and the scheduler's node filters on a
    snapshot; the tests compare gsb_tui's allocator against it.
    """
    go = find_go()
    mod = module_dir()
    if not _oracle_sources(mod):
        raise BuildError(f"the allocation oracle's sources are missing: {mod / 'oracle'}")
    root = cache_root()
    out_dir = root / oracle_key(go, mod, release)
    binary = out_dir / ORACLE_NAME
    if binary.is_file():
        return binary
    logs = root / "logs"
    suffix = "" if release == DEFAULT_RELEASE else f"-{release}"
    log_file = logs / f"build-oracle{suffix}.log"
    started = time.monotonic()
    log(t("cluster.building-oracle", log=log_file))
    root.mkdir(parents=True, exist_ok=True)
    # A directory of this build's own: two test runs building at once do not share one.
    partial = Path(tempfile.mkdtemp(prefix=f"{out_dir.name}.partial-", dir=root))
    partial.chmod(0o755)
    _, flags = _oracle_modfile(release)
    try:
        _run_step(
            "build oracle",
            [go, "build", "-trimpath", *flags, "-o", str(partial / ORACLE_NAME), "./oracle"],
            mod,
            _build_env(),
            log_file,
        )
        if out_dir.exists() and not binary.is_file():
            shutil.rmtree(out_dir)  # a broken leftover
        try:
            partial.rename(out_dir)
        except OSError:
            if not binary.is_file():  # not another build that finished first
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    log(t("cluster.built-oracle", seconds=f"{time.monotonic() - started:.0f}", path=binary))
    return binary


def ensure_binaries(log: Log = print, release: str = DEFAULT_RELEASE) -> Binaries:
    """Return the release's binaries, building whatever the cache lacks."""
    go = find_go()
    mod = module_dir(release)
    version, etcd = RELEASES[release].k8s, RELEASES[release].etcd
    suffix = "" if release == DEFAULT_RELEASE else f"-{release}"  # the default's log names stay
    root = cache_root()
    k8s_dir = root / k8s_key(go, mod, version) / "bin"
    kwok_dir = root / f"kwok-{KWOK_VERSION}"
    logs = root / "logs"
    names = ("kube-apiserver", "kube-scheduler", "kube-controller-manager", "etcd")
    if not all((k8s_dir / n).is_file() for n in names):
        tmp = k8s_dir.with_name("bin.partial")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        ldflags = version_ldflags(version)
        started = time.monotonic()
        log(t("cluster.building-k8s", version=version, log=logs / f"build-k8s{suffix}.log"))
        _run_step(
            "build k8s",
            [go, "build", "-trimpath", "-ldflags", ldflags, "-o", str(tmp) + "/", *K8S_PACKAGES],
            mod,
            _build_env(),
            logs / f"build-k8s{suffix}.log",
        )
        log(t("cluster.building-etcd", version=etcd, log=logs / f"build-etcd{suffix}.log"))
        _run_step(
            "build etcd",
            [go, "build", "-trimpath", "-o", str(tmp / "etcd"), "go.etcd.io/etcd/server/v3"],
            mod,
            _build_env(),
            logs / f"build-etcd{suffix}.log",
        )
        shutil.rmtree(k8s_dir, ignore_errors=True)
        tmp.rename(k8s_dir)
        seconds = f"{time.monotonic() - started:.0f}"
        log(t("cluster.built", seconds=seconds, dir=k8s_dir))
    kwok = kwok_dir / "bin" / "kwok"
    stages = tuple(kwok_dir / "stages" / Path(s).name for s in KWOK_STAGES)
    if not kwok.is_file() or not all(s.is_file() for s in stages):
        log(t("cluster.building-kwok", version=KWOK_VERSION, log=logs / "build-kwok.log"))
        env = _build_env()
        env["GOBIN"] = str(kwok_dir / "bin")
        # Outside any module, so kwok's own go.mod decides its dependencies.
        neutral = root / "kwok-build"
        neutral.mkdir(parents=True, exist_ok=True)
        env["GOFLAGS"] = ""
        _run_step(
            "build kwok",
            [go, "install", "-trimpath", f"sigs.k8s.io/kwok/cmd/kwok@{KWOK_VERSION}"],
            neutral,
            env,
            logs / "build-kwok.log",
        )
        # The stock stage files (node Ready, pod Running, pod delete) ship in kwok's module.
        src = Path(_go_env(go, "GOMODCACHE")) / f"sigs.k8s.io/kwok@{KWOK_VERSION}"
        (kwok_dir / "stages").mkdir(parents=True, exist_ok=True)
        for rel, dst in zip(KWOK_STAGES, stages, strict=True):
            if not (src / rel).is_file():
                raise BuildError(f"kwok stage file missing after install: {src / rel}")
            shutil.copyfile(src / rel, dst)
    return Binaries(
        apiserver=k8s_dir / "kube-apiserver",
        scheduler=k8s_dir / "kube-scheduler",
        controller_manager=k8s_dir / "kube-controller-manager",
        etcd=k8s_dir / "etcd",
        kwok=kwok,
        kwok_stages=stages,
    )
