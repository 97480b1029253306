"""The Claim details, the describe view and the selector tool in Korean (`--lang ko`).

Object names, kinds, field paths, STATE values and the scheduler's and API server's messages
stay as the cluster prints them; only the prose around them is Korean. English must not change:
the English words are checked against cel.py's and trial.py's own summaries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input, Static

from gsb_tui.dra.cel import evaluate_all
from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.trial import try_selector
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import marks
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.render import explain
from gsb_tui.ui.render.describe import claim_details, describe_claim
from gsb_tui.ui.render.explain import (
    claim_preview,
    request_shortfall,
    request_summary,
)
from gsb_tui.ui.render.slice_text import describe_slice
from gsb_tui.ui.screens.selector import SelectorScreen, trial_summary
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text
from gsb_tui.words.particles import attach
from tests.recorded import RECORDING, snap, view
from tests.ui.helpers import make_app, select_claim, wait_for_preview, wait_until
from tests.ui.scripted import SnapshotSource

WIDE = 200  # no wrapping: one logical line per line


@pytest.fixture(autouse=True, scope="module")
def _cel_loaded() -> None:
    explain.warm_up()  # what the App does in a worker thread after the first frame


def _lines(out: Text) -> list[str]:
    return out.plain.splitlines()


def _words(text: str) -> str:
    return " ".join(text.split())


def _details(v: DraView, claim: Claim, lang: str, width: int = WIDE) -> Text:
    preview = claim_preview(v, claim, lang)
    return claim_details(v, claim, preview=preview, width=width, lang=lang)


def _pending_pod(v: DraView, name: str = "dra-big") -> tuple[Pod, Claim]:
    """The Pending pod the lab's step 8 makes, and the claim it waits for."""
    claim = next(c for c in v.claims.values() if any(p.name == name for p in v.pods_of_claim(c)))
    (pod,) = [p for p in v.pods_of_claim(claim) if p.name == name]
    return pod, claim


def _free(v: DraView) -> list[str]:
    """Published devices no claim holds, in published order."""
    return [d.name for d in v.devices if v.occupancy[d.id].status == "free"]


# --- the Claim details ------------------------------------------------------------------------


def test_claim_details_speak_korean_around_the_cluster_words() -> None:
    v = view("step-8")
    claim = next(c for c in v.claims.values() if c.owner_pod and c.reserved_for and c.results)
    korean, english = _lines(_details(v, claim, "ko")), _lines(_details(v, claim, "en"))
    # the claim's name and STATE exactly as in the Claims pane
    assert korean[0] == f"{claim.namespace}/{claim.name}  STATE {claim.state}"
    assert korean[0] == english[0]
    assert f"소유 파드 {claim.owner_pod}  (틀로 만든 요청서)" in korean
    for heading in ("요청", "할당 결과", "reservedFor", "파드", "최근 이벤트"):
        assert heading in korean, heading
    for english_word in ("Requests", "Results", "Pods", "Recent events", "owner pod"):
        assert english_word not in "\n".join(korean)
        assert any(english_word in line for line in english)  # English is still English
    for request in claim.requests:
        count = f"ExactCount {request.count}" if request.allocation_mode != "All" else "전부"
        assert f"  {request.name}: 클래스 {request.device_class} · {count}" in korean
    for result in claim.results:
        where = f"({result.id.driver}, 풀 {result.id.pool})"
        assert f"  {result.request} → {result.id.device}  {where}" in korean
    for consumer in claim.reserved_for:
        assert f"  {consumer.resource}/{consumer.name}" in korean
    for pod in v.pods_of_claim(claim):
        assert f"  {pod.name} {pod.phase} 노드 {pod.node}" in korean
    # the groups stay lined up although Korean labels are two cells a character
    names = {d.name for d in v.devices}
    groups = [line for line in korean if line.lstrip().startswith(("✓", "✗"))]
    assert groups
    firsts = [next(word for word in line.split() if word in names) for line in groups]
    starts = {
        cell_len(line[: line.index(first)]) for line, first in zip(groups, firsts, strict=True)
    }
    assert len(starts) == 1 and starts.pop() > len("    ") + cell_len("✓ 이 요청서")


def test_pending_claim_is_explained_in_korean() -> None:
    v = view("step-8")
    pod, claim = _pending_pod(v)
    assert pod.pending and claim.state == "pending"
    (request,) = claim.requests
    free = _free(v)
    assert request.count > len(free), "step 8 asks for more devices than are free"
    korean = _lines(_details(v, claim, "ko"))
    shown = "\n".join(korean)
    assert korean[0] == f"{claim.namespace}/{claim.name}  STATE pending"
    assert "대기 이유" in korean
    node = next(d.node for d in v.devices)
    shortfall = (  # particles chosen by the name before them (words/particles.py)
        f"{attach(request.name, '은(는)')} {request.count}개가 필요한데 {node}에서"
        f" {len(free)}개만 비어 있습니다 ({', '.join(free)})"
    )
    assert shortfall in _words(shown)  # the allocator's words, on the node
    free_line = re.compile(rf" {{4}}✓ 남음 +{len(free)}  {re.escape(' '.join(free))}")
    assert any(free_line.fullmatch(line) for line in korean)
    assert "  할당되지 않음 (pending 요청서는 장치를 갖지 않음)" in korean
    event = v.scheduler_said(pod)
    assert event is not None
    assert f"  파드 {pod.name}에 대한 스케줄러의 말 ({event.reason}" in shown
    assert _words(event.message) in _words(shown)  # the scheduler's own words
    assert "Why pending" not in shown and "needs " not in shown


def test_korean_explanation_wraps_by_terminal_cells() -> None:
    """A Korean character takes two cells: the wrap must count cells, not characters."""
    v = view("step-8")
    _, claim = _pending_pod(v)
    width = 40
    korean = _lines(_details(v, claim, "ko", width=width))
    why = korean[korean.index("대기 이유") + 1 : korean.index("할당 결과")]
    assert any(cell_len(line) > len(line) for line in why), "the section has Korean prose"
    assert max(cell_len(line) for line in why) <= width


def _previews(mark: str) -> Iterator[Any]:
    v = view(mark)
    for claim in v.claims.values():
        yield from claim_preview(v, claim).requests.values()


@pytest.mark.parametrize("mark", marks(RECORDING))
def test_korean_preview_words_differ_from_the_english(mark: str) -> None:
    previews = list(_previews(mark))
    for preview in previews:
        if not preview.error:  # a compile error is the API server's words in both languages
            assert request_summary(preview, "ko") != request_summary(preview)
        assert bool(request_shortfall(preview)) == preview.short
        if preview.short:
            assert request_shortfall(preview, "ko") != request_shortfall(preview)


# --- the describe view --------------------------------------------------------------------------


def test_describe_claim_and_slice_in_korean() -> None:
    v = view("step-8")
    pod, claim = _pending_pod(v)
    korean = describe_claim(v, claim, lang="ko").plain
    lines = korean.splitlines()
    # the values line up after the widest label, counted in cells
    fields = lines[:5]
    labels = ["이름:", "네임스페이스:", "UID:", "만든 시각:", "상태:"]
    assert [line[: len(label)] for line, label in zip(fields, labels, strict=True)] == labels
    values = [claim.name, claim.namespace, claim.uid, claim.created, claim.state]
    starts = {
        cell_len(line[: line.index(value)]) for line, value in zip(fields, values, strict=True)
    }
    assert len(starts) == 1
    assert f"Pod {pod.namespace}/{pod.name}  {pod.phase}" in lines
    assert "이벤트" in lines and "resourceClaims" in lines
    for entry in pod.claims:
        source = entry.claim_name or f"틀 {entry.template_name}"
        assert f"  {entry.name} → {source}  요청서 {entry.resolved_claim}" in lines
    assert "Name:" not in korean and "Namespace:" not in korean
    english = describe_claim(v, claim).plain.splitlines()
    assert english[0] == f"Name:       {claim.name}"

    slice_ = v.slices[0]
    slice_lines = describe_slice(v, slice_, "ko").plain.splitlines()
    assert slice_lines[0] == f"ResourceSlice {slice_.name}"
    assert slice_lines[1].startswith(f"드라이버 {slice_.driver}  노드 {slice_.node}")
    assert slice_lines[2] == "장치"
    for device, line in zip(slice_.devices, slice_lines[3:], strict=True):
        assert line.startswith(f"  {device.name} {v.occupancy[device.id].status}  ")


# --- the dashboard: details pane, `d` and the selector tool -------------------------------------


def _plain(widget: Static) -> str:
    console = Console(width=WIDE, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


@pytest.mark.parametrize(
    ("lang", "field"), [("ko", "네임스페이스:  "), ("en", "Namespace:  ")], ids=["ko", "en"]
)
async def test_dashboard_details_and_describe_follow_the_language(lang: str, field: str) -> None:
    v = view("step-8")
    pod, claim = _pending_pod(v)
    app = make_app(SnapshotSource(snap("step-8")), lang)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        await select_claim(pilot, app, claim.key)
        details = _plain(app.dashboard.details.query_one(".details-text", Static))
        assert ("대기 이유" in details) == (lang == "ko")
        assert ("Why pending" in details) == (lang == "en")
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screen = app.screen
        assert isinstance(screen, TextViewScreen)
        lines = screen.plain.splitlines()
        assert f"{field}{claim.namespace}" in lines
        assert f"{claim.namespace}/{claim.name}  STATE {claim.state}" in lines
        assert f"Pod {pod.namespace}/{pod.name}" in screen.plain


async def _type(pilot: Pilot[Any], screen: SelectorScreen, expression: str) -> None:
    screen.query_one("#selector-input", Input).value = ""
    await pilot.press(*expression)
    await wait_until(
        pilot, lambda: screen.trial is not None and screen.trial.expression == expression
    )


async def test_selector_tool_summary_in_korean() -> None:
    v = view("step-8")
    driver = v.lab_driver()
    (device_class,) = v.classes.values()  # the screen picks the only class by default
    admitted = evaluate_all(device_class.selectors, v.devices)
    class_admits = sum(1 for outcome in admitted.values() if outcome.matched)
    sevens = [d for d in v.devices if d.attribute("index") == 7]
    free = sum(1 for d in sevens if v.occupancy[d.id].status == "free")
    app = make_app(SnapshotSource(snap("step-8")), "ko")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for_preview(pilot, app)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
        screen = app.screen
        assert isinstance(screen, SelectorScreen)
        assert screen.query_one("#selector").border_title == "선택식 시험"
        await _type(pilot, screen, f"device.attributes['{driver}'].index == 7")
        summary = _plain(screen.query_one("#selector-summary", Static)).strip()
        assert summary == (
            f"장치 {len(v.devices)}개 중 {len(sevens)}개가 맞음"
            f" (클래스가 {class_admits}개 허용), 그중 {free}개 남음"
        )
        table = _plain(screen.query_one("#selector-devices", Static)).splitlines()
        matched = [line for line in table if line.startswith("✓")]
        assert [line.split()[1] for line in matched] == [d.name for d in sevens]
        assert all(line.split()[2] == "맞음" for line in matched)
        vocabulary = _plain(screen.query_one("#selector-vocabulary", Static))
        assert vocabulary.startswith("선택식이 읽을 수 있는 것")

        # the lab's mistake: the API server's words as they are, the prose around them Korean
        await _type(pilot, screen, "device.attributes.index == 7")
        summary = _plain(screen.query_one("#selector-summary", Static)).strip()
        assert summary == "API 서버가 이 선택식을 거절합니다:"
        error = _plain(screen.query_one("#selector-error", Static))
        assert "found no matching overload" in error
        assert screen.trial is not None and screen.trial.fix
        assert f"고침 {screen.trial.fix}   (ctrl+f 로 넣기)" in error


@pytest.mark.parametrize(
    ("expression", "device_class"),
    [
        ("", ""),
        ("", "no-such-class"),
        ("device.attributes.index == 7", ""),
        ("device.attributes['{driver}'].index == 7", ""),
        ("device.attributes['{driver}'].index >= 4", "{cls}"),
        ("device.driver == 'other.example.com'", "{cls}"),
    ],
)
def test_selector_summary_korean_differs_from_the_english(
    expression: str, device_class: str
) -> None:
    v = view("step-8")
    (cls,) = v.classes
    expression = expression.format(driver=v.lab_driver())
    trial = try_selector(v, expression, device_class.format(cls=cls))
    assert trial_summary(trial, v, "ko") != trial_summary(trial, v)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_device_groups_stay_inside_a_narrow_details_pane(lang: str) -> None:
    """At 140x40 the details text is 34 cells wide: the ✓/✗ device lists wrap under their
    label instead of running past the pane (where the pane would wrap them to column 0)."""
    v = view("step-8")
    width = 34
    for claim in v.claims.values():
        lines = _lines(_details(v, claim, lang, width=width))
        groups = [line for line in lines if line.lstrip().startswith(("✓", "✗"))]
        assert groups, f"{claim.name} has a device preview"
        assert max(cell_len(line) for line in groups) <= width, (claim.name, groups)


def _english_sentences() -> dict[str, str]:
    """Each English catalog text's fixed words (between placeholders) of three words or more,
    for keys whose Korean differs (commands typed as they are stay the same in both)."""
    import string

    from gsb_tui.words import CATALOG

    out: dict[str, str] = {}
    for key, (en, ko) in CATALOG.items():
        if en == ko:
            continue
        for literal, _, _, _ in string.Formatter().parse(en):
            for fragment in re.split(r"[:;()\n]", literal):
                words = fragment.strip(" .,·")
                if len(re.findall(r"\b[A-Za-z]{2,}\b", words)) >= 3:
                    out.setdefault(words, key)
    return out


def _screen_text(app: GsbApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_korean_80x24_shows_no_english_sentence_from_the_catalog() -> None:
    """Every pane in Korean (each tab of the 80x24 layout, a pending claim selected, its
    describe view, the selector tool on a mistake, and the help): no sentence the catalog has
    in English shows up in its English wording, and the footer's keys are Korean too."""
    sentences = _english_sentences()
    assert len(sentences) > 100  # the check has something to look for
    app = make_app(SnapshotSource(snap("step-8")), "ko")
    screens: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.verdicts_view is app.view)
        _, claim = _pending_pod(app.view)
        for pane in ("grid", "claims", "slices", "checklist"):
            app.dashboard.focus_pane(pane)
            await pilot.pause()
            screens.append(_screen_text(app))
        await select_claim(pilot, app, claim.key)
        await wait_for_preview(pilot, app)
        app.dashboard.focus_pane("details")
        await pilot.pause()
        screens.append(_screen_text(app))
        await pilot.press("d")  # describe, with events
        await wait_until(pilot, lambda: isinstance(app.screen, TextViewScreen))
        screens.append(_screen_text(app))
        await pilot.press("escape")
        await pilot.press("s")  # the selector tool, on the lab's common mistake 2
        await wait_until(pilot, lambda: isinstance(app.screen, SelectorScreen))
        expression = "device.attributes.index == 7"
        await pilot.press(*expression)
        tool = app.screen
        assert isinstance(tool, SelectorScreen)
        await wait_until(
            pilot, lambda: tool.trial is not None and tool.trial.expression == expression
        )
        screens.append(_screen_text(app))
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        screens.append(_screen_text(app))
    shown = "\n".join(screens)
    assert "요청서" in shown  # Korean really is on screen
    assert text("ko", "key.gsb.describe") in screens[0]  # the footer
    assert text("ko", "help.anywhere") in screens[-1]  # the help, in Korean
    english = {s: k for s, k in sentences.items() if s in shown}
    assert english == {}, english
