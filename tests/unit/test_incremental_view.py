"""A view builder keeps what it derived while its inputs are the very same objects, patches the
pod ↔ claim index for the pods a change can touch, and find_warnings judges again only what
changed or read what changed: after every recorded change (and after
seeded deletes and re-adds of recorded objects, in random order) each kept or patched part
equals what computing it whole from the same view gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gsb_tui.dra import pod_claims
from gsb_tui.dra.builder import ViewBuilder
from gsb_tui.dra.derive import split_generations, time_of
from gsb_tui.dra.node_side import vanished_pools
from gsb_tui.dra.node_summary import ledger_counts
from gsb_tui.dra.occupancy import compute_occupancy
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import find_warnings, judge_whole
from gsb_tui.kube.recording import read_changes
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind
from tests.recorded import PROFILE_RECORDINGS, RECORDING

RECORDINGS = [RECORDING, *sorted(PROFILE_RECORDINGS.glob("*.jsonl"))]
SEED = 1336
SHUFFLES = 60  # changes per recording in the shuffled run (bounded: CI runs it every time)


def _whole(view: DraView) -> None:
    """Each incremental part of the view against its whole compute over the same view."""
    index: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for pod in view.pods.values():
        for claim in pod_claims.resolve_claims(pod, view.claims, view._claims_by_owner):
            index.setdefault(claim.key, []).append(pod.key)
    got_index = {k: [p.key for p in v] for k, v in view._pods_by_claim.items()}
    assert got_index == {k: sorted(v) for k, v in index.items()}
    for claim in view.claims.values():
        want = sorted(
            {
                *(
                    p.key
                    for p in view.pods.values()
                    if claim.key
                    in {
                        c.key
                        for c in pod_claims.resolve_claims(p, view.claims, view._claims_by_owner)
                    }
                ),
                *(
                    (claim.namespace, r.name)
                    for r in claim.reserved_for
                    if r.resource == "pods"
                    and (claim.namespace, r.name) in view.pods
                    and (
                        not r.uid
                        or not view.pods[(claim.namespace, r.name)].uid
                        or r.uid == view.pods[(claim.namespace, r.name)].uid
                    )
                ),
            }
        )
        got = view.pods_of_claim(claim)
        assert [p.key for p in got] == want, claim.key
        assert all(p is view.pods[p.key] for p in got)  # the current objects, not old ones
    whole = compute_occupancy(view.devices, view.claims.values())
    assert dict(view.occupancy) == whole
    slices, stale = split_generations(view.slices + view.stale_slices)
    assert (slices, stale) == (view.slices, view.stale_slices)
    assert view.devices == tuple(d for s in view.slices for d in s.devices)
    assert view.claims == {c.key: c for c in view.claims.values()}
    stamps = [time_of(e.last_seen) for e in view.events]
    assert stamps == sorted(stamps)
    orphans = tuple(
        (c, r.id) for c in view.claims.values() for r in c.results if r.id not in view.occupancy
    )
    assert view.orphan_results == orphans
    assert find_warnings(view) == judge_whole(view)
    # What is kept by identity (parses placed by bisect, per-kind malformed lists, ledger
    # counts, health from the pods that report it, published pools) equals a fresh builder's.
    fresh = ViewBuilder().build(view.snapshot)
    for kind in (Kind.CLAIMS, Kind.PODS, Kind.TEMPLATES):
        assert view._parsed[kind] == fresh._parsed[kind], kind
    assert view.malformed() == fresh.malformed()
    assert ledger_counts(view) == ledger_counts(fresh)
    assert view.health == fresh.health
    assert vanished_pools(view) == vanished_pools(fresh)
    assert find_warnings(view) == find_warnings(fresh)


@pytest.mark.parametrize("recording", RECORDINGS, ids=lambda p: p.stem)
def test_every_recorded_change(recording: Path) -> None:
    store, builder = Store(), ViewBuilder()
    built = 0
    for _, change in read_changes(recording):
        if store.apply(change):
            _whole(builder.build(store.snapshot()))
            built += 1
    assert built > 10


@pytest.mark.parametrize("recording", RECORDINGS, ids=lambda p: p.stem)
def test_shuffled_deletes_and_readds(recording: Path) -> None:
    # From the busiest moment of the recording (most pods and claims), not its cleaned-up end.
    changes = [change for _, change in read_changes(recording)]
    store, sizes = Store(), []
    for change in changes:
        store.apply(change)
        snapshot = store.snapshot()
        sizes.append(len(snapshot.objects[Kind.PODS]) + len(snapshot.objects[Kind.CLAIMS]))
    store = Store()
    for change in changes[: sizes.index(max(sizes)) + 1]:
        store.apply(change)
    assert max(sizes) >= 2
    rng = random.Random(f"{SEED}-{recording.stem}")
    gone: list[Change] = []
    builder = ViewBuilder()
    for _ in range(SHUFFLES):
        snapshot = store.snapshot()
        kind = rng.choice(
            (Kind.PODS, Kind.CLAIMS, Kind.PODS, Kind.CLAIMS, Kind.SLICES, Kind.TEMPLATES)
        )
        objects = list(snapshot.objects.get(kind, {}).values())
        if gone and (not objects or rng.random() < 0.4):
            back = gone.pop(rng.randrange(len(gone)))
            store.apply(Change(back.kind, "ADDED", obj=back.obj))
        elif objects:
            obj = rng.choice(objects)
            store.apply(Change(kind, "DELETED", obj=obj))
            gone.append(Change(kind, "ADDED", obj=obj))
        view = builder.build(store.snapshot())
        _whole(view)
    # Unchanged input, unchanged parts: the very same objects (what panes compare by `is`).
    again = builder.build(store.snapshot())
    assert again.claims is view.claims and again.pods is view.pods
    assert again.occupancy is view.occupancy and again._pods_by_claim is view._pods_by_claim
