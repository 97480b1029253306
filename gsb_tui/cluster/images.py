"""OCI image-layout archives for the practice node's containerd, built without a registry.

The real node runs pods with containerd, which needs a sandbox ("pause") image and
some image for the pods themselves. Pulling them would need the network and a
registry, so we write them ourselves as OCI image-layout tar archives that
`ctr -n k8s.io images import FILE` accepts:

    oci-layout                      {"imageLayoutVersion": "1.0.0"}
    index.json                      one manifest descriptor per image name
    blobs/sha256/<hex>              layer, config and manifest

containerd's importer (core/transfer/image and client/import.go in 2.4.2) names
each image from the descriptor's `io.containerd.image.name` annotation, taken
as is when it is a full reference; `org.opencontainers.image.ref.name` is only
the fallback and, without `--base-name`, is prefixed with "import-<date>:".
We put the full reference in both, one descriptor per name, so the images are
stored under exactly the names given. The kubelet (through the CRI)
normalizes short names (`busybox`, `busybox:1.36`) to
`docker.io/library/NAME:TAG`, so those are the names to import; `ctr` itself
does not normalize and needs the full name.

Archives are deterministic: the same inputs give the same bytes (entries
sorted, mtime 0, uid/gid 0, no user names, canonical JSON, uncompressed
layers so there is no gzip header with a timestamp). Standard library only.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import posixpath
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PAUSE_REF = "registry.k8s.io/pause:3.10"
BUSYBOX_REFS = ("docker.io/library/busybox:latest", "docker.io/library/busybox:1.36")
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

MEDIA_INDEX = "application/vnd.oci.image.index.v1+json"
MEDIA_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
MEDIA_CONFIG = "application/vnd.oci.image.config.v1+json"
MEDIA_LAYER = "application/vnd.oci.image.layer.v1.tar"  # uncompressed: no gzip timestamps
ANNOTATION_REF_NAME = "org.opencontainers.image.ref.name"
ANNOTATION_CONTAINERD_NAME = "io.containerd.image.name"
PLATFORM = {"architecture": "amd64", "os": "linux"}

PASSWD = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"
GROUP = "root:x:0:\nnobody:x:65534:\n"


class ImageError(RuntimeError):
    """An image could not be built (bad reference, missing binary, busybox without sh)."""


@dataclass(frozen=True)
class _Entry:
    """One member of a layer tar: a directory, a regular file or a symlink."""

    path: str  # relative, no leading "/" (what container layers use)
    kind: str  # "dir", "file" or "symlink"
    mode: int = 0o755
    data: bytes = b""
    target: str = ""


def normalize_ref(ref: str) -> str:
    """Spell ref the way the CRI looks it up: busybox -> docker.io/library/busybox:latest."""
    name, at, digest = ref.partition("@")
    last = name.rsplit("/", 1)[-1]
    repo = name.rsplit(":", 1)[0] if ":" in last else name
    if not name or any(c.isspace() for c in ref) or repo != repo.lower() or "//" in name:
        # Repository names are lower case; the CRI would never find this one.
        raise ImageError(f"not an image reference: {ref!r}")
    if ":" not in last and not at:
        name += ":latest"
    first, slash, rest = name.partition("/")
    if not slash or ("." not in first and ":" not in first and first != "localhost"):
        # No registry host: Docker Hub, whose one-part names live in library/.
        name = "docker.io/" + (name if slash else "library/" + name)
    elif first == "docker.io" and "/" not in rest:
        name = "docker.io/library/" + rest
    return name + at + digest


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _canonical_json(obj: Any) -> bytes:
    # Sorted keys and no whitespace: the digest of a manifest or config must
    # not depend on dict order.
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def _tar(entries: list[_Entry]) -> bytes:
    """A USTAR archive of entries, sorted by path, with every varying field fixed."""
    seen: set[str] = set()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for e in sorted(entries, key=lambda e: e.path):
            if e.path in seen:
                raise ImageError(f"duplicate layer path {e.path}")
            seen.add(e.path)
            info = tarfile.TarInfo(e.path)
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = e.mode
            if e.kind == "dir":
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            elif e.kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.linkname = e.target
                tar.addfile(info)
            else:
                info.type = tarfile.REGTYPE
                info.size = len(e.data)
                tar.addfile(info, io.BytesIO(e.data))
    return buf.getvalue()


def _with_parents(entries: list[_Entry]) -> list[_Entry]:
    """Add a directory entry (0755) for every parent a layer member needs."""
    have = {e.path for e in entries}
    out = list(entries)
    for e in entries:
        parent = posixpath.dirname(e.path)
        while parent and parent not in have:
            have.add(parent)
            out.append(_Entry(parent, "dir"))
            parent = posixpath.dirname(parent)
    return out


def _write_layout(out: Path, entries: list[_Entry], config: dict[str, Any], refs: list[str]) -> str:
    """Write the OCI layout archive for a one-layer image; return the manifest digest."""
    if not refs:
        raise ImageError("an image needs at least one reference")
    layer = _tar(_with_parents(entries))
    layer_digest = _sha256(layer)
    image_config = {
        **PLATFORM,
        "config": config,
        # Uncompressed layer: its diff id is its own digest.
        "rootfs": {"type": "layers", "diff_ids": [layer_digest]},
    }
    config_blob = _canonical_json(image_config)
    manifest = {
        "schemaVersion": 2,
        "mediaType": MEDIA_MANIFEST,
        "config": {
            "mediaType": MEDIA_CONFIG,
            "digest": _sha256(config_blob),
            "size": len(config_blob),
        },
        "layers": [{"mediaType": MEDIA_LAYER, "digest": layer_digest, "size": len(layer)}],
    }
    manifest_blob = _canonical_json(manifest)
    manifest_digest = _sha256(manifest_blob)
    index = {
        "schemaVersion": 2,
        "mediaType": MEDIA_INDEX,
        # One descriptor per name: a descriptor carries one name annotation.
        "manifests": [
            {
                "mediaType": MEDIA_MANIFEST,
                "digest": manifest_digest,
                "size": len(manifest_blob),
                "platform": PLATFORM,
                "annotations": {ANNOTATION_CONTAINERD_NAME: ref, ANNOTATION_REF_NAME: ref},
            }
            for ref in refs
        ],
    }
    files = [
        _Entry("oci-layout", "file", 0o644, _canonical_json({"imageLayoutVersion": "1.0.0"})),
        _Entry("index.json", "file", 0o644, _canonical_json(index)),
    ]
    for blob in (layer, config_blob, manifest_blob):
        files.append(
            _Entry("blobs/sha256/" + _sha256(blob).removeprefix("sha256:"), "file", 0o644, blob)
        )
    archive = _tar(_with_parents(files))
    out.parent.mkdir(parents=True, exist_ok=True)
    # Write then rename, so an interrupted build never leaves a half archive
    # that a later import would choke on.
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(archive)
    os.replace(tmp, out)
    return manifest_digest


def _unique_refs(refs: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(normalize_ref(r) for r in refs))


def pause_image(
    binary: Path,
    out: Path,
    ref: str = PAUSE_REF,
    *,
    extra_refs: tuple[str, ...] = (),
) -> str:
    """Write the sandbox image: /pause as the only file and the entrypoint.

    containerd 2.4.2's own default sandbox image is registry.k8s.io/pause:3.10.2;
    either set the CRI's pinned_images.sandbox to ref or also name it in extra_refs.
    Returns the manifest digest.
    """
    try:
        data = binary.read_bytes()
    except OSError as e:
        raise ImageError(f"pause binary {binary}: {e}") from e
    config = {"Entrypoint": ["/pause"], "Env": ["PATH=" + DEFAULT_PATH]}
    return _write_layout(
        out, [_Entry("pause", "file", 0o755, data)], config, _unique_refs((ref, *extra_refs))
    )


def _applets(busybox: Path) -> list[str]:
    """The applet paths busybox installs itself as (bin/sh, usr/bin/env, ...)."""
    try:
        proc = subprocess.run(
            [str(busybox), "--list-full"], capture_output=True, text=True, timeout=30, check=True
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise ImageError(f"{busybox} --list-full: {e}") from e
    paths = sorted({line.strip().lstrip("/") for line in proc.stdout.splitlines() if line.strip()})
    if "bin/sh" not in paths:
        raise ImageError(f"{busybox} has no sh applet; pods need /bin/sh")
    for p in paths:
        if p.startswith("../") or "/../" in p or p.startswith(".") or "//" in p:
            raise ImageError(f"{busybox} --list-full gave an odd path {p!r}")
    return [p for p in paths if p != "bin/busybox"]


def busybox_image(
    out: Path,
    refs: tuple[str, ...] = BUSYBOX_REFS,
    busybox: Path = Path("/usr/bin/busybox"),
) -> str:
    """Write a busybox image from a static busybox binary; return the manifest digest.

    One layer: /bin/busybox, a relative symlink per applet (so the layer reads
    right both inside a container and unpacked on the host), /tmp, /root and an
    /etc/passwd and /etc/group with root and nobody.
    """
    try:
        data = busybox.read_bytes()
    except OSError as e:
        raise ImageError(f"busybox binary {busybox}: {e}") from e
    entries = [
        _Entry("bin/busybox", "file", 0o755, data),
        _Entry("etc", "dir"),
        _Entry("etc/passwd", "file", 0o644, PASSWD.encode()),
        _Entry("etc/group", "file", 0o644, GROUP.encode()),
        _Entry("root", "dir", 0o700),
        _Entry("tmp", "dir", 0o1777),
    ]
    for applet in _applets(busybox):
        target = posixpath.relpath("bin/busybox", posixpath.dirname(applet) or ".")
        entries.append(_Entry(applet, "symlink", 0o777, target=target))
    config = {"Cmd": ["sh"], "Env": ["PATH=" + DEFAULT_PATH]}
    return _write_layout(out, entries, config, _unique_refs(refs))
