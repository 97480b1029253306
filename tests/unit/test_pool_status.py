"""dra/pool_status.py on what the real resourcepoolstatusrequest-controller wrote
(tests/fixtures/poolstatus/<stage>.json, recorded by scripts/record_pool_status.py from practice
clusters of v1.37.2 and v1.36.5): the controller's counts mirrored as it counts them, beside the
ledger's, and every difference named.

Which devices, pools and requests each reason is about is found in the recording (the claims'
results, the slices, the taints), never named here.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.devices_cli import _pool_json, _pool_lines, _request_json
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.pool_status import _MOVES, FIELDS, PoolComparison, PoolStatus, compare
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, KindState, Snapshot, obj_key
from gsb_tui.words import CATALOG, text
from tests.recorded import view as lab_view

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "poolstatus"
STAGES = sorted(p.stem for p in FIXTURES.glob("*.json"))
TIME_CODES = ("generation", "since", "gone", "incomplete-now")
# Each stage but `later` ends with a request the controller just answered (`later` changes what
# `busy` counted, after it answered).
ANSWERED = [s for s in STAGES if s != "later"]


@functools.cache
def recorded(stage: str) -> tuple[DraView, PoolStatus]:
    data = json.loads((FIXTURES / f"{stage}.json").read_text())
    objects = {Kind(k): {obj_key(o): o for o in items} for k, items in data["objects"].items()}
    states = {k: KindState("synced", scope="cluster") for k in objects}
    snap = Snapshot(objects=objects, states=states, server_version=data["server_version"])
    view = build_view(snap)
    return view, compare(view)


def newest(status: PoolStatus) -> list[PoolComparison]:
    """The pools of the requests answered last in a stage: the script records right after."""
    last = max(r.written_at for r in status.requests if r.written_at)
    return [p for p in status.pools if p.written_at == last]


def pool(status: PoolStatus, request: str, key: tuple[str, str]) -> PoolComparison:
    (found,) = [p for p in status.pools if p.request == request and (p.driver, p.pool) == key]
    return found


def reason(p: PoolComparison, code: str) -> tuple[str, ...]:
    found = [r for r in p.reasons if r.code == code]
    return found[0].devices if found else ()


def pool_devices(view: DraView, key: tuple[str, str]) -> list[DeviceId]:
    return sorted({d.id for d in view.devices if (d.id.driver, d.id.pool) == key})


def tainted(view: DraView, id: DeviceId) -> bool:
    found = view.availability.get(id)
    return found is not None and any(t.blocks for t in found.taints)


def held(view: DraView, id: DeviceId) -> bool:
    occ = view.occupancy.get(id)
    return occ is not None and bool(occ.holders)


# ---- every stage ---------------------------------------------------------------------------


def test_the_stages_are_recorded_on_both_releases() -> None:
    versions = {recorded(s)[0].snapshot.server_version for s in STAGES}
    assert {v.split(".")[1] for v in versions} == {"36", "37"}, versions
    assert all(recorded(s)[1].requests for s in STAGES)


@pytest.mark.parametrize("stage", ANSWERED)
def test_the_mirror_writes_what_the_controller_wrote(stage: str) -> None:
    """Right after the controller answered, counting the same objects gives its numbers."""
    _, status = recorded(stage)
    fresh = newest(status)
    assert fresh
    for p in fresh:
        assert p.mirrored == p.reported, (p.request, p.pool)
        assert not [r for r in p.reasons if r.code in TIME_CODES], (p.request, p.pool)


@pytest.mark.parametrize("stage", STAGES)
def test_the_reasons_add_up_to_the_difference(stage: str) -> None:
    """Field by field, what the named reasons move is upstream's count minus gsb-tui's."""
    view, status = recorded(stage)
    for p in status.pools:
        moved = {f: sum(r.moves.get(f, 0) for r in p.reasons) for f in FIELDS}
        assert {f: v for f, v in moved.items() if v} == p.reported.minus(p.own), p
        assert "unexplained" not in {r.code for r in p.reasons}
        assert p.differs == bool(p.reported.minus(p.own))
        ledger = view.ledger()
        ids = set(pool_devices(view, (p.driver, p.pool)))
        assert p.own.total == len(ids)
        assert p.own.allocated == len(ids & ledger.allocated)
        assert p.own.available == len(ids & ledger.allocatable)


def test_every_reason_and_note_has_words_in_both_languages() -> None:
    codes = {*_MOVES, *TIME_CODES, "validation-error", "unexplained"}
    for code in codes:
        assert f"poolstatus.reason.{code}" in CATALOG, code
    for stage in STAGES:
        for p in recorded(stage)[1].pools:
            for r in p.notes:
                assert f"poolstatus.note.{r.code}" in CATALOG, r.code


# ---- 1.37.2: what it counts apart from gsb-tui -----------------------------------------------


def test_137_counts_a_held_tainted_device_allocated_and_unavailable() -> None:
    view, status = recorded("busy")
    seen = 0
    for p in newest(status):
        key = (p.driver, p.pool)
        both = tuple(
            i.device for i in pool_devices(view, key) if held(view, i) and tainted(view, i)
        )
        assert reason(p, "tainted-held") == both
        seen += len(both)
        marked = [i for i in pool_devices(view, key) if tainted(view, i)]
        assert p.reported.unavailable == len(marked)  # allocated or not, as 1.37.2 counts
    assert seen, "the recording has a held device with a NoSchedule/NoExecute taint"


def test_137_counts_devices_short_of_counters_available() -> None:
    view, status = recorded("busy")
    short = {
        id
        for id, found in view.availability.items()
        if found.short_counters and not held(view, id) and not tainted(view, id)
    }
    assert short
    said = {DeviceId(p.driver, p.pool, d) for p in newest(status) for d in reason(p, "counters")}
    assert said == short


def test_137_counts_a_shared_device_once_and_not_available() -> None:
    view, status = recorded("busy")
    shared = {
        id
        for id, occ in view.occupancy.items()
        if occ.device.multiple and len(occ.holders) > 1 and id in view.ledger().allocatable
    }
    assert shared
    for p in newest(status):
        names = {i.device for i in shared if (i.driver, i.pool) == (p.driver, p.pool)}
        assert set(reason(p, "shared-room")) == names
        assert {n for r in p.notes if r.code == "shares" for n in r.devices} == names


def test_adminaccess_counts_on_neither_side_in_137() -> None:
    view, status = recorded("busy")
    admin = {
        (r.id.driver, r.id.pool, r.id.device)
        for c in view.claims.values()
        for r in c.results
        if r.admin_access
    }
    assert admin
    for p in newest(status):
        watched = {n for r in p.notes if r.code == "admin-access" for n in r.devices}
        assert watched == {d for dr, po, d in admin if (dr, po) == (p.driver, p.pool)}
        assert not reason(p, "admin-results")


def test_an_older_answer_is_told_apart_from_the_counting() -> None:
    """`later`: a claim freed and the taints pool republished after `busy` was answered."""
    view, status = recorded("later")
    gens = {(s.driver, s.pool): s.generation for s in view.slices}
    moved = [p for p in status.pools if p.generation != gens[(p.driver, p.pool)]]
    assert moved
    for p in moved:
        (r,) = [r for r in p.reasons if r.code == "generation"]
        assert r.detail == f"{p.generation} → {gens[(p.driver, p.pool)]}"
    still = [p for p in status.pools if p.generation == gens[(p.driver, p.pool)]]
    assert any("since" in {r.code for r in p.reasons} for p in still)
    for p in still:
        assert ("since" in {r.code for r in p.reasons}) == (p.reported != p.mirrored)


def test_results_naming_an_unpublished_device_and_a_pool_with_a_name_twice() -> None:
    view, status = recorded("orphan")
    orphans = {(d.driver, d.pool, d.device) for c, d in view.orphan_results}
    assert orphans
    fresh = newest(status)
    said = {(p.driver, p.pool, d) for p in fresh for d in reason(p, "orphan-results")}
    assert said == orphans
    invalid = {k for k, (state, why) in view.pool_problems.items() if "duplicate" in why}
    assert invalid
    for key in invalid:
        (p,) = [p for p in fresh if (p.driver, p.pool) == key]
        twice = sum(1 for d in view.devices if (d.id.driver, d.id.pool) == key) - p.own.total
        assert p.reported.total == p.own.total + twice
        assert reason(p, "duplicates") and reason(p, "pool-problem")


def test_a_request_the_controller_gave_up_on_says_which_pool_is_incomplete() -> None:
    view, status = recorded("incomplete")
    problems = view.pool_problems.items()
    incomplete = {f"{d}/{p}" for (d, p), (state, _) in problems if state == "incomplete-pool"}
    (pending,) = [r for r in status.requests if r.state == "pending"]
    assert pending.written_at == "" and pending.pool_count is None
    assert set(pending.waiting_on) == incomplete and incomplete
    words = _request_json("ko", pending)["text"]
    assert all(p in words for p in incomplete) and "5" in words


def test_a_limit_lists_fewer_pools_than_matched() -> None:
    _, status = recorded("busy")
    cut = [r for r in status.requests if r.pool_count is not None and r.listed < r.pool_count]
    assert cut and all(r.listed == r.limit for r in cut)
    assert "spec.limit" in _request_json("en", cut[0])["text"]


# ---- 1.36.5: another way of counting -------------------------------------------------------


def test_136_counts_every_result_and_no_taint() -> None:
    view, status = recorded("busy-1.36")
    assert view.snapshot.server_version.startswith("v1.36.")
    results: dict[tuple[str, str], list[Any]] = {}
    for c in view.claims.values():
        for r in c.results:
            results.setdefault((r.id.driver, r.id.pool), []).append(r)
    for p in newest(status):
        key = (p.driver, p.pool)
        assert p.reported.unavailable == 0
        assert p.reported.allocated == len(results.get(key, []))
        admin = [r for r in results.get(key, []) if r.admin_access]
        assert sum(r.n for r in p.reasons if r.code == "admin-results") == len(admin)
        free_tainted = tuple(
            i.device for i in pool_devices(view, key) if tainted(view, i) and not held(view, i)
        )
        assert reason(p, "taints-uncounted") == free_tainted
    assert any(reason(p, "admin-results") for p in status.pools)
    assert any(reason(p, "share-results") for p in status.pools)
    assert any(reason(p, "taints-uncounted") for p in status.pools)


# ---- nothing to compare; the CLI's words ---------------------------------------------------


def test_no_request_or_no_api_is_nothing_to_compare() -> None:
    assert compare(lab_view("step-6")) == PoolStatus()
    view, _ = recorded("busy")
    objects = {k: v for k, v in view.snapshot.objects.items() if k is not Kind.POOL_STATUS}
    states = {**view.snapshot.states, Kind.POOL_STATUS: KindState("not-served", "404")}
    snap = Snapshot(objects=objects, states=states, server_version="v1.36.5")
    assert compare(build_view(snap)) == PoolStatus()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_cli_says_each_pool_and_reason(lang: str) -> None:
    _, status = recorded("orphan")
    for p in status.pools:
        out = _pool_json(lang, p)
        assert out["upstream"] == p.reported.as_dict() and out["gsb_tui"] == p.own.as_dict()
        assert all(r["text"] for r in out["reasons"] + out["notes"])
        json.dumps(out, ensure_ascii=False)
    lines = _pool_lines(lang, status.requests, list(status.pools))
    shown = {(p.driver, p.pool) for p in status.pools}
    heads = [line for line in lines if line.startswith("  ") and not line.startswith("   ")]
    assert sum(1 for line in heads if " · gsb-tui " in line) == len(shown)
    older = text(lang, "poolstatus.older", n=len(status.pools) - len(shown))
    assert lines[-1].strip() == older
