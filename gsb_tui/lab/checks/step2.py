"""Step 2, class.txt: deviceclass= and selector= exactly as the lab's DeviceClass serves them."""

from __future__ import annotations

import re

from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster
from gsb_tui.lab.checks.common import key_values, kv_value, waiting
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.parse import KeyValues, unquote
from gsb_tui.lab.steps import step
from gsb_tui.lab.verdict import SubCheck, Verdict, failed, not_yet, passed, verdict
from gsb_tui.snapshot import Kind
from gsb_tui.words import t

_CLASS_KEYS = ("deviceclass", "selector")
_SELECTOR_PREFIX = re.compile(r"^\s*(?:-\s*)?(?:cel\s*:\s*)?(?:expression\s*:\s*)", re.I)


def check_class(view: DraView, files: LabFiles) -> Verdict:
    name = step(2).file
    file_sub, kv, started = key_values(files, name, _CLASS_KEYS)
    subs = [file_sub]
    block = cluster.blocked_reason(view, (Kind.CLASSES,))
    if block is not None:
        return verdict(2, subs + cluster.blocked_all(_CLASS_KEYS, block), started)
    cls = cluster.lab_class(view)
    if cls is None:
        subs += [not_yet(k, t("s2.no_class"), t("hint.wait_driver")) for k in _CLASS_KEYS]
        return verdict(2, subs, started)
    if kv is None or file_sub.ok is False:
        return verdict(2, subs + waiting(_CLASS_KEYS, name), started)
    value, problem = kv_value(kv, "deviceclass", name, _CLASS_KEYS)
    if problem is not None:
        subs.append(problem)
    elif value == cls.name:
        subs.append(passed("deviceclass"))
    elif value in view.classes:
        subs.append(
            failed(
                "deviceclass", t("s2.other_class", value=value, wanted=cls.name), t("hint.s2_class")
            )
        )
    else:
        subs.append(
            failed("deviceclass", t("s2.no_such_class", value=value or ""), t("hint.s2_class"))
        )
    subs.append(_selector_sub(kv, name, cls.name, cls.selectors))
    node = next((s.node for s in view.slices if s.node), "")
    done = t("hint.s2_allocatable", node=node or "<node>", next=3)
    return verdict(2, subs, started, done)


def _selector_sub(kv: KeyValues, file: str, cls: str, served: tuple[str, ...]) -> SubCheck:
    value, problem = kv_value(kv, "selector", file, _CLASS_KEYS)
    if problem is not None:
        return problem
    assert value is not None
    if not served:
        return not_yet("selector", t("s2.no_selector_served", cls=cls))
    wanted = {served[0]} if len(served) == 1 else {" && ".join(served), *served}
    raw = kv.raw.get("selector", value)
    candidates = {value, raw.strip(), _unquote(raw)}
    if candidates & wanted:
        return passed("selector")
    bare = _SELECTOR_PREFIX.sub("", value)
    if bare != value and {bare, _unquote(bare)} & wanted:
        return failed("selector", t("s2.selector_prefix", value=value[:40]), t("hint.s2_selector"))
    squeeze = {re.sub(r"\s+", "", w) for w in wanted}
    if re.sub(r"\s+", "", value) in squeeze:
        return failed("selector", t("s2.selector_spaces"), t("hint.s2_selector"))
    return failed("selector", t("s2.selector", value=value[:80], cls=cls), t("hint.s2_selector"))


def _unquote(value: str) -> str:
    return unquote(value.strip())
