"""Which Kubernetes the answers are decided for: the server's `/version` becomes a SERVER change,
the snapshot carries it (live and in a recording), and the allocator takes that release's
behaviour (dra/alloc/features.py), clamped to the releases it mirrors."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gsb_tui.dra.alloc.features import (
    DEFAULT_RELEASE,
    NEWEST,
    OLDEST,
    features_for,
    mirrored,
    parse_release,
)
from gsb_tui.kube.recording import Recorder, read_changes
from gsb_tui.kube.store import Change, Store
from gsb_tui.kube.transport import Transport
from gsb_tui.kube.version import read_version
from gsb_tui.snapshot import Kind


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("v1.36.5", (1, 36, 5)),
        ("v1.36.5+k3s1", (1, 36, 5)),
        ("1.37.2", (1, 37, 2)),
        ("v1.38.0-beta.0", (1, 38, 0)),
        ("v1.37", (1, 37, 0)),
        ("", None),
        ("garbage", None),
        (None, None),
    ],
)
def test_versions_are_read_as_releases(text: str | None, release: object) -> None:
    assert parse_release(text) == release


def test_each_release_gets_its_own_allocator_behaviour() -> None:
    old, lab, new = features_for("v1.36.3"), features_for("v1.36.5+k3s1"), features_for("v1.37.2")
    assert (old.counters_by_pool_id, old.claim_limit_per_request) == (False, False)
    assert (lab.counters_by_pool_id, lab.claim_limit_per_request, lab.since_137) == (
        True,
        True,
        False,
    )
    # DRAFractionalCapacityRange is beta but off on a 1.37 binary (compatibility version 1.36)
    assert new.since_137 and not new.fractional_capacity_range and not new.compatibility_groups
    assert not lab.fractional_capacity_range


def test_unknown_and_unmirrored_versions_are_judged_by_the_nearest_mirrored_release() -> None:
    assert features_for("").release == DEFAULT_RELEASE
    assert features_for("v1.38.0-beta.0").release == NEWEST
    assert features_for("v1.30.0").release == OLDEST
    assert mirrored("v1.37.2") and mirrored("v1.36.0")
    assert not mirrored("v1.38.0-beta.0") and not mirrored("v1.35.9") and not mirrored("")


def test_a_server_change_sets_the_snapshots_version_once() -> None:
    store = Store()
    assert store.snapshot().server_version == ""
    assert store.apply(Change(Kind.NODES, "SERVER", label="v1.37.2")) is True
    assert store.apply(Change(Kind.NODES, "SERVER", label="v1.37.2")) is False
    snap = store.snapshot()
    assert snap.server_version == "v1.37.2"
    assert snap.revision == 1
    assert not snap.objects[Kind.NODES]  # the kind is unused: no object came with it


def test_a_recording_keeps_the_servers_version(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with path.open("w") as fh:
        rec = Recorder(fh, start=0.0)
        rec.write(Change(Kind.NODES, "SERVER", label="v1.36.5"), at=0.5)
        rec.mark("step-1")
    store = Store()
    for _, change in read_changes(path):
        store.apply(change)
    assert store.snapshot().server_version == "v1.36.5"


class _Answer:
    def __init__(self, status: int, body: bytes | None) -> None:
        self.status, self.body = status, body


class _Api:
    """Transport.fetch's shape only: what /version answers."""

    def __init__(self, status: int, body: bytes | None, delay: float = 0.0) -> None:
        self.answer = _Answer(status, body)
        self.delay = delay
        self.asked: list[str] = []

    async def fetch(self, path: str, *_args: object) -> _Answer:
        self.asked.append(path)
        await asyncio.sleep(self.delay)
        return self.answer


@pytest.mark.parametrize(
    ("status", "body", "want"),
    [
        (200, b'{"gitVersion": "v1.37.2", "major": "1"}', "v1.37.2"),
        (200, b'{"gitVersion": 137}', ""),
        (200, b"not json", ""),
        (200, b"[]", ""),
        (403, b'{"kind": "Status"}', ""),
        (200, None, ""),
    ],
)
def test_the_version_is_read_or_left_unknown(status: int, body: bytes | None, want: str) -> None:
    api = _Api(status, body)
    assert asyncio.run(read_version(api, timeout=1.0)) == want  # type: ignore[arg-type]
    assert api.asked == ["/version"]


def test_a_version_that_does_not_come_is_given_up_in_time() -> None:
    api: Transport = _Api(200, b'{"gitVersion": "v1"}', delay=5.0)  # type: ignore[assignment]
    assert asyncio.run(read_version(api, timeout=0.2)) == ""
