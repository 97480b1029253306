"""Find and load a kubeconfig, with messages a learner can act on.

Order: --kubeconfig, $KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml (the lab's k3s).
Several files in $KUBECONFIG are merged as kubectl merges them: the first file to name a
cluster, user or context wins it, and current-context comes from the first file that sets one.
Files are only read, never written (token refreshes are not persisted), and read bounded:
regular files only, at most 4 MiB, never blocking (gsb_tui/bounded.py).

Every field gsb-tui or kubectl reads is checked for its type here, so a kubeconfig with
`contexts: 5` or `cluster: "text"` is one plain sentence, said at once, never a TypeError later.
Relative file names in it become absolute against the file they were written in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from gsb_tui.bounded import MIB, Refused, read_capped
from gsb_tui.words import Text, t

K3S_KUBECONFIG = Path("/etc/rancher/k3s/k3s.yaml")
KUBECONFIG_LIMIT = 4 * MIB
SECTIONS = ("clusters", "contexts", "users")
# The fields whose type is checked, per section entry; others are kept as they are.
CLUSTER_FIELDS = {
    "server": str,
    "certificate-authority": str,
    "certificate-authority-data": str,
    "tls-server-name": str,
    "proxy-url": str,
    "insecure-skip-tls-verify": bool,
    "disable-compression": bool,
}
CONTEXT_FIELDS = {"cluster": str, "user": str, "namespace": str}
USER_FIELDS = {
    "token": str,
    "tokenFile": str,
    "username": str,
    "password": str,
    "client-certificate": str,
    "client-certificate-data": str,
    "client-key": str,
    "client-key-data": str,
    "exec": dict,
    "auth-provider": dict,
}
EXEC_FIELDS = {
    "command": str,
    "apiVersion": str,
    "args": list,
    "env": list,
    "installHint": str,
    "provideClusterInfo": bool,
    "interactiveMode": str,
}
# File names relative to the kubeconfig's folder (kubectl resolves them the same way).
# libyaml's safe loader when PyYAML has it (a 4 MiB kubeconfig in milliseconds), else PyYAML's.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PATH_FIELDS = frozenset({"certificate-authority", "client-certificate", "client-key", "tokenFile"})


class KubeconfigError(RuntimeError):
    """No usable kubeconfig; `text` says what was tried and what to do, in both languages."""

    def __init__(self, message: str) -> None:
        super().__init__(str(message))
        self.text: Text = message if isinstance(message, Text) else Text(message)


@dataclass(frozen=True)
class Target:
    """Which cluster to talk to, as the user asked for it."""

    kubeconfig: Path | None = None  # None: discover
    context: str | None = None
    namespace: str = "dra-lab"


@dataclass(frozen=True)
class Resolved:
    path: Path  # the file the context came from
    config: dict[str, Any]  # checked and merged: clusters, contexts, users, current-context
    context: str
    server: str
    user: str
    namespace: str
    paths: tuple[Path, ...] = ()  # every file merged (in $KUBECONFIG order)
    cluster_info: dict[str, Any] = field(default_factory=dict)  # clusters[].cluster
    user_info: dict[str, Any] = field(default_factory=dict)  # users[].user


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


class _Missing(Exception):
    """The file is not there (the next candidate is tried)."""


def _read(path: Path, origin: str) -> dict[str, Any]:
    """One kubeconfig file, read bounded, parsed and checked."""
    try:
        raw = read_capped(path, KUBECONFIG_LIMIT)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise _Missing from exc
    except Refused as exc:
        raise KubeconfigError(
            t("kube.refused", path=path, origin=origin, problem=exc.problem)
        ) from None
    except PermissionError:
        key = "kube.denied-k3s" if path == K3S_KUBECONFIG else "kube.denied"
        raise KubeconfigError(t(key, path=path, origin=origin)) from None
    except OSError as exc:
        error = exc.strerror or type(exc).__name__
        raise KubeconfigError(
            t("kube.cannot-read", path=path, origin=origin, error=error)
        ) from None
    except ValueError:  # a NUL in the path
        raise KubeconfigError(t("kube.bad-path", path=repr(str(path)), origin=origin)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise KubeconfigError(t("kube.not-utf8", path=path, byte=exc.start)) from None
    try:
        data = yaml.load(text, Loader=_LOADER)  # safe: plain data only
    except yaml.YAMLError as exc:
        if "nesting depth" in str(getattr(exc, "problem", "")):  # libyaml's own bound
            raise KubeconfigError(t("kube.too-deep", path=path)) from None
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            raise KubeconfigError(t("kube.not-yaml-at", path=path, line=mark.line + 1)) from None
        raise KubeconfigError(t("kube.not-yaml", path=path)) from None
    except RecursionError:
        raise KubeconfigError(t("kube.too-deep", path=path)) from None
    except (ValueError, TypeError, OverflowError):  # a scalar YAML cannot build (a huge int)
        raise KubeconfigError(t("kube.not-yaml", path=path)) from None
    return _checked(data, path)


def _type_name(value: Any) -> Text:
    if value is None:
        return t("kube.type.null")
    if isinstance(value, bool):
        return t("kube.type.boolean")
    if isinstance(value, int):
        return t("kube.type.integer")
    if isinstance(value, float):
        return t("kube.type.number")
    if isinstance(value, str):
        return t("kube.type.string")
    if isinstance(value, list):
        return t("kube.type.list")
    if isinstance(value, dict):
        return t("kube.type.mapping")
    return t("kube.type.other")


_EXPECTED = {str: "kube.type.string", bool: "kube.type.boolean", list: "kube.type.list"}


def _wrong(path: Path, where: str, expected: type, value: Any) -> KubeconfigError:
    return KubeconfigError(
        t(
            "kube.wrong-type",
            path=path,
            field=where,
            expected=t(_EXPECTED.get(expected, "kube.type.mapping")),
            actual=_type_name(value),
        )
    )


def _section(value: Any, where: str, path: Path, kind: type) -> Any:
    """`value` when it has the `kind` asked for; None (absent) becomes empty."""
    if value is None:
        return kind()
    if not isinstance(value, kind):
        raise _wrong(path, where, kind, value)
    return value


def _fields(
    value: Any, where: str, path: Path, schema: Mapping[str, type], base: Path
) -> dict[str, Any]:
    body: dict[str, Any] = dict(_section(value, where, path, dict))
    for key, kind in schema.items():
        if body.get(key) is None:
            body.pop(key, None)
            continue
        body[key] = _section(body[key], f"{where}.{key}", path, kind)
        if key in PATH_FIELDS and body[key] and not os.path.isabs(body[key]):
            body[key] = str(base / body[key])
    return body


def _exec(value: dict[str, Any], where: str, path: Path, base: Path) -> dict[str, Any]:
    spec = _fields(value, where, path, EXEC_FIELDS, base)
    for i, arg in enumerate(spec.get("args", [])):
        if not isinstance(arg, str):
            raise _wrong(path, f"{where}.args[{i}]", str, arg)
    for i, item in enumerate(spec.get("env", [])):
        entry = _section(item, f"{where}.env[{i}]", path, dict)
        for key in ("name", "value"):
            if not isinstance(entry.get(key), str):
                raise _wrong(path, f"{where}.env[{i}].{key}", str, entry.get(key))
    command = spec.get("command", "")
    # kubectl: a relative command with a slash is relative to the kubeconfig's folder.
    if command and os.sep in command and not os.path.isabs(command):
        spec["command"] = str(base / command)
    return spec


def _checked(data: Any, path: Path) -> dict[str, Any]:
    """The parts of one kubeconfig gsb-tui uses, each of the right type (or KubeconfigError)."""
    if not isinstance(data, dict) or not any(k in data for k in (*SECTIONS, "current-context")):
        raise KubeconfigError(t("kube.no-clusters", path=path))
    base = path.absolute().parent
    inner: dict[str, tuple[str, Callable[[Any, str], dict[str, Any]]]] = {
        "clusters": ("cluster", lambda v, w: _fields(v, w, path, CLUSTER_FIELDS, base)),
        "contexts": ("context", lambda v, w: _fields(v, w, path, CONTEXT_FIELDS, base)),
        "users": ("user", lambda v, w: _user(v, w, path, base)),
    }
    out: dict[str, Any] = {}
    for section, (key, check) in inner.items():
        entries = []
        for i, entry in enumerate(_section(data.get(section), section, path, list)):
            where = f"{section}[{i}]"
            entry = _section(entry, where, path, dict)
            name = _section(entry.get("name"), f"{where}.name", path, str)
            entries.append({"name": name, key: check(entry.get(key), f"{where}.{key}")})
        out[section] = entries
    out["current-context"] = _section(data.get("current-context"), "current-context", path, str)
    return out


def _user(value: Any, where: str, path: Path, base: Path) -> dict[str, Any]:
    body = _fields(value, where, path, USER_FIELDS, base)
    if body.get("exec"):
        body["exec"] = _exec(body["exec"], f"{where}.exec", path, base)
    return body


def merge(files: list[tuple[Path, dict[str, Any]]]) -> tuple[dict[str, Any], dict[str, Path]]:
    """kubectl's merge: the first file to name an entry wins it; the first current-context.

    Also returns, for each context, the file it came from.
    """
    merged: dict[str, Any] = {s: [] for s in SECTIONS}
    merged["current-context"] = ""
    seen: dict[str, set[str]] = {s: set() for s in SECTIONS}
    origin: dict[str, Path] = {}
    for path, data in files:
        for section in SECTIONS:
            for entry in data[section]:
                if entry["name"] in seen[section]:
                    continue
                seen[section].add(entry["name"])
                merged[section].append(entry)
                if section == "contexts":
                    origin[entry["name"]] = path
        if not merged["current-context"]:
            merged["current-context"] = data["current-context"]
    return merged, origin


def _named(items: Any, name: str) -> dict[str, Any] | None:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("name") == name:
            return item
    return None


def _load(target: Target) -> tuple[list[tuple[Path, dict[str, Any]]], list[Text]]:
    """The files to use: --kubeconfig alone, every $KUBECONFIG file there is, or the first
    default that exists. Also what was tried and not found."""
    tried: list[Text] = []
    from_env: list[tuple[Path, dict[str, Any]]] = []
    for path, origin in candidates(target.kubeconfig):
        if from_env and origin != "$KUBECONFIG":
            break
        try:
            data = _read(path, origin)
        except _Missing:
            tried.append(t("kube.tried-missing", path=path, origin=origin))
            continue
        if origin != "$KUBECONFIG":
            return [(path, data)], tried
        from_env.append((path, data))
    return from_env, tried


def _server(raw: str, context: str, path: Path) -> str:
    """The server URL; one without a scheme gets https:// (as kubectl does)."""
    url = raw.strip() if "://" in raw else f"https://{raw.strip()}"
    try:
        parts = urlsplit(url)
        valid = parts.scheme in ("http", "https") and bool(parts.hostname)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        valid = False
    if not valid:
        raise KubeconfigError(t("kube.bad-server", context=context, path=path, server=raw))
    return url


def resolve(target: Target) -> Resolved:
    """Pick the kubeconfig(s) and context; raise KubeconfigError with what was tried."""
    files, tried = _load(target)
    if not files:
        raise KubeconfigError(t("kube.none-found", tried="; ".join(tried)))
    config, origin = merge(files)
    paths = tuple(p for p, _ in files)
    where = ", ".join(str(p) for p in paths)
    names = [str(c["name"]) for c in config["contexts"]]
    listed = ", ".join(names) or t("kube.none")
    name = target.context or config["current-context"] or ""
    ctx = _named(config["contexts"], name)
    if ctx is None:
        if target.context:
            raise KubeconfigError(
                t("kube.no-context", context=target.context, path=where, contexts=listed)
            )
        raise KubeconfigError(t("kube.no-current-context", path=where, contexts=listed))
    path = origin.get(name, paths[0])
    body = ctx["context"]
    cluster = _named(config["clusters"], body.get("cluster", ""))
    server = str(((cluster or {}).get("cluster") or {}).get("server") or "")
    if not server:
        raise KubeconfigError(t("kube.no-server", context=name, path=path))
    user_name = str(body.get("user") or "")
    user = _named(config["users"], user_name)
    if user_name and user is None:
        raise KubeconfigError(t("kube.no-user", context=name, path=path, user=user_name))
    return Resolved(
        path=path,
        config=config,
        context=name,
        server=_server(server, name, path),
        user=user_name,
        namespace=target.namespace,
        paths=paths,
        cluster_info=dict((cluster or {}).get("cluster") or {}),
        user_info=dict((user or {}).get("user") or {}),
    )


async def make_api_client(resolved: Resolved) -> Any:
    """A kubernetes_asyncio ApiClient for the resolved context (call inside a running loop).

    Used only for auth-provider users; exec plugins are run by kube/exec_plugin.py.
    """
    # Imported here: the client package takes ~0.9 s to import, which must not delay first paint.
    from kubernetes_asyncio.client import ApiClient, Configuration
    from kubernetes_asyncio.config.config_exception import ConfigException
    from kubernetes_asyncio.config.kube_config import KubeConfigLoader

    cfg = Configuration()
    try:
        loader = KubeConfigLoader(
            config_dict=resolved.config,
            config_base_path=str(resolved.path.parent),
            active_context=resolved.context,
        )
        await loader.load_and_set(cfg)
    except (ConfigException, OSError, ValueError, TypeError, KeyError) as exc:
        error = " ".join(str(exc).split()) or type(exc).__name__
        raise KubeconfigError(
            t("kube.loader", path=resolved.path, context=resolved.context, error=error)
        ) from exc
    return ApiClient(configuration=cfg)
