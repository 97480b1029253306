"""Compile errors as the API server words them, with a hint for the lab's common mistakes.

The message is what `kubectl apply` prints after "Invalid value: <expression>:" (cel-go's
`compilation failed: ERROR: <input>:line:col: message`, the source line and a caret line);
`hint` says what to do and `fix` is the corrected expression when there is an obvious one.
"""

from __future__ import annotations

import re

from gsb_tui.dra.cel import check, syntax
from gsb_tui.words import t


class CelCompileError(ValueError):
    """A selector the API server would reject; the message is the API server's own detail."""

    def __init__(self, message: str, hint: str = "", fix: str = "", expression: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint  # a sentence saying what to do, or ""
        self.fix = fix  # the corrected expression, when there is an obvious one, or ""
        self.expression = expression


class CelUnsupportedError(CelCompileError):
    """A selector the API server accepts but gsb-tui cannot evaluate (an unported library)."""


def _location(expression: str, pos: int) -> tuple[int, int, str]:
    """(line, 0-based column, line text) of an offset, counted in characters like cel-go."""
    start = expression.rfind("\n", 0, pos) + 1
    end = expression.find("\n", pos)
    line_text = expression[start : end if end >= 0 else len(expression)]
    return expression.count("\n", 0, pos) + 1, pos - start, line_text


# cel-go keeps the first 100 errors it reports (common/errors.go maxErrorsToReport).
_MAX_ERRORS = 100


def display(expression: str, errors: list[check.CheckError]) -> str:
    """cel-go's Errors.ToDisplayString: the first 100 reported, sorted, each with the line and
    a caret under the column, then how many more there were."""
    shown = []
    kept = errors[:_MAX_ERRORS]
    for err in sorted(kept, key=lambda e: _location(expression, e.pos)[:2]):
        line, col, text = _location(expression, err.pos)
        text = text.replace("\t", " ")
        # cel-go marks each character before the column with a dot, full-width for a character
        # that takes more than one byte, and the column with a caret (full-width likewise).
        marker = "".join("\uff0e" if c > "\x7f" else "." for c in text[:col])
        marker += "\uff3e" if text[col : col + 1] > "\x7f" else "^"
        shown.append(f"ERROR: <input>:{line}:{col + 1}: {err.message}\n | {text}\n | {marker}")
    if len(errors) > _MAX_ERRORS:
        shown.append(f"{len(errors) - _MAX_ERRORS} more errors were truncated")
    return "\n".join(shown)


def checker_error(expression: str, checked: check.Checked, driver: str) -> CelCompileError:
    message = "compilation failed: " + display(expression, checked.errors)
    hint, fix = _hint(expression, checked, driver)
    return CelCompileError(message, hint, fix, expression)


def _on_device_domains(node: syntax.Node) -> bool:
    """`device.attributes` or `device.capacity`: maps keyed by domain."""
    return (
        isinstance(node, syntax.Select)
        and not node.test_only
        and node.field in ("attributes", "capacity")
        and isinstance(node.operand, syntax.Ident)
        and node.operand.name == "device"
    )


def _domain_mistakes(root: syntax.Node, found: list[tuple[str, int, str]]) -> None:
    """Find `device.attributes.NAME` and `device.attributes['NAME']` (NAME is not a domain)."""
    for node in check.walk(root):
        if isinstance(node, syntax.Select) and not node.test_only:
            if _on_device_domains(node.operand):
                found.append(("select", node.pos, node.field))
        elif isinstance(node, syntax.Call) and node.function == "_[_]":
            key = check.string_key(node.args[1])
            if _on_device_domains(node.args[0]) and key is not None and "." not in key:
                found.append(("index", node.pos, key))


def _hint(expression: str, checked: check.Checked, driver: str) -> tuple[str, str]:
    mistakes: list[tuple[str, int, str]] = []
    _domain_mistakes(checked.root, mistakes)
    if mistakes:
        domain = driver or "<driver name>"
        fixed = expression
        for kind, pos, name in sorted(mistakes, key=lambda m: -m[1]):
            pattern = r"\.\s*" + re.escape(name) if kind == "select" else r"\[\s*(['\"]).*?\1\s*\]"
            m = re.compile(pattern).match(fixed, pos)
            if m is None:
                continue
            fixed = fixed[: m.start()] + f"['{domain}'].{name}" + fixed[m.end() :]
        if fixed != expression:
            return t("cel.hint.domain", fixed=fixed), fixed
    messages = " ".join(e.message for e in checked.errors)
    if "kubernetes.Quantity" in messages and any(op in messages for op in ("'_<", "'_>")):
        domain = driver or "<driver name>"
        return t("cel.hint.quantity", domain=domain), ""
    if "undefined field" in messages:
        return t("cel.hint.fields"), ""
    if re.search(r"undeclared reference to '(driver|attributes|capacity)'", messages):
        return t("cel.hint.variable"), ""
    return "", ""
