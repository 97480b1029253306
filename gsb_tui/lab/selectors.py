"""Judging a learner's CEL selector for the lab, as the API server and scheduler would.

Two ways, best first:
- `judge` evaluates the selectors with gsb-tui's CEL evaluator (gsb_tui.dra.cel) on the devices
  the cluster publishes, within the request's DeviceClass as the scheduler does, and says what
  they admit: exactly the wanted devices, others (named), none, a compile error (the API server
  refuses the claim) or a runtime error (the scheduler stops). However it is written
  (`== 7`, `> 6`, `in [7]`, `7 == ...`), a selector is judged by what it picks.
- when the cluster cannot tell (no devices or class yet, no CEL library, a selector gsb-tui
  cannot evaluate), `mistake` and `selects_value` read the text for the lab's known mistakes
  and what the real server does with them (see dra-reference §2.7):
  - `device.attributes.index`: the attributes map is keyed by domain first, so this reads the
    domain "index"; the type check fails at admission and no claim is created.
  - `device.attributes['index']`: the same lookup written with brackets, same rejection.
  - a wrong domain (`device.attributes['example.com'].index`): compiles, then fails at
    scheduling with "no such key".
  - `== '7'`: comparing an int attribute with a string compiles but matches no device.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gsb_tui.dra.model import Device, DeviceId, Request
from gsb_tui.dra.view import DraView
from gsb_tui.lab.manifests import DeclaredRequest
from gsb_tui.words import Text, t

_ATTR_DOT = re.compile(r"device\s*\.\s*attributes\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)")
_ATTR_INDEX = re.compile(r"device\s*\.\s*attributes\s*\[\s*(['\"])(.*?)\1\s*\]")
_QUOTED_INT = re.compile(
    r"(?:==|!=|<=|>=|<|>)\s*(['\"])\s*-?\d+\s*\1|(['\"])\s*-?\d+\s*\2\s*(?:==|!=|<=|>=|<|>)"
)


def mistake(expression: str, driver: str) -> Text | None:
    """A selector mistake the API server rejects (admission) or the scheduler trips on."""
    m = _ATTR_DOT.search(expression)
    if m:
        name = m.group(1)
        return t(
            "mistake.attr_no_domain",
            written=m.group(0).replace(" ", ""),
            name=name,
            fixed=f"device.attributes['{driver}'].{name}",
        )
    for m in _ATTR_INDEX.finditer(expression):
        domain = m.group(2)
        if domain == driver:
            continue
        # `device.attributes['index'].index` reads an attribute under the domain "index": the
        # API server accepts it and the scheduler fails with "no such key: index" (seen on the
        # practice cluster, tests/e2e/test_cel_parity.py); only the map itself compared with a
        # value is rejected at admission.
        reads_further = re.match(r"\s*(?:\.|\[)", expression[m.end() :]) is not None
        if "." not in domain and not reads_further:
            return t(
                "mistake.attr_no_domain",
                written=m.group(0).replace(" ", ""),
                name=domain,
                fixed=f"device.attributes['{driver}'].{domain}",
            )
        return t("cel.wrong_domain", domain=domain, driver=driver)
    if compares_quoted_int(expression):
        return t("cel.quoted_int")
    return None


def compares_quoted_int(expression: str) -> bool:
    """`== '7'`: a number in quotes, which never equals an int attribute."""
    return _QUOTED_INT.search(expression) is not None


def rejected_at_admission(expression: str, driver: str) -> bool:
    """True for the mistakes whose claim the API server refuses to create."""
    found = mistake(expression, driver)
    return found is not None and found.key == "mistake.attr_no_domain"


def _normal(expression: str, driver: str) -> str:
    text = re.sub(r"\s+", "", expression).replace('"', "'")
    ref = f"device.attributes['{driver}']"
    return re.sub(re.escape(ref) + r"\['([A-Za-z_][A-Za-z0-9_]*)'\]", ref + r".\1", text)


def selects_value(expression: str, driver: str, attribute: str, value: int) -> Text | None:
    """Why the expression does not (visibly) pick `attribute == value`; None when it does."""
    text = _normal(expression, driver)
    target = f"device.attributes['{driver}'].{attribute}"
    if target not in text:
        return t("cel.no_attribute", attribute=attribute, target=target)
    num = re.escape(str(value))
    compare = rf"{re.escape(target)}==({num})(?![\d.])|(?<![\d.']){num}=={re.escape(target)}"
    if re.search(compare, text) or re.search(rf"{re.escape(target)}in\[{num}\]", text):
        return None
    return t("cel.not_value", attribute=attribute, value=value, target=target)


# ------------------------------------------------------------------ evaluated on the devices

_NAMED = 4  # device names shown before "and N more"
_BUDGET = 5.0  # seconds to evaluate a step's selectors on every device (then: read the text)


@dataclass(frozen=True)
class Judged:
    """What a request's selectors admit among the published devices, against what is wanted."""

    reason: Text | None  # None: exactly the wanted devices
    rejected: bool = False  # a compile error: the API server refuses the claim at admission


def judge(
    view: DraView, request: DeclaredRequest, driver: str, attribute: str, value: int
) -> Judged | None:
    """Do the request's selectors admit exactly the class's devices whose `attribute` is `value`?

    None when the cluster cannot tell (no devices or class yet, no such device, the CEL library
    does not load, a selector gsb-tui cannot evaluate): then read the text instead."""
    cls = view.classes.get(request.device_class)
    if not view.devices or cls is None or not _cel_loaded():
        return None
    from gsb_tui.dra import cel  # ~35 ms of imports, paid only once a step has selectors

    for expression in request.selectors:
        try:
            cel.compile_selector(expression, driver=driver, session=view.memo.cel)
        except cel.CelUnsupportedError:
            return None
        except cel.CelCompileError as exc:
            return Judged(_compile_reason(expression, driver, exc.message), rejected=True)
    served = Request(request.name, cls.name, request.selectors, "ExactCount", 1, False)
    preview = cel.explain_request(
        view.devices, cls, served, (), budget=_BUDGET, session=view.memo.cel
    )
    if preview.error or preview.unfinished:  # the class does not compile, or out of time
        return None
    in_class = [d for d in view.devices if d.id in set(preview.class_admits)]
    wanted = [d.id for d in in_class if _has(d, attribute, value)]
    if not wanted:
        return None
    where = {"cls": cls.name, "total": len(in_class), "attribute": attribute, "value": value}
    errors = [(d, e) for d in preview.class_admits if (e := preview.outcomes[d].error)]
    if errors:
        device, error = errors[0]
        error = error.removeprefix(f"request {request.name}: ")  # the learner has one request
        return Judged(
            t("cel.runtime_error", n=len(errors), device=device.device, error=error, **where)
        )
    picked = preview.selector_admits
    if set(picked) == set(wanted):
        return Judged(None)
    if not picked:
        if any(compares_quoted_int(e) for e in request.selectors):
            return Judged(t("cel.quoted_int"))
        return Judged(t("cel.picks_none", wanted=_names(wanted), **where))
    return Judged(
        t("cel.picks_other", n=len(picked), devices=_names(picked), wanted=_names(wanted), **where)
    )


def _cel_loaded() -> bool:
    try:
        from gsb_tui.dra import cel

        cel.library()  # cached once it has loaded
    except Exception:  # not installed, or a build that does not load here: read the text
        return False
    return True


def _has(device: Device, attribute: str, value: int) -> bool:
    found = device.attribute(attribute)
    return found == value and not isinstance(found, bool)  # True == 1 in Python, not in CEL


def _compile_reason(expression: str, driver: str, message: str) -> Text:
    """The two domain mistakes keep their explanation; any other error is quoted."""
    found = mistake(expression, driver)
    if found is not None and found.key == "mistake.attr_no_domain":
        return found
    return t("cel.rejected", error=message.splitlines()[0])


def _names(devices: Iterable[DeviceId]) -> str | Text:
    names = [d.device for d in devices]
    shown = ", ".join(names[:_NAMED])
    if len(names) <= _NAMED:
        return shown
    return t("cel.more", names=shown, n=len(names) - _NAMED)
