"""Running the checklist and rendering it: for `gsb-tui check` (text and --json) and the UI."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from gsb_tui.dra.view import DraView
from gsb_tui.lab.checks import CHECKS
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.findings import Finding
from gsb_tui.lab.steps import STEP_IDS, step
from gsb_tui.lab.verdict import Status, Verdict
from gsb_tui.words import is_korean, localize, text


def evaluate(
    view: DraView, lab_dir: Path | str | LabFiles, steps: Iterable[int] | None = None
) -> tuple[Verdict, ...]:
    """Verdicts for the requested steps (all eight by default), in step order.

    Files are read afresh on every call (one LabFiles per evaluation), never written.
    """
    files = lab_dir if isinstance(lab_dir, LabFiles) else LabFiles(Path(lab_dir))
    wanted = sorted(set(STEP_IDS if steps is None else steps))
    for step_id in wanted:
        step(step_id)  # a KeyError naming the valid range for a bad --step
    return tuple(CHECKS[s](view, files) for s in wanted)


def to_json(
    verdicts: Sequence[Verdict], lang: str = "en", findings: Sequence[Finding] | None = None
) -> dict[str, Any]:
    """{"ok": bool, "steps": [{"step", "ok", "status", "reason", "hint", "subchecks": [...]}]}.

    A sub-check that is "not yet" is reported with ok false and its reason. With `findings`
    (lab-wide mistakes, see findings.py) a "findings" list is added; they do not change "ok".
    """
    out: dict[str, Any] = {
        "ok": bool(verdicts) and all(v.ok for v in verdicts),
        "steps": [
            {
                "step": v.step,
                "ok": v.ok,
                "status": v.status,
                "reason": "" if v.ok else localize(v.reason, lang),
                "hint": localize(v.hint, lang),
                "subchecks": [
                    {
                        "name": s.name,
                        "ok": s.ok is True,
                        "reason": "" if s.ok else localize(s.reason, lang),
                    }
                    for s in v.subchecks
                ],
            }
            for v in verdicts
        ],
    }
    if findings is not None:
        out["findings"] = [
            {
                "code": f.code,
                "subject": f.subject,
                "step": f.step,
                "reason": localize(f.reason, lang),
                "hint": localize(f.hint, lang),
            }
            for f in findings
        ]
    return out


_MARK: dict[Status, str] = {
    "green": "✓",
    "broken": "✗",
    "in-progress": "…",
    "not-started": "·",
    "cannot-judge": "?",
}
_STATUS_KO: dict[Status, str] = {
    "green": "완료",
    "broken": "문제 있음",
    "in-progress": "진행 중",
    "not-started": "시작 전",
    "cannot-judge": "판단 불가",
}


def status_label(status: Status, lang: str) -> str:
    # Worded, never the id ("in progress", not "in-progress"): the id is for --json.
    return _STATUS_KO[status] if is_korean(lang) else text("en", f"status.{status}")


def sub_mark(ok: bool | None) -> str:
    return "✓" if ok else ("✗" if ok is False else "·")


def to_text(
    verdicts: Sequence[Verdict],
    lang: str = "en",
    details: bool = True,
    findings: Sequence[Finding] = (),
) -> str:
    """Human lines: one per step, then (for steps not green) its sub-checks and the hint."""
    lines: list[str] = []
    hint_word = "다음 할 일" if is_korean(lang) else "hint"
    for v in verdicts:
        s = step(v.step)
        head = f"{_MARK[v.status]} {v.step}. {s.title(lang)} [{status_label(v.status, lang)}]"
        lines.append(head)
        if v.ok:
            continue
        if v.reason:
            lines.append(f"    {localize(v.reason, lang)}")
        if v.hint:
            lines.append(f"    {hint_word}: {localize(v.hint, lang)}")
        if details:
            for sub in v.subchecks:
                reason = "" if sub.ok else f": {localize(sub.reason, lang)}"
                lines.append(f"      {sub_mark(sub.ok)} {sub.name}{reason}")
    for f in findings:
        lines.append(f"! {f.subject}: {localize(f.reason, lang)}")
        lines.append(f"    {hint_word}: {localize(f.hint, lang)}")
    done = sum(v.ok for v in verdicts)
    total = len(verdicts)
    lines.append(f"{done}/{total} 단계 완료" if is_korean(lang) else f"{done}/{total} steps green")
    return "\n".join(lines) + "\n"
