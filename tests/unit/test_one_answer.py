"""One answer in every pane: on every recorded mark of the lab and of every profile, the
selector tool counts free what the ledger counts free, `gsb-tui why` gives each pending pod
the verdict the details pane gives it, and `gsb-tui devices` sums to the ledger."""

from __future__ import annotations

import pytest

from gsb_tui.dra.alloc.verdicts import Verdicts
from gsb_tui.dra.cel import compile_selector
from gsb_tui.dra.device_rows import device_rows, summary
from gsb_tui.dra.trial import try_selector
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import marks
from gsb_tui.ui.render import describe
from gsb_tui.why_cli import answer
from gsb_tui.words import text
from tests.recorded import PROFILE_RECORDINGS, RECORDING, profile_view, view

CASES = [("lab", m) for m in marks(RECORDING)] + [
    (p.stem, m) for p in sorted(PROFILE_RECORDINGS.glob("*.jsonl")) for m in marks(p)
]


def _view(recording: str, mark: str) -> DraView:
    return view(mark) if recording == "lab" else profile_view(recording, mark)


@pytest.fixture(scope="module", autouse=True)
def _cel() -> None:
    compile_selector("true")  # the library loaded, as the App does after its first frame


@pytest.mark.parametrize(("recording", "mark"), CASES)
def test_the_selector_tool_counts_free_as_the_ledger(recording: str, mark: str) -> None:
    v = _view(recording, mark)
    trial = try_selector(v, "true")
    assert sum(1 for d in trial.matches if d.allocatable) == v.ledger().free
    assert {d.device.id for d in trial.devices if d.allocatable} == set(v.ledger().allocatable)


@pytest.mark.parametrize(("recording", "mark"), CASES)
def test_why_and_the_details_pane_agree(recording: str, mark: str) -> None:
    v = _view(recording, mark)
    verdicts = Verdicts(v)
    compared = 0
    for pod in v.pods.values():
        if not pod.pending:
            continue
        said = answer(v, pod.namespace, pod.name, "en")
        assert said["fits"] == verdicts.pod(pod).fits
        for claim in v.claims_of_pod(pod):
            shown = " ".join(describe.claim_details(v, claim).plain.split())
            if said["fits"]:
                continue
            for blocker in said["blockers"]:
                if blocker["code"] == "binding":
                    continue  # the details say it with the conditions (binding lines)
                words = blocker["text"].replace(f"{claim.namespace}/{claim.name} ", "")
                assert " ".join(words.split()) in shown, (words, shown)
                compared += 1
    if (recording, mark) in (("lab", "step-8"), ("partitions", "partition-pending")):
        assert compared, "the recording has a pending pod with a blocker"


@pytest.mark.parametrize(("recording", "mark"), CASES)
def test_devices_sum_to_the_ledger(recording: str, mark: str) -> None:
    v = _view(recording, mark)
    rows = device_rows(v)
    totals = summary(v, rows)
    ledger = v.ledger()
    assert totals.devices == ledger.total == len(v.devices)
    assert totals.free == ledger.free and totals.in_use == len(ledger.allocated)
    assert totals.pending_pods == len(ledger.pending_keys)
    for row in rows:
        assert row.state == v.state(row.id)
        assert ("held" in row.reasons) == bool(
            (occ := v.occupancy.get(row.id)) and occ.holders and not occ.device.multiple
        )
    assert text("ko", "devices.summary", **vars(totals)) != text(
        "en", "devices.summary", **vars(totals)
    )


def test_every_blocker_the_allocator_can_name_has_words() -> None:
    """Each code `why` and the details pane may give has its sentence in both languages."""
    import re
    from pathlib import Path

    from gsb_tui.dra.alloc.explain import NODE_CODES
    from gsb_tui.words import CATALOG

    alloc = Path(__file__).resolve().parents[2] / "gsb_tui" / "dra" / "alloc"
    source = (alloc / "explain.py").read_text() + (alloc / "scheduler.py").read_text()
    keys = set(re.findall(r'NodeBlocker\(\s*"[a-z-]+",\s*"([a-z-]+)"', source))
    keys |= set(re.findall(r'\bblocker\(\s*"([a-z-]+)"', source))  # code and key alike
    keys |= set(re.findall(r'_nowhere\(judgement, "([a-z-]+)"', source))
    keys |= set(re.findall(r'\("[^"]+", "([a-z-]+)"\),', source))  # error_code's table
    keys |= {"error", "no-node", "undecided", "invalid-pool", "incomplete-pool"}
    keys |= set(NODE_CODES)  # the node stages, named as they are
    assert len(keys) >= 20, keys
    missing = sorted(k for k in keys if f"blocker.{k}" not in CATALOG)
    assert missing == []
