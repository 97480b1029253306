"""Running compiled selectors: the Rust CEL library, Kubernetes' functions, cached results.

Each device becomes one library Context holding its `device` variable (device.py), built once
per device content and holding only what compiled selectors read (check.needs). Results are
cached per (device, expression), so re-evaluating on every cluster change is a dictionary lookup
for devices that did not change.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NoReturn

from gsb_tui.dra.cel import check, emit
from gsb_tui.dra.cel.device import DeviceError, device_variable
from gsb_tui.dra.cel.quantity import Quantity, QuantityError, from_int, is_quantity, parse_quantity
from gsb_tui.dra.cel.semver import SemverError, is_semver, parse_semver
from gsb_tui.dra.cel.values import as_quantity, as_semver, encode_quantity, encode_semver
from gsb_tui.dra.model import Device, DeviceId


@dataclass(frozen=True)
class CelOutcome:
    """One device's result for one selector (or for all selectors of a request)."""

    device: DeviceId
    matched: bool
    error: str = ""  # "" unless a runtime error (then matched is False)


# --- the evaluating library --------------------------------------------------------------------


class _ExpectedFailures(logging.Filter):
    """The library logs a warning for every exception a Python function raises; ours are
    CEL runtime errors (e.g. quantity('x')), reported in CelOutcome, not on stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Python function 'k8s_" not in record.getMessage()


@lru_cache(maxsize=1)
def library() -> Any:
    # Imported on first use: `import cel` costs ~0.4 s, kept off the dashboard's first frame.
    import cel

    logging.getLogger("cel").addFilter(_ExpectedFailures())
    return cel


# --- Kubernetes' CEL functions, called by the library ------------------------------------------

_failure = threading.local()


class _Failure(Exception):
    pass


def _fail(message: str) -> NoReturn:
    # The library wraps our exception text in its own; keep the message to report it verbatim.
    _failure.message = message
    raise _Failure(message)


def _no_overload() -> NoReturn:
    _fail("no such overload")


def _quantity_arg(value: Any) -> Quantity:
    q = as_quantity(value)
    return q if q is not None else _no_overload()


def _string_arg(value: Any) -> str:
    return value if isinstance(value, str) else _no_overload()


def _k8s_quantity(text: Any) -> dict[str, str]:
    try:
        return encode_quantity(parse_quantity(_string_arg(text)))
    except QuantityError as exc:
        _fail(str(exc))


def _k8s_semver(text: Any, normalize: Any = False) -> dict[str, str]:
    try:
        return encode_semver(parse_semver(_string_arg(text), bool(normalize)))
    except SemverError as exc:
        _fail(str(exc))


def _compare(a: Any, b: Any) -> int:
    qa, qb = as_quantity(a), as_quantity(b)
    if qa is not None and qb is not None:
        return qa.cmp(qb)
    sa, sb = as_semver(a), as_semver(b)
    if sa is not None and sb is not None:
        return sa.compare(sb)
    _no_overload()


def _as_integer(q: Any) -> int:
    value = _quantity_arg(q).as_int64()
    return value if value is not None else _fail("cannot convert value to integer")


def _plus(q: Any, other: Any, sign: int) -> dict[str, str]:
    left = _quantity_arg(q)
    if isinstance(other, int) and not isinstance(other, bool):
        right = from_int(other)
    else:
        right = _quantity_arg(other)
    return encode_quantity(left.add(right) if sign > 0 else left.sub(right))


def _semver_part(v: Any, part: str) -> int:
    s = as_semver(v)
    return int(getattr(s, part)) if s is not None else _no_overload()


def _eq(a: Any, b: Any) -> bool:
    qa, qb = as_quantity(a), as_quantity(b)
    if qa is not None or qb is not None:  # Quantity.Equal: false for anything but a quantity
        return qa is not None and qb is not None and qa.cmp(qb) == 0
    return bool(a == b)


def _in(value: Any, container: Any) -> bool:
    return any(_eq(value, item) for item in container)


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("1", "t", "true", "TRUE", "True"):
        return True
    if value in ("0", "f", "false", "FALSE", "False"):
        return False
    _fail("type conversion error from 'string' to 'bool'")


def _guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a stdlib function so its exceptions surface as CEL runtime errors."""

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except _Failure:
            raise
        except Exception as exc:
            _fail(str(exc) or type(exc).__name__)

    return call


def _functions() -> dict[str, Callable[..., Any]]:
    from cel.stdlib import EXTENSIONS  # part of common-expression-language

    py = emit.python_name
    functions: dict[str, Callable[..., Any]] = {
        py("quantity"): _k8s_quantity,
        py("isQuantity"): lambda s: is_quantity(_string_arg(s)),
        py("sign"): lambda q: _quantity_arg(q).sign(),
        py("isInteger"): lambda q: _quantity_arg(q).as_int64() is not None,
        py("asInteger"): _as_integer,
        py("asApproximateFloat"): lambda q: _quantity_arg(q).approximate_float(),
        py("add"): lambda q, other: _plus(q, other, 1),
        py("sub"): lambda q, other: _plus(q, other, -1),
        py("compareTo"): _compare,
        py("isGreaterThan"): lambda a, b: _compare(a, b) > 0,
        py("isLessThan"): lambda a, b: _compare(a, b) < 0,
        py("semver"): _k8s_semver,
        py("isSemver"): lambda s, normalize=False: is_semver(_string_arg(s), bool(normalize)),
        py("major"): lambda v: _semver_part(v, "major"),
        py("minor"): lambda v: _semver_part(v, "minor"),
        py("patch"): lambda v: _semver_part(v, "patch"),
        py("eq"): _eq,
        py("in"): _in,
        py("bool"): _bool,
    }
    for name, fn in EXTENSIONS["strings"].items():
        functions[py(name)] = _guarded(fn)
    return functions


# --- devices prepared for the library ----------------------------------------------------------


@dataclass
class _Prepared:
    device: Device  # what the entry was built from (identity of .raw is the fast cache check)
    fingerprint: str  # "" until a second object for the same device has to be compared
    context: Any  # the library's Context, or None when the device cannot be represented
    error: str
    needs_version: int  # which _needs the context holds
    results: dict[str, CelOutcome] = field(default_factory=dict)


_MAX_PREPARED = 20_000
_prepared_devices: dict[tuple[DeviceId, str], _Prepared] = {}
# What the compiled selectors read, together: each device's context holds just that.
_needs: set[check.Leaf] = set()
_needs_version = 0
epoch = 0  # bumped by clear(): compiled selectors register their needs again


@lru_cache(maxsize=1)
def _frozen_needs_at(version: int) -> frozenset[check.Leaf]:
    return frozenset(_needs)


def _frozen_needs() -> frozenset[check.Leaf]:
    return _frozen_needs_at(_needs_version)


def _covered(leaf: check.Leaf) -> bool:
    if leaf in _needs:
        return True
    if leaf == PYTHON_FUNCTIONS:  # not a part of the device: the whole device does not cover it
        return False
    if check.WHOLE in _needs:
        return True
    return len(leaf) == 3 and bool({(leaf[0], "*", "*"), (leaf[0], leaf[1], "*")} & _needs)


def require(leaves: frozenset[check.Leaf]) -> None:
    """Make prepared devices hold these leaves too (rebuilt lazily, results kept)."""
    global _needs_version
    missing = {leaf for leaf in leaves if not _covered(leaf)}
    if missing:
        _needs.update(missing)
        _needs_version += 1


def _fingerprint(device: Device) -> str:
    return json.dumps(
        [device.raw, sorted(device.attributes.items()), sorted(device.capacity.items())],
        sort_keys=True,
        default=str,
    )


def _prepare(device: Device) -> _Prepared:
    """The library Context for a device, rebuilt only when the device's content changed."""
    key = (device.id, device.slice_name)
    entry = _prepared_devices.get(key)
    if entry is not None and entry.device.raw is not device.raw:
        # Another object for the same device (a new snapshot): reuse it if nothing changed.
        fingerprint = _fingerprint(device)
        if not entry.fingerprint:
            entry.fingerprint = _fingerprint(entry.device)
        if entry.fingerprint != fingerprint:
            entry = None
        else:
            entry.device = device
    if entry is not None and entry.needs_version == _needs_version:
        return entry
    context, error = _context(device)
    if entry is not None:  # selectors now read more of the device; results stay valid
        entry.context, entry.error, entry.needs_version = context, error, _needs_version
        return entry
    if len(_prepared_devices) >= _MAX_PREPARED:
        _prepared_devices.clear()
    entry = _Prepared(device, "", context, error, _needs_version)
    _prepared_devices[key] = entry
    return entry


# Not a device part: registered by selectors that call Python functions (k8s_*), which then
# go into every context (registering them costs about as much as a few attributes).
PYTHON_FUNCTIONS: check.Leaf = ("@functions",)


def _context(device: Device) -> tuple[Any, str]:
    needs = _frozen_needs()
    try:
        variable = device_variable(device, needs)
    except DeviceError as exc:
        return None, str(exc)
    functions = _function_table() if PYTHON_FUNCTIONS in needs else None
    return library().Context(variables={"device": variable}, functions=functions), ""


@lru_cache(maxsize=1)
def _function_table() -> dict[str, Callable[..., Any]]:
    return _functions()


def clear(*, results_only: bool = False) -> None:
    """Forget cached results, and unless results_only also the prepared devices and what
    compiled selectors registered (they register again on their next evaluation)."""
    global _needs_version, epoch
    if results_only:
        for entry in _prepared_devices.values():
            entry.results.clear()
        return
    _prepared_devices.clear()
    _needs.clear()
    _needs_version += 1
    epoch += 1


def evaluate(program: Any, expression: str, device: Device) -> CelOutcome:
    """One compiled program on one device, cached per device content and expression."""
    entry = _prepare(device)
    outcome = entry.results.get(expression)
    if outcome is None:
        outcome = _run(program, device.id, entry)
        entry.results[expression] = outcome
    return outcome


def _run(program: Any, device: DeviceId, entry: _Prepared) -> CelOutcome:
    if entry.context is None:
        return CelOutcome(device, False, entry.error)
    _failure.message = ""
    try:
        result = program.execute(entry.context)
    except Exception as exc:
        return CelOutcome(device, False, _runtime_message(exc))
    if isinstance(result, bool):
        return CelOutcome(device, result)
    kind = _type_name(result)
    return CelOutcome(
        device,
        False,
        f"CEL result of type {kind} could not be converted to bool: "
        f"type conversion error from '{kind}' to 'bool'",
    )


def _type_name(value: Any) -> str:
    if as_quantity(value) is not None:
        return "kubernetes.Quantity"
    if isinstance(value, dict):
        if as_semver(value) is not None:
            return "kubernetes.Semver"
        return "map"
    names = {bool: "bool", int: "int", float: "double", str: "string", bytes: "bytes", list: "list"}
    return "null_type" if value is None else names.get(type(value), type(value).__name__)


def _runtime_message(exc: Exception) -> str:
    """cel-go's wording for what the library raised."""
    text = str(exc)
    failure: str = getattr(_failure, "message", "")
    if text.startswith("Function 'k8s_") and failure:
        return failure
    if isinstance(exc, KeyError):
        return f"no such key: {exc.args[0] if exc.args else ''}"
    if isinstance(exc, ZeroDivisionError):
        return "modulus by zero" if "modulo" in text else "division by zero"
    if isinstance(exc, OverflowError):
        return "integer overflow"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, TypeError) or text.startswith("Undefined variable or function"):
        # Names were checked at compile time: a function missing now is one applied to a
        # runtime type it has no overload for (e.g. size() on an int attribute).
        return "no such overload"
    return text.split(". Check ")[0]
