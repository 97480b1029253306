"""Find and load a kubeconfig, with messages a learner can act on.

Order: --kubeconfig, $KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml (the lab's k3s).
The file is only read: token refreshes are never persisted back into it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

K3S_KUBECONFIG = Path("/etc/rancher/k3s/k3s.yaml")


class KubeconfigError(RuntimeError):
    """No usable kubeconfig; the message says what was tried and what to do."""


@dataclass(frozen=True)
class Target:
    """Which cluster to talk to, as the user asked for it."""

    kubeconfig: Path | None = None  # None: discover
    context: str | None = None
    namespace: str = "dra-lab"


@dataclass(frozen=True)
class Resolved:
    path: Path
    config: dict[str, Any]
    context: str
    server: str
    user: str
    namespace: str


def candidates(explicit: Path | None) -> list[tuple[Path, str]]:
    if explicit is not None:
        return [(explicit.expanduser(), "--kubeconfig")]
    out: list[tuple[Path, str]] = []
    env = os.environ.get("KUBECONFIG", "")
    for part in env.split(os.pathsep):
        if part.strip():
            out.append((Path(part.strip()).expanduser(), "$KUBECONFIG"))
    out.append((Path.home() / ".kube" / "config", "default"))
    out.append((K3S_KUBECONFIG, "k3s"))
    return out


def _read(path: Path, origin: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except PermissionError as exc:
        hint = ""
        if path == K3S_KUBECONFIG:
            hint = (
                " k3s writes it mode 600 for root: run as root, copy it to ~/.kube/config, "
                "or start k3s with --write-kubeconfig-mode 644."
            )
        raise KubeconfigError(
            f"cannot read kubeconfig {path} ({origin}): permission denied.{hint}"
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise KubeconfigError(f"cannot read kubeconfig {path} ({origin}): {exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise KubeconfigError(f"kubeconfig {path} is not valid YAML{where}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("clusters"), list):
        raise KubeconfigError(f"kubeconfig {path} has no clusters: is it really a kubeconfig?")
    return data


def _named(items: Any, name: str) -> dict[str, Any] | None:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("name") == name:
            return item
    return None


def resolve(target: Target) -> Resolved:
    """Pick the kubeconfig and context; raise KubeconfigError with what was tried."""
    tried = []
    for path, origin in candidates(target.kubeconfig):
        if not path.exists():
            tried.append(f"{path} ({origin}): not found")
            continue
        if path.is_dir():
            raise KubeconfigError(f"kubeconfig {path} ({origin}) is a directory, not a file")
        data = _read(path, origin)
        contexts = [c.get("name") for c in data.get("contexts") or [] if isinstance(c, dict)]
        name = target.context or data.get("current-context") or ""
        ctx = _named(data.get("contexts"), name)
        if ctx is None:
            if target.context:
                raise KubeconfigError(
                    f"context {target.context!r} is not in {path}; contexts there: "
                    + (", ".join(str(c) for c in contexts) or "none")
                )
            raise KubeconfigError(
                f"{path} sets no current-context; pass --context (one of: "
                + (", ".join(str(c) for c in contexts) or "none")
                + ")"
            )
        body = ctx.get("context") or {}
        cluster = _named(data.get("clusters"), body.get("cluster", "")) or {}
        server = str((cluster.get("cluster") or {}).get("server") or "")
        if not server:
            raise KubeconfigError(f"context {name!r} in {path} names no cluster with a server URL")
        return Resolved(
            path=path,
            config=data,
            context=name,
            server=server,
            user=str(body.get("user") or ""),
            namespace=target.namespace,
        )
    raise KubeconfigError(
        "no kubeconfig found. Tried: "
        + "; ".join(tried)
        + ". Pass --kubeconfig FILE, set KUBECONFIG, or try `gsb-tui --demo` (no cluster needed)"
        + " or `gsb-tui cluster up` (a local practice cluster)."
    )


async def make_api_client(resolved: Resolved) -> Any:
    """A kubernetes_asyncio ApiClient for the resolved context (call inside a running loop)."""
    # Imported here: the client package takes ~0.9 s to import, which must not delay first paint.
    from kubernetes_asyncio.client import ApiClient, Configuration
    from kubernetes_asyncio.config.config_exception import ConfigException
    from kubernetes_asyncio.config.kube_config import KubeConfigLoader

    cfg = Configuration()
    loader = KubeConfigLoader(
        config_dict=resolved.config,
        config_base_path=str(resolved.path.parent),
        active_context=resolved.context,
    )
    try:
        await loader.load_and_set(cfg)
    except (ConfigException, OSError, ValueError) as exc:
        raise KubeconfigError(
            f"kubeconfig {resolved.path}, context {resolved.context!r}: {exc}"
        ) from exc
    return ApiClient(configuration=cfg)
