"""The two header lines: where the data comes from (for a demo replay: the scenario step it
plays, from the recording's marks, and whether it is paused), and how each kind's watch stands,
worded (never a raw phase id such as "not-served")."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual.widget import Widget

from gsb_tui.dra.alloc.features import features_for, mirrored
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import KINDS, REQUIRED_KINDS, Kind, KindState, Snapshot
from gsb_tui.words import CATALOG, localize, text

# Short names so seven kinds fit a line; the order is the one a learner meets them in.
SHORT = {
    Kind.SLICES: "slices",
    Kind.CLASSES: "classes",
    Kind.CLAIMS: "claims",
    Kind.TEMPLATES: "templates",
    Kind.PODS: "pods",
    Kind.EVENTS: "events",
    Kind.NODES: "nodes",
    Kind.TAINT_RULES: "taintrules",
    Kind.POOL_STATUS: "poolstatus",
}
STYLE = {
    "synced": "green",
    "connecting": "yellow",
    "reconnecting": "yellow",
    "forbidden": "red",
    "not-served": "red",
    "error": "red",
}


def phase_text(
    state: KindState,
    lang: str = "en",
    now: float | None = None,
    wall: Callable[[], float] = time.time,
) -> str:
    """synced / synced ↻30s (re-listed, not watched) / stale 25 s / not answering (last heard
    12:03:04) / connecting / connecting: slow response (412 bytes in 60 s) / reconnecting n /
    forbidden / not-served / error. `now` is the monotonic time the ages are counted to."""
    if state.phase == "reconnecting":
        return text(lang, "phase.reconnecting", n=state.attempts)
    if state.phase == "synced" and state.quiet:  # synced data, but the watch is not heard
        now = time.monotonic() if now is None else now
        ago = max(0.0, now - state.heard)
        if state.quiet == "not-answering":
            clock = time.strftime("%H:%M:%S", time.localtime(wall() - ago))
            return text(lang, "header.not-answering", clock=clock)
        return text(lang, "header.stale", n=int(ago))
    if state.phase == "synced" and state.every:  # listed again and again, not watched
        return text(lang, "phase.synced-every", n=f"{state.every:.0f}")
    if state.phase == "connecting" and state.message:  # why it is not listed yet
        return text(lang, "header.connecting-why", reason=localize(state.message, lang))
    key = f"phase.{state.phase}"
    return text(lang, key) if key in CATALOG else state.phase


def mark_words(label: str, lang: str) -> str:
    """A recording's mark (the scenario step it labels) in words: "step-3" is step 3, the
    profiles' marks have catalog words; a mark of the user's own recording stays as written."""
    number = label.removeprefix("step-")
    if number != label and number.isdigit():
        return text(lang, "step-n", step=int(number))
    key = f"mark.{label}"
    return text(lang, key) if key in CATALOG else label


def _style(state: KindState) -> str:
    return "yellow" if state.quiet and state.phase == "synced" else STYLE.get(state.phase, "")


def _alive(state: KindState) -> bool:
    return state.phase == "synced" and not state.quiet


def age_text(seconds: float, lang: str = "en") -> str:
    if seconds < 5:
        return text(lang, "age.now")
    if seconds < 90:
        return text(lang, "age.s", n=int(seconds))
    if seconds < 90 * 60:
        return text(lang, "age.m", n=int(seconds // 60))
    return text(lang, "age.h", n=int(seconds // 3600))


class StatusHeader(Widget):
    """Context, server, namespace; per-kind watch state; age of the last event."""

    DEFAULT_CSS = """
    StatusHeader { height: 2; }
    """

    def __init__(
        self,
        info: SourceInfo,
        clock: Callable[[], float] = time.monotonic,
        *,
        lang: str = "en",
        id: str | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(id=id)
        self.info = info
        self.lang = lang
        self.clock = clock
        self.wall = wall  # the time of day, for "last heard 12:03:04"
        self.snapshot: Snapshot | None = None
        self.finished = False  # a replay that has played everything
        self.scenario = ""  # a replay's last mark (the step it plays), as recorded
        self.paused = False  # a replay held by the pause key
        self._shown: tuple[object, ...] = ()  # the text and styles on screen

    def on_mount(self) -> None:
        # Only the age changes with time; a look once a second is plenty.
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """The age, while the dashboard is on top: under the selector tool (opaque) a redraw
        of the header still makes Textual compose the whole top screen again, a frame a
        second for nothing seen (3-4 % of a core at 10,000 devices)."""
        if self.screen.is_active:  # on top (is_current also holds beneath a modal)
            self._refresh_if_changed()

    def show(self, snapshot: Snapshot, finished: bool = False) -> None:
        self.snapshot = snapshot
        self.finished = finished
        self._refresh_if_changed()

    def show_replay(self, scenario: str, paused: bool) -> None:
        """A demo replay's step (its last mark) and whether it is paused."""
        self.scenario = scenario
        self.paused = paused
        self._refresh_if_changed()

    def _refresh_if_changed(self) -> None:
        """Redraw only when the words or their styles change: most events leave the header as
        it was ("last event just now"), and its redraw would be part of every frame."""
        content = self.render()
        shown = (content.plain, tuple(content.spans), self.size.width)
        if shown != self._shown:
            self._shown = shown
            self.refresh()

    def _first_line(self) -> Text:
        info = self.info
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(" gsb-tui ", style="bold reverse")
        line.append(" ")
        version = self.snapshot.server_version if self.snapshot is not None else ""
        if version:  # the Kubernetes the answers are decided for (dra/alloc/features.py)
            as_is = mirrored(version)
            line.append("k8s ", style="dim")
            line.append(version, style="" if as_is else "yellow")
            if not as_is:
                line.append(
                    " " + text(self.lang, "header.judged-as", release=features_for(version).name),
                    style="yellow",
                )
            line.append("  ")
        if info.live:
            line.append("context ", style="dim")
            line.append(info.context, style="bold")
            line.append("  server ", style="dim")
            line.append(info.server)
        else:
            line.append(text(self.lang, "header.demo") + " ", style="bold magenta")
            if self.paused:
                line.append(f"⏸ {text(self.lang, 'demo.paused')} ", style="bold reverse yellow")
            if self.scenario:
                at = text(self.lang, "demo.at", step=mark_words(self.scenario, self.lang))
                line.append(f"{at}  ", style="bold")
            line.append(info.server)
        line.append("  ns ", style="dim")
        line.append(info.namespace, style="bold")
        if info.user:
            line.append("  user ", style="dim")
            line.append(info.user)
        return line

    def _second_line(self, width: int) -> Text:
        snap = self.snapshot
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(" ")
        states = {k: (snap.state(k) if snap else KindState()) for k in REQUIRED_KINDS}
        for kind in KINDS:  # an optional API shows once it is served (or fails): not before
            state = snap.state(kind) if snap else KindState()
            if kind not in states and state.phase not in ("connecting", "not-served"):
                states[kind] = state
        now = self.clock()
        words = {k: phase_text(s, self.lang, now, self.wall) for k, s in states.items()}
        full = Text(no_wrap=True)
        for kind, state in states.items():
            full.append(f"{SHORT[kind]} ", style="dim")
            full.append(words[kind], style=_style(state))
            full.append("  ")
        tail = Text(no_wrap=True)
        if snap is not None and snap.last_event_at is not None:
            tail.append(text(self.lang, "header.last-event") + " ", style="dim")
            tail.append(age_text(max(0.0, self.clock() - snap.last_event_at), self.lang))
        else:
            tail.append(text(self.lang, "header.no-events"), style="dim")
        if self.finished:
            done = text(self.lang, "replay-done" if not self.info.live else "header.stopped")
            tail.append(f"  ({done})", style="magenta")
        if full.cell_len + tail.cell_len + 1 <= width:
            line.append_text(full)
        else:
            # Narrow: count the synced kinds; group the others by how they stand.
            synced = sum(1 for s in states.values() if _alive(s))
            counted = text(self.lang, "phase.synced-count", n=synced, total=len(states))
            line.append(f"{counted}  ", style="green" if synced else "")
            groups: dict[str, list[str]] = {}
            styles: dict[str, str] = {}
            for kind, state in states.items():
                if not _alive(state):
                    groups.setdefault(words[kind], []).append(SHORT[kind])
                    styles[words[kind]] = _style(state)
            for phase, kinds in groups.items():
                line.append(phase, style=styles[phase])
                line.append(f": {','.join(kinds)}  ", style="dim")
        line.append_text(tail)
        return line

    def render(self) -> Text:
        out = self._first_line()
        out.append("\n")
        out.append_text(self._second_line(self.size.width))
        return out
