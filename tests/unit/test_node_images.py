"""The real node's OCI images (gsb_tui.cluster.images) and the pause binary they carry.

The pause binary is built here from cluster/nodeparts/pause with the Go toolchain,
exactly as the node gets it; the archives are checked the way containerd reads
them: oci-layout, index.json names, blobs addressed by their sha256 and sizes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import posixpath
import shutil
import signal
import subprocess
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cluster.images import (
    BUSYBOX_REFS,
    DEFAULT_PATH,
    PAUSE_REF,
    ImageError,
    busybox_image,
    normalize_ref,
    pause_image,
)

CLUSTER = Path(__file__).resolve().parents[2] / "cluster"
BUSYBOX = Path("/usr/bin/busybox")


@pytest.fixture(scope="module")
def pause_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("go") is None:
        pytest.fail("Go is needed (the node's pause binary is built from cluster/nodeparts/pause)")
    out = tmp_path_factory.mktemp("pause") / "pause"
    proc = subprocess.run(
        ["go", "build", "-trimpath", "-ldflags", "-s -w", "-o", str(out), "./nodeparts/pause"],
        cwd=CLUSTER,
        env={**os.environ, "CGO_ENABLED": "0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def busybox() -> Path:
    if not BUSYBOX.is_file():
        pytest.fail(f"{BUSYBOX} is needed (Debian: apt-get install busybox-static)")
    return BUSYBOX


@dataclass
class Layout:
    index: dict[str, Any]
    manifest: dict[str, Any]
    config: dict[str, Any]
    layer: dict[str, tarfile.TarInfo]
    layer_data: dict[str, bytes]


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_layout(path: Path) -> Layout:
    """Parse an OCI layout archive, asserting everything containerd relies on."""
    files: dict[str, bytes] = {}
    with tarfile.open(path) as tar:
        for m in tar.getmembers():
            assert m.uid == m.gid == 0 and m.mtime == 0, m.name
            if m.isfile():
                f = tar.extractfile(m)
                assert f is not None
                files[m.name] = f.read()
    assert json.loads(files.pop("oci-layout")) == {"imageLayoutVersion": "1.0.0"}
    index = json.loads(files.pop("index.json"))
    blobs: dict[str, bytes] = {}
    for name, data in files.items():
        assert name.startswith("blobs/sha256/"), name
        assert _digest(data) == "sha256:" + name.removeprefix("blobs/sha256/"), name
        blobs["sha256:" + name.removeprefix("blobs/sha256/")] = data

    def blob(desc: dict[str, Any], media_type: str) -> bytes:
        assert desc["mediaType"] == media_type
        data = blobs[desc["digest"]]
        assert desc["size"] == len(data)
        return data

    assert index["schemaVersion"] == 2
    assert index["mediaType"] == "application/vnd.oci.image.index.v1+json"
    digests = {d["digest"] for d in index["manifests"]}
    assert len(digests) == 1  # every name points at the one manifest
    for d in index["manifests"]:
        assert d["platform"] == {"architecture": "amd64", "os": "linux"}
    manifest = json.loads(blob(index["manifests"][0], "application/vnd.oci.image.manifest.v1+json"))
    assert manifest["schemaVersion"] == 2
    config = json.loads(blob(manifest["config"], "application/vnd.oci.image.config.v1+json"))
    [layer_desc] = manifest["layers"]
    layer_bytes = blob(layer_desc, "application/vnd.oci.image.layer.v1.tar")
    assert config["rootfs"] == {"type": "layers", "diff_ids": [layer_desc["digest"]]}
    assert (config["os"], config["architecture"]) == ("linux", "amd64")
    assert len(blobs) == 3  # nothing stray
    layer: dict[str, tarfile.TarInfo] = {}
    layer_data: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(layer_bytes)) as tar:
        names = tar.getnames()
        assert names == sorted(names) and len(set(names)) == len(names)
        for m in tar.getmembers():
            assert m.uid == m.gid == 0 and m.mtime == 0 and not m.name.startswith("/"), m.name
            layer[m.name] = m
            if m.isfile():
                f = tar.extractfile(m)
                assert f is not None
                layer_data[m.name] = f.read()
    for name in layer:  # every member's parent directory is in the layer
        parent = posixpath.dirname(name)
        assert not parent or layer[parent].isdir(), name
    return Layout(index, manifest, config, layer, layer_data)


def refs(layout: Layout) -> list[str]:
    out = []
    for d in layout.index["manifests"]:
        a = d["annotations"]
        assert a["io.containerd.image.name"] == a["org.opencontainers.image.ref.name"]
        out.append(a["io.containerd.image.name"])
    return out


def test_pause_image(pause_binary: Path, tmp_path: Path) -> None:
    digest = pause_image(pause_binary, tmp_path / "pause.tar")
    layout = read_layout(tmp_path / "pause.tar")
    assert refs(layout) == [PAUSE_REF] == ["registry.k8s.io/pause:3.10"]
    assert layout.index["manifests"][0]["digest"] == digest
    assert layout.config["config"]["Entrypoint"] == ["/pause"]
    assert list(layout.layer) == ["pause"]
    member = layout.layer["pause"]
    assert member.isfile() and member.mode == 0o755
    assert layout.layer_data["pause"] == pause_binary.read_bytes()


def test_pause_image_extra_refs(pause_binary: Path, tmp_path: Path) -> None:
    pause_image(
        pause_binary, tmp_path / "p.tar", extra_refs=("registry.k8s.io/pause:3.10.2", PAUSE_REF)
    )
    assert refs(read_layout(tmp_path / "p.tar")) == [PAUSE_REF, "registry.k8s.io/pause:3.10.2"]


def test_busybox_image(busybox: Path, tmp_path: Path) -> None:
    digest = busybox_image(tmp_path / "busybox.tar")
    layout = read_layout(tmp_path / "busybox.tar")
    assert refs(layout) == list(BUSYBOX_REFS)
    assert refs(layout) == ["docker.io/library/busybox:latest", "docker.io/library/busybox:1.36"]
    assert {d["digest"] for d in layout.index["manifests"]} == {digest}
    assert layout.config["config"]["Cmd"] == ["sh"]
    assert "Entrypoint" not in layout.config["config"]
    assert layout.config["config"]["Env"] == ["PATH=" + DEFAULT_PATH]
    assert DEFAULT_PATH == "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    bb = layout.layer["bin/busybox"]
    assert bb.isfile() and bb.mode == 0o755
    assert layout.layer_data["bin/busybox"] == busybox.read_bytes()
    sh = layout.layer["bin/sh"]
    assert sh.issym() and sh.linkname == "busybox"
    env = layout.layer["usr/bin/env"]
    assert env.issym() and env.linkname == "../../bin/busybox"
    listed = subprocess.run(
        [str(busybox), "--list-full"], capture_output=True, text=True, check=True
    ).stdout.split()
    for applet in listed:  # every applet is there and resolves to /bin/busybox
        if applet == "bin/busybox":
            continue
        m = layout.layer[applet]
        assert m.issym(), applet
        assert posixpath.normpath(posixpath.join(posixpath.dirname(applet), m.linkname)) == (
            "bin/busybox"
        )
    assert layout.layer["tmp"].isdir() and layout.layer["tmp"].mode == 0o1777
    passwd = layout.layer_data["etc/passwd"].decode()
    group = layout.layer_data["etc/group"].decode()
    assert passwd.startswith("root:x:0:0:") and "\nnobody:x:65534:65534:" in passwd
    assert group.startswith("root:x:0:") and "\nnobody:x:65534:" in group


def test_builds_are_byte_identical(pause_binary: Path, busybox: Path, tmp_path: Path) -> None:
    a = pause_image(pause_binary, tmp_path / "a" / "pause.tar")
    b = pause_image(pause_binary, tmp_path / "b" / "other-name.tar")
    assert a == b
    assert (tmp_path / "a" / "pause.tar").read_bytes() == (
        tmp_path / "b" / "other-name.tar"
    ).read_bytes()
    time.sleep(1.1)  # a clock-dependent field would differ now
    c = busybox_image(tmp_path / "a" / "busybox.tar")
    copy = tmp_path / "copy" / "busybox"
    copy.parent.mkdir()
    shutil.copyfile(busybox, copy)  # a fresh mtime, another path: neither may matter
    copy.chmod(0o700)
    d = busybox_image(tmp_path / "b" / "busybox.tar", busybox=copy)
    assert c == d
    assert (tmp_path / "a" / "busybox.tar").read_bytes() == (
        tmp_path / "b" / "busybox.tar"
    ).read_bytes()
    assert not list(tmp_path.rglob("*.tmp"))


def test_short_names_become_what_the_cri_looks_up(busybox: Path, tmp_path: Path) -> None:
    assert normalize_ref("busybox") == "docker.io/library/busybox:latest"
    assert normalize_ref("busybox:1.36") == "docker.io/library/busybox:1.36"
    assert normalize_ref("docker.io/busybox") == "docker.io/library/busybox:latest"
    assert normalize_ref("registry.k8s.io/pause:3.10") == "registry.k8s.io/pause:3.10"
    assert normalize_ref("localhost:5000/x") == "localhost:5000/x:latest"
    assert normalize_ref("foo/bar:v1") == "docker.io/foo/bar:v1"
    for bad in ("", "Busybox", "a b", "x//y"):
        with pytest.raises(ImageError):
            normalize_ref(bad)
    busybox_image(tmp_path / "bb.tar", refs=("busybox", "busybox:latest", "busybox:1.36"))
    assert refs(read_layout(tmp_path / "bb.tar")) == [
        "docker.io/library/busybox:latest",
        "docker.io/library/busybox:1.36",
    ]


def test_busybox_without_sh_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "busybox"
    fake.write_text("#!/bin/sh\necho usr/bin/env\n")
    fake.chmod(0o755)
    with pytest.raises(ImageError, match="no sh applet"):
        busybox_image(tmp_path / "bb.tar", busybox=fake)
    assert not (tmp_path / "bb.tar").exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_pause_blocks_then_exits_0_on_signal(pause_binary: Path, sig: signal.Signals) -> None:
    proc = subprocess.Popen([str(pause_binary)])
    try:
        time.sleep(0.3)
        assert proc.poll() is None  # still blocking
        proc.send_signal(sig)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
