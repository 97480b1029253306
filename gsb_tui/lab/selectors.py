"""Reading a learner's CEL selector for the lab's mistakes, as the API server and scheduler would.

Not a CEL evaluator: the cluster's allocation is the final word on what a selector picks. This
only names, before the learner applies, the mistakes the lab warns about and what the real
server does with them (see dra-reference §2.7):
- `device.attributes.index`: the attributes map is keyed by domain first, so this reads the
  domain "index"; the type check fails at admission and no claim is created.
- `device.attributes['index']`: the same lookup written with brackets, same rejection.
- a wrong domain (`device.attributes['example.com'].index`): compiles, then fails at scheduling
  with "no such key".
- `== '7'`: comparing an int attribute with a string compiles but matches no device.
"""

from __future__ import annotations

import re

from gsb_tui.lab.text import Text, t

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
        if "." not in domain:
            return t(
                "mistake.attr_no_domain",
                written=m.group(0).replace(" ", ""),
                name=domain,
                fixed=f"device.attributes['{driver}'].{domain}",
            )
        return t("cel.wrong_domain", domain=domain, driver=driver)
    if _QUOTED_INT.search(expression):
        return t("cel.quoted_int")
    return None


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
