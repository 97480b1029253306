"""Kubeconfig discovery and loading: the order, and plain messages for every bad case."""

from __future__ import annotations

import base64
import json
import ssl
from pathlib import Path

import pytest

from gsb_tui.kube import config as kc
from gsb_tui.kube.config import KubeconfigError, Target, resolve
from gsb_tui.kube.transport import NativeTransport


def write(path: Path, server: str = "https://127.0.0.1:6443", **user: object) -> Path:
    path.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "clusters": [{"name": "c", "cluster": {"server": server}}],
                "contexts": [{"name": "ctx", "context": {"cluster": "c", "user": "u"}}],
                "users": [{"name": "u", "user": user or {"token": "t"}}],
                "current-context": "ctx",
            }
        )
    )
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.setattr(kc, "K3S_KUBECONFIG", tmp_path / "k3s.yaml")
    return tmp_path


def test_order_flag_env_home_k3s(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    k3s = write(home / "k3s.yaml", "https://k3s:6443")
    assert resolve(Target()).server == "https://k3s:6443"
    (home / ".kube").mkdir()
    write(home / ".kube" / "config", "https://home:6443")
    assert resolve(Target()).server == "https://home:6443"
    env = write(home / "env.yaml", "https://env:6443")
    monkeypatch.setenv("KUBECONFIG", f"{home / 'absent.yaml'}:{env}")
    assert resolve(Target()).server == "https://env:6443"
    assert resolve(Target(kubeconfig=k3s)).server == "https://k3s:6443"


def test_nothing_found_lists_what_was_tried(home: Path) -> None:
    with pytest.raises(KubeconfigError) as err:
        resolve(Target())
    message = str(err.value)
    assert str(home / ".kube" / "config") in message and "k3s.yaml" in message
    assert "--demo" in message


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("clusters: [\n  {broken", "is not valid YAML at line"),
        ("just: text\n", "has no clusters"),
    ],
)
def test_malformed(home: Path, content: str, says: str) -> None:
    bad = home / "bad.yaml"
    bad.write_text(content)
    with pytest.raises(KubeconfigError, match=says):
        resolve(Target(kubeconfig=bad))


def test_a_directory_and_a_missing_context(home: Path) -> None:
    with pytest.raises(KubeconfigError, match="is a directory"):
        resolve(Target(kubeconfig=home))
    good = write(home / "good.yaml")
    with pytest.raises(KubeconfigError, match=r"context 'other' is not in .*contexts there: ctx"):
        resolve(Target(kubeconfig=good, context="other"))


def test_unreadable_k3s_file_says_how_to_fix(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    k3s = write(home / "k3s.yaml")
    real = kc.read_capped

    def denied(path: Path, limit: int) -> bytes:
        if path == k3s:
            raise PermissionError(13, "Permission denied")
        return real(path, limit)

    monkeypatch.setattr(kc, "read_capped", denied)
    with pytest.raises(KubeconfigError, match="write-kubeconfig-mode 644"):
        resolve(Target())


def test_native_transport_reads_relative_ca_and_bad_base64(home: Path) -> None:
    from gsb_tui.cluster.pki import write_pki

    pki = write_pki(home / "pki")
    cfg = write(
        home / "kc.yaml",
        **{
            "client-certificate-data": base64.b64encode(pki.admin_cert).decode(),
            "client-key-data": base64.b64encode(pki.admin_key).decode(),
        },
    )
    data = json.loads(cfg.read_text())
    data["clusters"][0]["cluster"]["certificate-authority"] = "pki/client-ca.crt"
    cfg.write_text(json.dumps(data))
    transport = NativeTransport(resolve(Target(kubeconfig=cfg)))
    assert transport.ssl.verify_mode == ssl.CERT_REQUIRED
    assert "Authorization" not in transport.headers  # the certificate authenticates
    data["clusters"][0]["cluster"]["certificate-authority-data"] = "%%%not base64"
    cfg.write_text(json.dumps(data))
    with pytest.raises(KubeconfigError, match="not valid base64"):
        NativeTransport(resolve(Target(kubeconfig=cfg)))


@pytest.mark.parametrize(
    ("server", "gzip"),
    [
        ("https://127.0.0.1:6443", False),  # k3s beside the learner
        ("https://[::1]:6443", False),
        ("https://localhost:6443", False),
        ("https://10.0.0.7:6443", True),
        ("https://k3s.example:6443", True),
    ],
)
def test_lists_are_not_compressed_over_loopback(home: Path, server: str, gzip: bool) -> None:
    transport = NativeTransport(resolve(Target(kubeconfig=write(home / "c.yaml", server))))
    # aiohttp asks for gzip unless told otherwise; over loopback it is CPU for nothing.
    assert ("Accept-Encoding" not in transport.headers) is gzip
    assert transport.headers.get("Accept-Encoding", "identity") == "identity"
