"""CEL device selectors, evaluated against published devices with Kubernetes' semantics.

Why a selector admits or rejects a device is the question behind "explain the scheduler's
choice". The scheduler's allocator evaluates the DeviceClass selectors and then the request's
selectors on every device; a device counts only when all are true, and the first runtime error
(e.g. `no such key: idx`) stops the allocation. This package answers the same question offline.

How (see docs/CEL.md for the measurements behind it):
- compile (selector.py): the Rust CEL library (`common-expression-language`, imported as `cel`)
  parses first, so syntax errors read like cel-go's (the only thing it does); then check.py
  type-checks against Kubernetes' `device` declaration (types.py), so admission errors such as
  `device.attributes.index == 7` read like the API server's (errors.py), with a fix as
  `CelCompileError.hint` / `.fix`; then interp.py compiles the checked tree into closures.
- limits (selector.py, syntax.py, cost.py): judged as the API server judges them and worded
  as it words them — 10,240 bytes, cel-go's parser depth limits (250), the estimated cost
  limit (1,000,000); nothing recurses on Python's stack without bound (stackless.py; a deep
  tree is evaluated on a fresh stack).
- evaluate (runtime.py, prepared.py, interp.py): each device becomes one typed `device` value
  (device.py, values.py, quantity.py, semver.py), built once per device content when a
  selector first has to run on it; results are cached per (device, expression), so
  re-evaluating on every cluster change only costs a dictionary lookup for devices that did
  not change. Devices that hold the same values where a selector looks (projection.py's key)
  share one evaluation. interp.py is cel-go's semantics, runtime cost count and wording.
  Compiled selectors and prepared devices belong to a CelSession (selector.py), owned by
  whoever evaluates: a view builder's memo (derive.Memo.cel) for the dashboard and the lab
  checks; a call without one gets a fresh session and keeps nothing.
  Every evaluation is bounded in time (`budget`).
- many devices (preview.py): `evaluate_all`, and `explain_request` for the dashboard's preview;
  one selector over a whole device sequence by key column (column.py: `Selector.evaluate_many`,
  the selector tool's trial on every keystroke).

This is the package's one face: code outside it imports from `gsb_tui.dra.cel` only. Importing
it does not import the library (~0.4 s); that happens on the first compile, or on `library()`.
"""

from __future__ import annotations

from gsb_tui.dra.cel.cost import MAX_COST, MAX_LENGTH
from gsb_tui.dra.cel.device import device_variable
from gsb_tui.dra.cel.errors import CelCompileError, CelUnsupportedError
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.cel.prepared import library
from gsb_tui.dra.cel.preview import RequestPreview, evaluate_all, explain_request
from gsb_tui.dra.cel.quantity import parse_quantity
from gsb_tui.dra.cel.runtime import EVALUATION_BUDGET
from gsb_tui.dra.cel.selector import CelSession, Selector, compile_selector
from gsb_tui.dra.cel.semver import parse_semver

# Seconds the dashboard gives one request's preview on its UI thread (devices not reached in
# time are shown as not evaluated, and reached on a later repaint: results are cached).
PREVIEW_BUDGET = 0.05

__all__ = [
    "EVALUATION_BUDGET",
    "MAX_COST",
    "MAX_LENGTH",
    "PREVIEW_BUDGET",
    "CelCompileError",
    "CelOutcome",
    "CelSession",
    "CelUnsupportedError",
    "RequestPreview",
    "Selector",
    "compile_selector",
    "device_variable",
    "evaluate_all",
    "explain_request",
    "library",
    "parse_quantity",
    "parse_semver",
]
