"""Issue 26: the header says "synced" only while a kind's watch is alive and heard from; else
how it stands and why, in both languages (ui/panes/header.py)."""

from __future__ import annotations

import time

from gsb_tui.kube.source import SourceInfo
from gsb_tui.kube.wire_words import slow
from gsb_tui.snapshot import REQUIRED_KINDS, Kind, KindState, Snapshot
from gsb_tui.ui.panes.header import StatusHeader, phase_text

NOW = 5000.0
WALL = 1_800_000_000.0


def _wall() -> float:
    return WALL


def test_healthy_states_read_as_before() -> None:
    assert phase_text(KindState("synced")) == "synced"
    assert phase_text(KindState("synced", every=60.0)) == "synced ↻60s"
    assert phase_text(KindState("reconnecting", "refused", attempts=3)) == "reconnecting 3"
    assert phase_text(KindState("connecting")) == "connecting"


def test_a_stale_watch_says_for_how_long() -> None:
    state = KindState("synced", heard=NOW - 25, quiet="stale")
    assert phase_text(state, "en", NOW) == "stale 25 s"
    assert phase_text(state, "ko", NOW) == "25초째 소식 없음"
    assert state.usable  # the data is still the last the server said


def test_a_server_not_answering_says_when_it_was_last_heard() -> None:
    state = KindState("synced", heard=NOW - 12, quiet="not-answering")
    clock = time.strftime("%H:%M:%S", time.localtime(WALL - 12))
    assert phase_text(state, "en", NOW, _wall) == f"not answering (last heard {clock})"
    assert phase_text(state, "ko", NOW, _wall) == f"응답 없음 (마지막 응답 {clock})"


def test_connecting_says_why() -> None:
    state = KindState("connecting", slow(412, 60))
    assert phase_text(state) == "connecting: slow response (412 bytes in 60 s)"
    assert phase_text(state, "ko") == "연결 중: 응답이 느립니다 (60초 동안 412바이트)"


def _header(states: dict[Kind, KindState], lang: str = "en") -> StatusHeader:
    header = StatusHeader(SourceInfo("ctx", "https://s", "lab"), lambda: NOW, lang=lang, wall=_wall)
    header.snapshot = Snapshot(states=states)
    return header


def test_the_header_line_counts_only_live_kinds_as_synced() -> None:
    states = dict.fromkeys(REQUIRED_KINDS, KindState("synced"))
    states[Kind.PODS] = KindState("synced", heard=NOW - 95, quiet="stale")
    wide = _header(states)._second_line(400).plain
    assert "pods stale 95 s" in wide and "claims synced" in wide
    narrow = _header(states)._second_line(60).plain
    assert narrow.startswith(f" synced {len(REQUIRED_KINDS) - 1}/{len(REQUIRED_KINDS)}")
    assert "stale 95 s: pods" in narrow
    korean = _header(states, "ko")._second_line(400).plain
    assert "pods 95초째 소식 없음" in korean


def test_the_healthy_header_line_is_unchanged() -> None:
    states = dict.fromkeys(REQUIRED_KINDS, KindState("synced"))
    line = _header(states)._second_line(400).plain
    assert line.startswith(" slices synced  classes synced  claims synced")
    assert "stale" not in line and "answering" not in line
