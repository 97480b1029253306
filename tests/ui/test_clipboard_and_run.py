"""Copying reports only what it can confirm; run_dashboard returns codes, never tracebacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gsb_tui.ui import clipboard
from gsb_tui.ui.run import run_dashboard
from tests.ui.scripted import ScriptedSource


class FakeApp:
    def __init__(self, with_terminal: bool) -> None:
        self._driver = object() if with_terminal else None
        self.osc52: list[str] = []
        self.notes: list[tuple[str, dict[str, Any]]] = []

    def copy_to_clipboard(self, text: str) -> None:
        self.osc52.append(text)

    def notify(self, message: str, **kw: Any) -> None:
        self.notes.append((message, kw))


def test_copy_without_a_native_clipboard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyperclip

    def fail(_text: str) -> None:
        raise pyperclip.PyperclipException("could not find a copy/paste mechanism")

    monkeypatch.setattr(pyperclip, "copy", fail)
    app = FakeApp(with_terminal=True)
    report = clipboard.copy_text(app, "kind: Pod\n", "my pod.yaml")
    assert app.osc52 == ["kind: Pod\n"]  # OSC 52 is always sent
    assert report.native == "none here (no X or Wayland display)"
    assert report.saved_to == tmp_path / "data" / "gsb-tui" / "examples" / "my-pod.yaml"
    assert report.saved_to.read_text() == "kind: Pod\n"
    message = app.notes[0][0]
    assert "copied to the system clipboard" not in message
    assert "sent to the terminal clipboard (OSC 52" in message
    assert str(report.saved_to) in message


def test_copy_confirmed_only_when_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyperclip

    store: dict[str, str] = {}
    monkeypatch.setattr(pyperclip, "copy", lambda text: store.__setitem__("v", text))
    monkeypatch.setattr(pyperclip, "paste", lambda: store.get("v", ""))
    report = clipboard.copy_text(FakeApp(with_terminal=False), "x: 1", "x.yaml", notify=False)
    assert report.native == "copied"
    assert not report.osc52_sent
    assert "OSC 52 not sent" in report.summary()
    monkeypatch.setattr(pyperclip, "paste", lambda: "something else")
    report = clipboard.copy_text(FakeApp(with_terminal=True), "x: 1", "x.yaml", notify=False)
    assert report.native == "unconfirmed"


def test_copy_reports_a_file_it_could_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    app = FakeApp(with_terminal=True)
    report = clipboard.copy_text(app, "a", "a.yaml")
    assert report.saved_to is None
    assert app.notes[0][0].startswith("NOT saved")
    assert app.notes[0][1]["severity"] == "warning"


def test_run_dashboard_turns_a_crash_into_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gsb_tui.ui.app import GsbApp

    def explode(self: GsbApp) -> int:
        raise RuntimeError("terminal went away")

    monkeypatch.setattr(GsbApp, "run", explode)
    code = run_dashboard(ScriptedSource(), Path("/nonexistent-gsb-dra"), "en")
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip() == "gsb-tui: the dashboard stopped: RuntimeError: terminal went away"
    assert "Traceback" not in err


async def test_an_unhandled_error_exits_with_one_line_and_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.ui.helpers import make_app

    app = make_app(ScriptedSource())
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=(80, 24)) as pilot:
            app.call_later(lambda: 1 / 0)
            await pilot.pause()
    assert app.return_code == 1
    log = tmp_path / "state" / "gsb-tui" / "crash.log"
    assert "Traceback" not in capsys.readouterr().err
    assert app.crash_line == (
        f"gsb-tui stopped on an internal error (ZeroDivisionError: division by zero); "
        f"details in {log}"
    )
    assert "Traceback" in log.read_text()


def test_run_dashboard_prints_the_crash_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gsb_tui.ui.app import GsbApp

    def crash(self: GsbApp) -> None:
        self.crash_line = "gsb-tui stopped on an internal error (X); details in /x/crash.log"
        self._return_code = 1

    monkeypatch.setattr(GsbApp, "run", crash)
    code = run_dashboard(ScriptedSource(), Path("/nonexistent-gsb-dra"), "en")
    assert code == 1
    assert capsys.readouterr().err == (
        "gsb-tui stopped on an internal error (X); details in /x/crash.log\n"
    )
