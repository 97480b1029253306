"""Wrong types at the model boundary, generated: 0 exceptions anywhere they are read.

Every object of every kind of every recording (the lab, each profile, the real node's lab) is
a candidate; fields at any path are replaced, chosen by a seeded RNG, with a wrong type, NaN,
±inf, 10**400, a lone surrogate, lists and maps in place of scalars. On each case the view is
built and everything that reads it runs: warnings, `devices` rows and pool status, the ledger,
the allocator's judge (through `why`'s answer for every pod), the lab checks with `check`'s
findings, the selectors of `match` (every class's and one of its own), and the malformed
objects' words in both languages. The object must stay in the view (never dropped), and what
is said of it must be printable anywhere (names are kept as the Store keys them, a lone
surrogate too: cli_io escapes them where they are written, and Textual draws them).

CI runs CASES random cases, each path shape of each kind once, and PANE_CASES through the panes'
renderers (fixed seeds: the same cases each run); bench/model_fuzz.py runs more.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import math
import os
import random
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gsb_tui.check_cli import malformed_findings
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.cel import CelCompileError, evaluate_all
from gsb_tui.dra.device_rows import device_rows, summary
from gsb_tui.dra.model.malformed import as_json, object_text
from gsb_tui.dra.pool_status import compare
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import find_warnings
from gsb_tui.kube.recording import read_changes
from gsb_tui.kube.store import Store
from gsb_tui.lab import evaluate, findings, to_json, to_text
from gsb_tui.snapshot import Kind, Obj, ObjKey, Snapshot, obj_key
from gsb_tui.why_cli import answer
from tests.recorded import PROFILE_RECORDINGS, RECORDING

SEED = 26
CASES = int(os.environ.get("GSB_MODEL_FUZZ_CASES", "600"))
PANE_CASES = int(os.environ.get("GSB_MODEL_FUZZ_PANE_CASES", "120"))
RECORDINGS = (RECORDING, *sorted(PROFILE_RECORDINGS.glob("*.jsonl")))
RECORDINGS += (RECORDING.parent / "realnode" / "lab.jsonl",)
HOSTILE: tuple[Any, ...] = (
    "v2",
    "",
    "\ud800",
    "x\udc80y",
    ["x"],
    [],
    [None],
    {"a": 1},
    {},
    {"\ud800": "\ud800"},
    math.nan,
    math.inf,
    -math.inf,
    10**400,
    -(10**400),
    2**63,
    1.5,
    3.0,
    -1,
    0,
    True,
    False,
    None,
)
Path_ = tuple[str | int, ...]
EXPRESSION = "device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'"


@functools.cache
def snapshots() -> tuple[Snapshot, ...]:
    """The store at every MARK of every recording, and at each one's end."""
    out = []
    for recording in RECORDINGS:
        store = Store()
        for _, change in read_changes(recording):
            if change.type == "MARK":
                out.append(store.snapshot())
            else:
                store.apply(change)
        out.append(store.snapshot())
    return tuple(out)


def paths(value: Any, at: Path_ = ()) -> Iterator[Path_]:
    """Every path into a decoded object (maps and lists), the object itself first."""
    yield at
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*at, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*at, index))


def shape(path: Path_) -> tuple[str, ...]:
    """A path with list indices left out: one field of every entry."""
    return tuple("[]" if isinstance(p, int) else p for p in path)


def replaced(obj: Obj, path: Path_, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(dict(obj))
    inner: Any = out
    for part in path[:-1]:
        inner = inner[part]
    inner[path[-1]] = copy.deepcopy(value)
    return out


def hostile(rng: random.Random, path: Path_) -> Any:
    """A wrong value; metadata stays a map (the Store keys by it, and both the reflector and a
    recording refuse an object whose metadata is not one)."""
    if path == ("metadata",):
        return rng.choice([{}, {"\ud800": "\ud800"}, {"name": "x"}])
    return rng.choice(HOSTILE)


def with_object(base: Snapshot, kind: Kind, key: ObjKey, obj: Obj) -> Snapshot:
    """The snapshot with one object replaced, keyed as the Store keys it."""
    objects = {k: dict(v) for k, v in base.objects.items()}
    del objects[kind][key]
    objects[kind][obj_key(obj)] = obj
    return Snapshot(objects=objects, states=base.states, server_version=base.server_version)


@dataclass(frozen=True)
class Case:
    snapshot: Snapshot
    kind: Kind
    obj: Obj  # the object as changed
    changed: tuple[Path_, ...]

    def __str__(self) -> str:
        name = obj_key(self.obj)
        return f"{self.kind.value} {name}: {[list(p) for p in self.changed]}"


def random_case(rng: random.Random) -> Case:
    """One object of a random snapshot, 1 to 3 of its fields replaced."""
    base = rng.choice(snapshots())
    kind = rng.choice(sorted(k for k, objs in base.objects.items() if objs))
    key = rng.choice(sorted(base.objects[kind]))
    obj: Obj = base.objects[kind][key]
    changed = []
    for _ in range(rng.randint(1, 3)):
        path = rng.choice([p for p in paths(obj) if p])
        obj = replaced(obj, path, hostile(rng, path))
        changed.append(path)
    return Case(with_object(base, kind, key, obj), kind, obj, tuple(changed))


def every_shape(rng: random.Random) -> Iterator[Case]:
    """Each path shape of each kind once (its first occurrence), with a value by the RNG."""
    seen: set[tuple[Kind, tuple[str, ...]]] = set()
    for base in snapshots():
        for kind in sorted(base.objects):
            for key in sorted(base.objects[kind]):
                obj = base.objects[kind][key]
                for path in paths(obj):
                    if path and (kind, shape(path)) not in seen:
                        seen.add((kind, shape(path)))
                        changed = replaced(obj, path, hostile(rng, path))
                        yield Case(with_object(base, kind, key, changed), kind, changed, (path,))


def kept(view: DraView, kind: Kind, obj: Obj) -> bool:
    """The changed object is in the view (a malformed object is shown, never dropped)."""
    if kind == Kind.SLICES:
        return any(s.raw is obj for s in (*view.slices, *view.stale_slices))
    found: dict[Kind, Any] = {
        Kind.CLASSES: view.classes.values(),
        Kind.CLAIMS: view.claims.values(),
        Kind.TEMPLATES: view.templates.values(),
        Kind.PODS: view.pods.values(),
        Kind.EVENTS: view.events,
        Kind.TAINT_RULES: view.taint_rules,
    }
    return kind not in found or any(o.raw is obj for o in found[kind])


def exercise(case: Case, lab: Path) -> None:
    """Everything that reads a view, on one case; raises on the first thing that fails."""
    view = build_view(case.snapshot)
    assert kept(view, case.kind, case.obj), f"dropped: {case}"
    warnings = find_warnings(view)
    summary(view, device_rows(view, warnings))
    compare(view)
    view.ledger()
    for driver in view.drivers():
        view.ledger(driver)
    for namespace, name in sorted(view.pods)[:6]:
        json.dumps(answer(view, namespace, name, "ko"), ensure_ascii=False)
    verdicts = evaluate(view, lab)
    found = (*findings(view), *malformed_findings(view))
    to_text(verdicts, "ko", findings=found)
    json.dumps(to_json(verdicts, "en", found), ensure_ascii=False)
    if view.devices:
        for selectors in [[], *(c.selectors for c in view.classes.values())]:
            with contextlib.suppress(CelCompileError):  # `match` says so, exit 1
                evaluate_all([*selectors, EXPRESSION], view.devices)
    for m in view.malformed():
        assert m.problems
        for lang in ("en", "ko"):
            object_text(m, lang).encode()  # printable: no lone surrogate left
            json.dumps(as_json(m, lang), ensure_ascii=False).encode()


@dataclass
class Figures:
    cases: int = 0
    failed: list[str] = field(default_factory=list)  # one traceback per failed case
    kinds: Counter[str] = field(default_factory=Counter)


def run(
    cases: Iterator[Case], lab: Path, check: Callable[[Case, Path], None] = exercise
) -> Figures:
    figures = Figures()
    for case in cases:
        figures.cases += 1
        figures.kinds[case.kind.value] += 1
        try:
            check(case, lab)
        except Exception:
            figures.failed.append(f"{case}\n{traceback.format_exc()}")
    return figures


def lab_dir(root: Path) -> Path:
    """A lab directory with an answer for every step (plausible, not all right)."""
    from gsb_tui.lab import example_text
    from gsb_tui.lab.steps import SNIPPETS

    root.mkdir(parents=True, exist_ok=True)
    (root / "slices.txt").write_text("driver=gpu.example.com\ndevices=8\nnode=lab-node\n")
    (root / "class.txt").write_text("deviceclass=gpu.example.com\nselector=device.driver\n")
    (root / "claim.json").write_text('{"claim": "x", "device": "gpu-0", "env_var": "GPU_0"}')
    (root / "report.json").write_text('{"allocated_devices": 5, "free_devices": 3}')
    for name in {n for names in SNIPPETS.values() for n in names if n.endswith(".yaml")}:
        (root / name).write_text(example_text(name))
    return root


def random_cases(n: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(n):
        yield random_case(rng)


def test_every_field_of_every_kind_read_wrong(tmp_path: Path) -> None:
    figures = run(every_shape(random.Random(SEED)), lab_dir(tmp_path / "lab"))
    assert figures.cases >= 500 and len(figures.kinds) >= 7
    assert not figures.failed, f"{len(figures.failed)} of {figures.cases}:\n{figures.failed[0]}"


def test_generated_wrong_types_never_raise(tmp_path: Path) -> None:
    figures = run(random_cases(CASES, SEED), lab_dir(tmp_path / "lab"))
    assert figures.cases == CASES
    assert not figures.failed, f"{len(figures.failed)} of {figures.cases}:\n{figures.failed[0]}"


def render_panes(case: Case, lab: Path) -> None:
    """What the dashboard draws of the view: claim details with the selector preview, the
    describe views, the slices pane's parts and lines, the changed object's YAML."""
    from rich.console import Console

    from gsb_tui.dra.node_summary import by_model, by_node, ledger_counts, ledger_entries
    from gsb_tui.ui.jump_targets import build_index, hint
    from gsb_tui.ui.panes.details import with_malformed
    from gsb_tui.ui.panes.slices import slice_line, slice_parts
    from gsb_tui.ui.render.describe import claim_details, describe_claim, describe_pod, to_yaml
    from gsb_tui.ui.render.explain import claim_preview, warm_up
    from gsb_tui.ui.render.features import device_features
    from gsb_tui.ui.render.slice_text import describe_slice

    warm_up()
    console = Console(file=io.StringIO(), width=80)
    view = build_view(case.snapshot)
    warnings = find_warnings(view)
    for claim in view.claims.values():
        preview = claim_preview(view, claim, "en")
        details = claim_details(view, claim, warnings, preview=preview, width=60, lang="ko")
        console.print(with_malformed(view, claim, details, "ko"))
        console.print(describe_claim(view, claim, warnings, "en"))
    for pod in view.pods.values():
        console.print(describe_pod(view, pod, "ko"))
    for s in (*view.slices, *view.stale_slices):
        console.print(describe_slice(view, s, "en"), slice_line(view, s, "ko"))
        console.print(*slice_parts(view, s, "en", wide=True))
        for device in s.devices:
            device_features(device, per_device=True)
    console.print(to_yaml(case.obj))
    # The operator's parts: counts per node and model, the lists behind the ledger, the jump box.
    console.print(by_node(view), by_model(view))
    for category in ledger_counts(view):
        console.print(ledger_entries(view, category))
    index = build_index(view, "ko")
    for target in index.search("gpu")[0]:
        console.print(hint(view, index, target, "ko"))


def test_the_panes_draw_every_generated_case(tmp_path: Path) -> None:
    figures = run(random_cases(PANE_CASES, SEED + 1), tmp_path, render_panes)
    assert not figures.failed, f"{len(figures.failed)} of {figures.cases}:\n{figures.failed[0]}"
