"""Store and recording semantics, on the recorded lab stream."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gsb_tui.kube.recording import (
    ReadStats,
    Recorder,
    RecordingError,
    read_changes,
    snapshot_at,
)
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind, KindState, Snapshot, obj_key


def test_replaying_every_change_matches_the_last_mark(lab_recording: Path) -> None:
    store = Store()
    for _, change in read_changes(lab_recording):
        store.apply(change)
    end = store.snapshot()
    assert end.objects == snapshot_at(lab_recording).objects
    assert end.synced


def test_synced_replaces_the_whole_kind(lab_snapshot) -> None:  # type: ignore[no-untyped-def]
    step8 = lab_snapshot("step-8")
    claims = step8.items(Kind.CLAIMS)
    store = Store()
    store.apply(Change(Kind.CLAIMS, "SYNCED", items=tuple(claims)))
    store.apply(Change(Kind.CLAIMS, "SYNCED", items=tuple(claims[:1])))
    assert [obj_key(o) for o in store.snapshot().items(Kind.CLAIMS)] == [obj_key(claims[0])]


def test_delete_of_an_older_incarnation_keeps_the_new_object(lab_snapshot) -> None:  # type: ignore[no-untyped-def]
    pod = lab_snapshot("step-3").items(Kind.PODS)[0]
    store = Store()
    store.apply(Change(Kind.PODS, "ADDED", obj=pod))
    older = {**pod, "metadata": {**pod["metadata"], "uid": "some-older-uid"}}
    assert not store.apply(Change(Kind.PODS, "DELETED", obj=older))
    assert store.snapshot().get(Kind.PODS, *obj_key(pod)) is pod
    assert store.apply(Change(Kind.PODS, "DELETED", obj=pod))
    assert store.snapshot().items(Kind.PODS) == []


def test_state_changes_bump_revision_only_when_different() -> None:
    store = Store()
    state = KindState(phase="reconnecting", message="refused", attempts=1)
    assert store.apply(Change(Kind.NODES, "STATE", state=state))
    assert not store.apply(Change(Kind.NODES, "STATE", state=state))
    assert store.snapshot().state(Kind.NODES).attempts == 1


def test_recording_round_trip(tmp_path: Path, lab_snapshot) -> None:  # type: ignore[no-untyped-def]
    slices = tuple(lab_snapshot("step-0").items(Kind.SLICES))
    out = tmp_path / "rec.jsonl"
    with out.open("w") as fh:
        rec = Recorder(fh)
        rec.write(Change(Kind.SLICES, "SYNCED", items=slices))
        rec.mark("here")
        rec.write(Change(Kind.SLICES, "STATE", state=KindState(phase="synced")))
    assert snapshot_at(out, "here").items(Kind.SLICES) == list(slices)
    assert snapshot_at(out).state(Kind.SLICES).phase == "synced"


def test_bad_recording_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"t": 0, "kind": "pods", "type": "MARK", "label": "a"}) + "\n{oops\n")
    stats = ReadStats()
    assert [c.label for _, c in read_changes(bad, stats)] == ["a"]
    assert (stats.changes, stats.bad_lines, stats.first_bad) == (1, 1, 2)
    with pytest.raises(RecordingError, match="cannot open recording"):
        snapshot_at(bad.with_name("missing.jsonl"), "zzz")
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"t": 0, "kind": "pods", "type": "MARK", "label": "a"}) + "\n")
    with pytest.raises(RecordingError, match="no mark 'zzz'"):
        snapshot_at(good, "zzz")


def test_a_snapshot_returned_by_asyncio_run_is_not_written_out(
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    """asyncio.run reprs its main task's result on the way out (Python 3.11: the SIGINT
    handler it puts back holds the task), twice; a full repr of 5,000 claims took 0.1 s each."""
    seen: list[str] = []

    class Watched(Snapshot):
        def __repr__(self) -> str:
            seen.append(super().__repr__())
            return seen[-1]

    recorded = lab_snapshot("step-8")
    snapshot = Watched(objects=recorded.objects, states=recorded.states, revision=7)

    async def fetched() -> object:
        return snapshot

    assert asyncio.run(fetched()) is snapshot
    objects = sum(len(objs) for objs in snapshot.objects.values())
    assert objects > 20  # the recording's objects, not an empty snapshot
    assert all(len(said) < 300 for said in seen), seen
    said = repr(snapshot)
    assert said.startswith("Snapshot(revision=7, ")
    assert f"{Kind.CLAIMS.value}={len(snapshot.objects[Kind.CLAIMS])}" in said
