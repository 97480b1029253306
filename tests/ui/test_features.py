"""The DRA 1.36 features drawn in the panes, in English and Korean: partitions blocked by the
counters a whole device uses, a tainted free device, a device shared by two claims, binding
conditions waiting and failed, the firstAvailable alternative chosen, the driver's device status.

The cluster is the recorded lab (tests/fixtures/lab.jsonl, right after step 8) with the 1.36
fields added to copies of its own objects the way the API server serves them (resource.k8s.io/v1
field names); what dra/ decides about them is tested in tests/unit/test_dra_availability.py.
Accepted SVGs live in snapshots/test_features/ (see conftest.py).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from gsb_tui.dra.model import DeviceId
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot, obj_key
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text
from tests.recorded import snap
from tests.ui.helpers import make_app, select_claim, wait_until
from tests.ui.scripted import SnapshotSource

SnapCompare = Callable[..., bool]
NS = "dra-lab"
MARK = "step-8"
COUNTERS = "gpu-8-counters"
WHOLE, HALVES = "gpu-8", ("gpu-8-mig-a", "gpu-8-mig-b")
TAINTED, SHARED, BINDING = "gpu-4", "gpu-5", "gpu-6"
TAINT = "example.com/ecc=degraded:NoSchedule"
ATTACHED, ATTACH_FAILED = "example.com/attached", "example.com/attach-failed"


# --- the derived cluster --------------------------------------------------------------------


def _with(base: Snapshot, **kinds: list[Obj]) -> Snapshot:
    objects = dict(base.objects)
    for name, objs in kinds.items():
        kind = Kind[name]
        merged: dict[ObjKey, Obj] = dict(objects.get(kind, {}))
        merged.update({obj_key(o): o for o in objs})
        objects[kind] = merged
    return Snapshot(objects=objects, states=base.states, revision=base.revision + 1)


def _recorded(kind: Kind, name: str, namespace: str = "") -> dict[str, Any]:
    found = snap(MARK).get(kind, namespace, name)
    assert found is not None, f"{name} is not in the recording at {MARK}"
    return copy.deepcopy(dict(found))


def _lab_slice() -> dict[str, Any]:
    (raw,) = snap(MARK).items(Kind.SLICES)
    return copy.deepcopy(dict(raw))


def _device(raw_slice: dict[str, Any], name: str) -> dict[str, Any]:
    return next(d for d in raw_slice["spec"]["devices"] if d["name"] == name)


def _held_by_pod(
    name: str, results: list[dict[str, Any]], spec: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A copy of the lab's pick-seven claim and its pod dra-7, renamed, holding `results`."""
    claim = _recorded(Kind.CLAIMS, "pick-seven", NS)
    pod = _recorded(Kind.PODS, "dra-7", NS)
    pod_name = f"{name}-pod"
    claim["metadata"].update(name=name, uid=f"uid-{name}")
    claim["metadata"].pop("annotations", None)
    if spec is not None:
        claim["spec"] = spec
    claim["status"]["allocation"]["devices"]["results"] = results
    claim["status"]["reservedFor"] = [
        {"resource": "pods", "name": pod_name, "uid": f"uid-{pod_name}"}
    ]
    pod["metadata"].update(name=pod_name, uid=f"uid-{pod_name}")
    pod["metadata"].pop("annotations", None)
    pod["spec"]["resourceClaims"] = [{"name": "gpu", "resourceClaimName": name}]
    return claim, pod


def _request(**exactly: Any) -> dict[str, Any]:
    """A claim spec of one request "gpu" for a device of the lab's class (no selector)."""
    driver = _lab_slice()["spec"]["driver"]
    request = {"name": "gpu", "exactly": {"deviceClassName": driver, **exactly}}
    return {"devices": {"requests": [request]}}


def _result(device: str, pool: str, **extra: Any) -> dict[str, Any]:
    driver = _lab_slice()["spec"]["driver"]
    return {"request": "gpu", "driver": driver, "pool": pool, "device": device, **extra}


SHARES = (("share-40", "40Gi"), ("share-20", "20Gi"))


def features_snapshot(shares: tuple[tuple[str, str], ...] = SHARES) -> Snapshot:
    """Step 8 plus: a partitioned GPU (a counter-only slice; gpu-8 uses all its memory, so its
    two halves are blocked), a NoSchedule taint on the free gpu-4, and gpu-5 shared by claims
    (name, memory) under a capacity policy (at least 10Gi, in steps of 10Gi)."""
    lab = _lab_slice()
    pool = lab["spec"]["pool"]["name"]
    _device(lab, TAINTED)["taints"] = [
        {"key": "example.com/ecc", "value": "degraded", "effect": "NoSchedule"}
    ]
    shared = _device(lab, SHARED)
    shared["allowMultipleAllocations"] = True
    shared["capacity"]["memory"]["requestPolicy"] = {
        "default": "10Gi",
        "validRange": {"min": "10Gi", "step": "10Gi"},
    }
    # A second pool on the node: one physical GPU (the counter set) cut three ways.
    mig_pool = {"name": f"{pool}-mig", "generation": 1, "resourceSliceCount": 2}
    parts = copy.deepcopy(lab)
    parts["metadata"].update(name=f"{lab['metadata']['name']}-mig", uid="uid-mig")
    parts["spec"]["pool"] = mig_pool
    template = _device(lab, "gpu-6")
    parts["spec"]["devices"] = []
    for name, memory in ((WHOLE, "80Gi"), (HALVES[0], "40Gi"), (HALVES[1], "40Gi")):
        device = copy.deepcopy(template)
        device["name"] = name
        device["attributes"]["index"] = {"int": 8}
        device["capacity"]["memory"] = {"value": memory}
        device["consumesCounters"] = [
            {"counterSet": COUNTERS, "counters": {"memory": {"value": memory}}}
        ]
        parts["spec"]["devices"].append(device)
    counters = copy.deepcopy(parts)
    counters["metadata"].update(name=f"{lab['metadata']['name']}-counters", uid="uid-counters")
    del counters["spec"]["devices"]
    counters["spec"]["sharedCounters"] = [
        {"name": COUNTERS, "counters": {"memory": {"value": "80Gi"}}}
    ]
    whole, whole_pod = _held_by_pod("whole-gpu", [_result(WHOLE, mig_pool["name"])], _request())
    held: list[dict[str, Any]] = []
    for name, memory in shares:
        share = {"shareID": f"8c5a-{name[6:]}", "consumedCapacity": {"memory": memory}}
        held += _held_by_pod(
            name,
            [_result(SHARED, pool, **share)],
            _request(capacity={"requests": {"memory": memory}}),
        )
    return _with(
        snap(MARK),
        SLICES=[lab, parts, counters],
        CLAIMS=[whole, *held[0::2]],
        PODS=[whole_pod, *held[1::2]],
    )


def binding_snapshot(failed: bool = False, allocated: datetime | None = None) -> Snapshot:
    """Step 8 plus gpu-6 with binding conditions, allocated to a claim whose request chose its
    second firstAvailable alternative: waiting (no status yet) or with its failure condition
    true. The claim also says it was made for an extended resource and has a constraint and
    an opaque config."""
    lab = _lab_slice()
    pool = lab["spec"]["pool"]["name"]
    driver = lab["spec"]["driver"]
    device = _device(lab, BINDING)
    device["bindingConditions"] = [ATTACHED]
    device["bindingFailureConditions"] = [ATTACH_FAILED]
    device["bindsToNode"] = True
    toleration = {"key": "example.com/ecc", "operator": "Exists", "effect": "NoSchedule"}
    spec = {
        "devices": {
            "requests": [
                {
                    "name": "gpu",
                    "firstAvailable": [
                        {"name": "big", "deviceClassName": driver, "count": 2},
                        {"name": "one", "deviceClassName": driver, "tolerations": [toleration]},
                    ],
                }
            ],
            "constraints": [{"requests": ["gpu"], "matchAttribute": f"{driver}/model"}],
            "config": [{"opaque": {"driver": driver, "parameters": {"mode": "exclusive"}}}],
        }
    }
    when = allocated or datetime.now(UTC) - timedelta(seconds=100)
    result = _result(
        BINDING,
        pool,
        request="gpu/one",
        bindingConditions=[ATTACHED],
        bindingFailureConditions=[ATTACH_FAILED],
        tolerations=[toleration],
    )
    claim, pod = _held_by_pod("attach-me", [result], spec)
    claim["metadata"]["annotations"] = {"resource.kubernetes.io/extended-resource-claim": "true"}
    claim["status"]["allocation"]["allocationTimestamp"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    if failed:
        claim["status"]["devices"] = [
            {
                "driver": driver,
                "pool": pool,
                "device": BINDING,
                "conditions": [
                    {"type": ATTACHED, "status": "False", "reason": "Attaching"},
                    {
                        "type": ATTACH_FAILED,
                        "status": "True",
                        "reason": "FabricDown",
                        "message": "the fabric manager did not answer",
                    },
                ],
                "data": {"fabric": "f0", "slot": 3},
                "networkData": {"interfaceName": "eth1", "ips": ["10.9.0.7/24"]},
            }
        ]
    return _with(snap(MARK), SLICES=[lab], CLAIMS=[claim], PODS=[pod])


# --- helpers --------------------------------------------------------------------------------


def _id(app: GsbApp, name: str) -> DeviceId:
    assert app.view is not None
    return next(d.id for d in app.view.devices if d.name == name)


def _cell(app: GsbApp, name: str) -> str:
    return "\n".join(app.dashboard.grid.canvas.cell_text(_id(app, name)))


def _plain(widget: Static) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def _screen_text(app: GsbApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def _painted(pilot: Pilot[Any]) -> None:
    """The source played out, the grid drawn and the checklist judged that very view."""
    app = pilot.app
    assert isinstance(app, GsbApp)

    def painted() -> bool:
        view = app.view
        return (
            bool(getattr(app.source, "done", False))
            and view is not None
            and view.snapshot.revision == app.store.revision
            and app.verdicts_view is view
            and bool(app.dashboard.grid.cells)
            and app.dashboard.details.previewed
        )

    await wait_until(pilot, painted)


LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


# --- the grid -------------------------------------------------------------------------------


@LANGS
async def test_grid_cells_say_blocked_tainted_and_shared(lang: str) -> None:
    app = make_app(SnapshotSource(features_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        view = app.view
        assert view is not None
        # the whole GPU is held; its halves are blocked by it, and say so
        assert view.state(_id(app, WHOLE)) == "reserved"
        assert f"{text(lang, 'cell.claim')}whole-gpu " in _cell(app, WHOLE)
        for half in HALVES:
            assert view.state(_id(app, half)) == "blocked"
            cell = _cell(app, half)
            assert text(lang, "feat.cell.blocked-by", device=WHOLE) in cell
            assert text(lang, "feat.cell.short", counters="memory") in cell
            assert text(lang, "feat.state.blocked") in cell.splitlines()[-1]
        # the taint, whole (over two lines when it is long), on the free device it keeps
        # requests off
        cell = _cell(app, TAINTED).splitlines()
        assert "".join(line.strip("│ ") for line in cell[1:3]) == TAINT
        assert text(lang, "feat.state.tainted") in cell[-1]
        # two shares of 80Gi: 40Gi and 20Gi taken, 20Gi left
        cell = _cell(app, SHARED)
        assert text(lang, "feat.cell.shares", n=2, left="20Gi") in cell
        assert f"{text(lang, 'cell.claim')}share-20, share-" in cell  # both claims, cut to fit
        assert cell.splitlines()[-1].rstrip("─╯ ").endswith("shared")
        # a lab-shaped device is drawn as before
        assert text(lang, "cell.free") in _cell(app, "gpu-6")
        assert _cell(app, "gpu-6").splitlines()[-1].rstrip("─╯ ").endswith("free")


@LANGS
async def test_a_shared_device_with_too_little_left_is_full(lang: str) -> None:
    shares = (("share-40", "40Gi"), ("share-40b", "40Gi"))  # 80Gi taken: less than 10Gi left
    app = make_app(SnapshotSource(features_snapshot(shares)), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        assert app.view is not None and app.view.state(_id(app, SHARED)) == "full"
        cell = _cell(app, SHARED).splitlines()
        assert text(lang, "feat.cell.shares", n=2, left="0") in cell[1]
        assert cell[-1].rstrip("─╯ ").endswith(text(lang, "feat.state.full"))


@LANGS
async def test_grid_groups_a_counter_set_and_the_ledger_counts_what_cannot_be_allocated(
    lang: str,
) -> None:
    app = make_app(SnapshotSource(features_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        grid = app.dashboard.grid
        view = app.view
        assert view is not None
        lab, counted = grid.canvas.groups
        # the lab's own pool is still one group by node and pool, as before
        count = text(lang, "grid.group-count", n=8)
        assert lab.title.plain == f"node lab-node · {view.lab_driver()} · gen 1 · {count}"
        # the partitions of one GPU are one group, titled by their counter set and its use
        assert [d.device for d in counted.devices] == [WHOLE, *HALVES]
        used = text(lang, "feat.group.counter", counter="memory", used="80Gi", left="0")
        assert counted.title.plain.startswith(f"{COUNTERS} · {used} · node lab-node pool ")
        # what is published is not what can be allocated: the ledger says why
        ledger = view.ledger()
        assert (ledger.total, len(ledger.allocated), ledger.free) == (11, 7, 2)
        line = str(grid.query_one(".ledger", Static).render()).splitlines()[0]
        counts = text(lang, "ledger", total=11, used=7, free=2)
        blocked = text(lang, "feat.ledger.blocked", n=2)
        tainted = text(lang, "feat.ledger.tainted", n=1)
        assert line == f"{counts} · {blocked} · {tainted}"


async def test_the_lab_ledger_line_has_no_blocked_words() -> None:
    app = make_app(SnapshotSource(snap(MARK)), "en")
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        ledger = str(app.dashboard.grid.query_one(".ledger", Static).render()).splitlines()[0]
        assert ledger == "8 devices · 5 in use · 3 free"


@LANGS
async def test_binding_cell_and_details(lang: str) -> None:
    app = make_app(SnapshotSource(binding_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        cell = _cell(app, BINDING)
        assert ATTACHED in cell.splitlines()[1]  # the condition the device waits for
        assert text(lang, "feat.state.binding") in cell.splitlines()[-1]
        await select_claim(pilot, app, (NS, "attach-me"))
        details = _plain(app.dashboard.details.query_one(".details-text", Static))
        lines = details.splitlines()
        chosen = text(lang, "feat.chosen", sub="one", index=2, total=2, request="gpu")
        assert f"    {chosen}" in lines
        pending = text(lang, "feat.binding.pending", conditions=ATTACHED)
        (waiting,) = [line for line in lines if pending in line]
        left = re.escape(text(lang, "feat.binding.left", left="@")).replace("@", r"(\d+)")
        found = re.search(left, waiting)
        assert found is not None, waiting
        assert 400 < int(found.group(1)) <= 500  # allocated 100 s ago, the scheduler waits 600
        tolerates = text(lang, "feat.tolerates", tolerations="example.com/ecc:NoSchedule op=Exists")
        assert f"    {tolerates}" in lines
        assert text(lang, "feat.extended") in lines
        model = f"matchAttribute {app.view.lab_driver() if app.view else ''}/model over gpu"
        assert f"  {text(lang, 'feat.constraint', constraint=model)}" in lines
        assert f"  {text(lang, 'feat.config', n=1)}" in lines


@LANGS
async def test_binding_failed_and_device_status(lang: str) -> None:
    app = make_app(SnapshotSource(binding_snapshot(failed=True)), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        cell = _cell(app, BINDING)
        assert "example.com/attach-fail" in cell.splitlines()[1]  # cut to the cell's width
        assert text(lang, "feat.state.binding-failed") in cell.splitlines()[-1]
        await select_claim(pilot, app, (NS, "attach-me"))
        details = _plain(app.dashboard.details.query_one(".details-text", Static))
        lines = details.splitlines()
        failed = text(lang, "feat.binding.failed", conditions=ATTACH_FAILED)
        assert f"    {failed}" in lines
        status = lines.index(text(lang, "feat.h.device-status"))
        section = lines[status + 1 : status + 6]
        assert section[0].startswith(f"  {BINDING}  ")
        assert f"    {ATTACHED}=False Attaching" in section
        assert f"    {ATTACH_FAILED}=True FabricDown: the fabric manager did not answer" in section
        assert "    data: fabric, slot" in section
        assert "    networkData: interfaceName=eth1  ips=10.9.0.7/24" in section


async def test_binding_time_runs_out() -> None:
    late = datetime.now(UTC) - timedelta(seconds=900)
    app = make_app(SnapshotSource(binding_snapshot(allocated=late)), "en")
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        await select_claim(pilot, app, (NS, "attach-me"))
        details = _plain(app.dashboard.details.query_one(".details-text", Static))
        assert text("en", "feat.binding.expired", timeout=600) in details


@LANGS
async def test_shares_in_details_and_counters_in_slices_and_describe(lang: str) -> None:
    app = make_app(SnapshotSource(features_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        await select_claim(pilot, app, (NS, "share-40"))
        details = _plain(app.dashboard.details.query_one(".details-text", Static))
        share = text(lang, "feat.share", share="8c5a-40")
        consumed = text(lang, "feat.consumed", amounts="memory=40Gi")
        assert f"    {share} · {consumed}" in details.splitlines()
        # the Slices pane: the counter set and its use, each device's consumesCounters
        slices = "\n".join(
            _plain(w) for w in app.dashboard.slices.query(".slices-text").results(Static)
        )
        used = text(
            lang, "feat.slice.counter", counter="memory", total="80Gi", used="80Gi", left="0"
        )
        assert text(lang, "feat.slice.counters", name=COUNTERS, counters=used) in slices
        assert text(lang, "feat.slice.counter-only", pool="lab-node-mig") in slices
        assert re.search(rf"{HALVES[0]}\s+consumesCounters\s+{COUNTERS} memory=40Gi", slices)
        assert re.search(rf"{TAINTED}\s+taints\s+{re.escape(TAINT)}", slices)
        # describe (d) on the claim: the same words as the details pane
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = _screen_text(app)
        assert share in screen and consumed in screen


@LANGS
async def test_korean_and_english_differ_only_where_they_should(lang: str) -> None:
    """No English catalog word of these features shows through a Korean screen."""
    app = make_app(SnapshotSource(features_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        shown = "\n".join(_cell(app, name) for name in (*HALVES, TAINTED, SHARED))
        shown += "\n".join(g.title.plain for g in app.dashboard.grid.canvas.groups)
        words = {
            "feat.state.blocked": {},
            "feat.state.tainted": {},
            "feat.cell.blocked-by": {"device": WHOLE},
            "feat.cell.short": {"counters": "memory"},
            "feat.cell.shares": {"n": 2, "left": "20Gi"},
            "feat.group.counter": {"counter": "memory", "used": "80Gi", "left": "0"},
        }
        other = "en" if lang == "ko" else "ko"
        for key, values in words.items():
            assert text(lang, key, **values) in shown, key
            assert text(other, key, **values) not in shown, key


def network_snapshot() -> Snapshot:
    """Step 8 plus two slices with no node: one reachable from all nodes, one where each
    device says where it is reachable."""
    lab = _lab_slice()
    every = copy.deepcopy(lab)
    every["metadata"].update(name="fabric-all", uid="uid-fabric-all")
    every["spec"]["pool"] = {"name": "fabric", "generation": 1, "resourceSliceCount": 1}
    del every["spec"]["nodeName"]
    every["spec"]["allNodes"] = True
    every["spec"]["devices"] = copy.deepcopy(lab["spec"]["devices"][:2])
    for index, device in enumerate(every["spec"]["devices"]):
        device["name"] = f"nic-{index}"
    per_device = copy.deepcopy(every)
    per_device["metadata"].update(name="fabric-per-device", uid="uid-fabric-per-device")
    per_device["spec"]["pool"] = {"name": "rails", "generation": 1, "resourceSliceCount": 1}
    del per_device["spec"]["allNodes"]
    per_device["spec"]["perDeviceNodeSelection"] = True
    rail_node, rail_all = per_device["spec"]["devices"]
    rail_node.update(name="rail-0", nodeName="lab-node")
    rail_all.update(name="rail-1", allNodes=True)
    return _with(snap(MARK), SLICES=[every, per_device])


@LANGS
async def test_slices_without_a_node_say_where_they_reach(lang: str) -> None:
    app = make_app(SnapshotSource(network_snapshot()), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await _painted(pilot)
        groups = {
            tuple(d.device for d in g.devices): g.title.plain
            for g in app.dashboard.grid.canvas.groups
        }
        everywhere = text(lang, "feat.where.all-nodes")
        assert groups[("nic-0", "nic-1")].startswith(f"{everywhere} pool fabric · ")
        assert groups[("rail-1",)].startswith(f"{everywhere} pool rails · ")
        assert groups[("rail-0",)].startswith("node lab-node pool rails · ")
        assert not any("(network)" in title for title in groups.values())
        slices = "\n".join(
            _plain(w) for w in app.dashboard.slices.query(".slices-text").results(Static)
        )
        assert f"node {everywhere}  pool fabric" in slices
        per_device = text(lang, "feat.where.per-device")
        assert f"node {per_device}  pool rails" in slices
        assert re.search(r"rail-0\s+nodeName\s+lab-node", slices)
        assert re.search(r"rail-1\s+allNodes\s+true", slices)


# --- SVG snapshots ----------------------------------------------------------------------------


async def _on_partitions(pilot: Pilot[Any]) -> None:
    """Painted, a share of gpu-5 selected (its details: the share), the grid's cursor on a
    blocked half (its group scrolled into view)."""
    await _painted(pilot)
    app = pilot.app
    assert isinstance(app, GsbApp)
    await select_claim(pilot, app, (NS, "share-40"))
    app.dashboard.focus_pane("grid")
    app.dashboard.grid.select_device(_id(app, HALVES[0]))
    await pilot.pause()
    await wait_until(pilot, lambda: app.dashboard.grid.canvas.offset_of(_id(app, HALVES[0])))


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_features_dashboard(snap_compare: SnapCompare, size: tuple[int, int], lang: str) -> None:
    app = make_app(SnapshotSource(features_snapshot()), lang)
    assert snap_compare(app, terminal_size=size, run_before=_on_partitions)


def test_taint_rules_said_plainly_when_served_or_not() -> None:
    """The Slices pane's subtitle: how many DeviceTaintRules taint devices (and whether one is
    evicting), or that the API is not served, so only slice taints count."""
    import dataclasses

    from gsb_tui.dra.builder import build_view
    from gsb_tui.snapshot import Kind, KindState
    from gsb_tui.ui.panes.slices import taint_rules_note
    from gsb_tui.words import text
    from tests.recorded import profile_snap

    recorded = profile_snap("taints", "evicted")
    view = build_view(recorded)
    assert view.taint_rules, "the taints recording holds its DeviceTaintRule"
    for lang in ("en", "ko"):
        note = taint_rules_note(view, lang)
        assert note.startswith(text(lang, "rules.count", n=len(view.taint_rules)))
    states = {**recorded.states, Kind.TAINT_RULES: KindState("not-served", "404")}
    unserved = dataclasses.replace(
        recorded,
        states=states,
        objects={k: v for k, v in recorded.objects.items() if k is not Kind.TAINT_RULES},
    )
    assert taint_rules_note(build_view(unserved), "en") == text("en", "rules.not-served")


async def test_a_slice_of_many_devices_is_listed_in_one_line() -> None:
    """Tables of tens of thousands of devices took seconds to measure (50,000 in one slice froze
    the UI): past DETAILED_DEVICES_MAX devices the Slices pane lists one line per slice."""
    import copy

    from gsb_tui.snapshot import Kind, Snapshot, obj_key
    from gsb_tui.ui.panes.slices import DETAILED_DEVICES_MAX, SliceLines
    from tests.recorded import snap
    from tests.ui.helpers import make_app, wait_until
    from tests.ui.scripted import SnapshotSource

    base = snap("step-8")
    (recorded,) = base.items(Kind.SLICES)
    big = copy.deepcopy(dict(recorded))
    proto = big["spec"]["devices"][0]
    count = DETAILED_DEVICES_MAX + 1
    big["spec"]["devices"] = [{**copy.deepcopy(proto), "name": f"dev-{i}"} for i in range(count)]
    objects = {**base.objects, Kind.SLICES: {obj_key(big): big}}
    app = make_app(SnapshotSource(Snapshot(objects=objects, states=base.states, revision=1)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and len(app.view.devices) == count)
        await pilot.pause()
        compact = list(app.dashboard.query(".compact").results(SliceLines))
        assert compact, "the slices pane shows the one-line form"
        # Drawn line by line (the Line API): the heading, then the slice's one line.
        assert len(compact[0].lines) == 2
        assert "dev-" not in compact[0].lines[1].plain  # one line, no device list
        assert str(compact[0].render_line(1).text).rstrip() != ""


def test_the_137_fields_are_shown_as_the_driver_published_them() -> None:
    """compatibilityGroups, nodeAllocatableResources on a device; partitionTypeAttribute and
    skipNodeOperations on its slice (1.37's alpha fields, kept only when their gate is on)."""
    from gsb_tui.dra.builder import build_view
    from gsb_tui.dra.model import parse_slice
    from gsb_tui.snapshot import Snapshot
    from gsb_tui.ui.render.features import device_features
    from gsb_tui.ui.render.slice_text import describe_slice
    from tests.unit.test_release_differences import compatibility_groups

    raw = compatibility_groups()["slices"][0]
    raw["spec"]["partitionTypeAttribute"] = "gpu.example.com/profile"
    raw["spec"]["skipNodeOperations"] = ["Prepare"]
    raw["spec"]["devices"][1]["nodeAllocatableResources"] = {"memory": {"overhead": "1Gi"}}
    parsed = parse_slice(raw)
    fields = dict(device_features(parsed.devices[0]))
    assert fields["consumesCounters"] == "gpu-set units=1 compatibilityGroups=full"
    assert dict(device_features(parsed.devices[1]))["nodeAllocatableResources"] == "memory"
    shown = describe_slice(build_view(Snapshot()), parsed).plain
    assert "partitionTypeAttribute gpu.example.com/profile" in shown
    assert "skipNodeOperations Prepare" in shown
