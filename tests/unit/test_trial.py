"""The selector tool's trial (gsb_tui/dra/trial.py) on the operator's recorded cluster (960
devices placed by the real scheduler): every device's verdict is what evaluating the selector on
it alone says, the DeviceClass first; a verdict a row gave before is the same object when the row
says it again (no new object per device per keystroke); a stop ends the trial unshown.
"""

from __future__ import annotations

from gsb_tui.dra.cel import compile_selector
from gsb_tui.dra.model import Device
from gsb_tui.dra.trial import DeviceVerdict, try_selector
from tests.recorded import profile_view


def _alone(expression: str, devices: list[Device], driver: str) -> list[tuple[str, str]]:
    selector = compile_selector(expression, driver=driver)  # a fresh session: nothing shared
    out = []
    for device in devices:
        outcome = selector.evaluate(device)
        said = "error" if outcome.error else "match" if outcome.matched else "no-match"
        out.append((said, outcome.error))
    return out


def test_verdicts_are_each_devices_own_and_repeated_ones_are_kept() -> None:
    view = profile_view("operator", "filled")
    driver = view.lab_driver()
    devices = list(view.devices)
    seen: dict[tuple[int, str], DeviceVerdict] = {}
    for index in (1, 2, 1):
        expression = f"device.attributes['{driver}'].index == {index}"
        trial = try_selector(view, expression)
        got = [(v.verdict, v.error) for v in trial.devices]
        assert got == _alone(expression, devices, driver)
        assert [v.device for v in trial.devices] == devices
        assert [v.state for v in trial.devices] == [view.state(d.id) for d in devices]
        assert 0 < len(trial.matches) < len(devices)
        for i, verdict in enumerate(trial.devices):
            before = seen.setdefault((i, verdict.verdict), verdict)
            assert before is verdict  # the row's verdict, made once
    assert {said for _, said in seen} == {"match", "no-match"}


def test_a_class_rejects_before_the_selector_and_errors_keep_their_words() -> None:
    view = profile_view("operator", "filled")
    driver = view.lab_driver()
    (name,) = list(view.classes)[:1]
    expression = f"device.attributes['{driver}'].nope == 1"  # no such key: an error per device
    trial = try_selector(view, expression, name)
    classes = view.classes[name].selectors
    admitted = [
        all(compile_selector(e, driver=driver).evaluate(d).matched for e in classes)
        for d in view.devices
    ]
    assert [v.verdict != "class" for v in trial.devices] == admitted
    errors = [v for v in trial.devices if v.verdict == "error"]
    assert len(errors) == sum(admitted) > 0
    assert {v.error for v in errors} == {
        e for s, e in _alone(expression, list(view.devices), driver) if s == "error"
    }


def test_a_stop_ends_the_trial_unshown() -> None:
    view = profile_view("operator", "filled")
    trial = try_selector(view, "device.driver != ''", stop=lambda: True)
    assert trial.stopped and trial.devices == ()
