"""Selectors compiled once per expression, and evaluated over devices and requests.

Compiling runs the library's parser (for cel-go's syntax errors), then check.py (for the API
server's type errors, worded by errors.py), then prints the checked AST back as plain CEL with
Kubernetes' semantics spelled out (emit.py) and has the library compile that. Evaluating is
runtime.py's. The package's __init__ is the face that callers import from.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from gsb_tui.dra.cel import check, emit, runtime, syntax
from gsb_tui.dra.cel.errors import CelCompileError, CelUnsupportedError, checker_error
from gsb_tui.dra.cel.lexer import ParseError
from gsb_tui.dra.cel.runtime import CelOutcome
from gsb_tui.dra.cel.types import ANY, BOOL
from gsb_tui.dra.model import Device, DeviceClass, DeviceId, Request
from gsb_tui.words import t

# The dashboard previews selectors on its UI thread while the lab checks judge step 5 on a
# worker thread; the compiled-selector and device-context caches are shared, so one thread at a
# time (re-entrant: evaluate_all and explain_request call compile and evaluate).
_lock = threading.RLock()
_F = TypeVar("_F", bound=Callable[..., Any])


def _serialised(fn: _F) -> _F:
    @functools.wraps(fn)
    def locked(*args: Any, **kwargs: Any) -> Any:
        with _lock:
            return fn(*args, **kwargs)

    return cast(_F, locked)


class Selector:
    """A compiled selector. `evaluate` caches per device content, so calling it again on every
    snapshot is cheap."""

    def __init__(
        self,
        expression: str,
        program: Any,
        output: str,
        evaluator_source: str,
        needs: frozenset[check.Leaf],
    ) -> None:
        self.expression = expression
        self.output_type = output  # "bool", or "any" for e.g. a boolean attribute on its own
        self.evaluator_source = evaluator_source  # what the library runs (for debugging)
        self.needs = needs  # the parts of a device it reads
        self._program = program
        self._epoch = -1

    def __repr__(self) -> str:
        return f"Selector({self.expression!r})"

    @_serialised
    def evaluate(self, device: Device) -> CelOutcome:
        if self._epoch != runtime.epoch:  # caches were cleared since it registered
            runtime.require(self.needs)
            self._epoch = runtime.epoch
        return runtime.evaluate(self._program, self.expression, device)


_compiled: dict[str, Selector] = {}
_failed: dict[tuple[str, str], CelCompileError] = {}
_MAX_CACHED = 4096  # expressions typed one keystroke at a time must not grow these forever


@_serialised
def compile_selector(expression: str, *, driver: str = "") -> Selector:
    """Compile once per expression text; CelCompileError reads like the API server's rejection.

    `driver` only improves hints (e.g. the domain in `device.attributes['<driver>'].index`)."""
    selector = _compiled.get(expression)
    if selector is not None:
        return selector
    failure = _failed.get((expression, driver))
    if failure is not None:
        raise type(failure)(failure.message, failure.hint, failure.fix, expression)
    if len(_compiled) + len(_failed) >= _MAX_CACHED:
        _compiled.clear()
        _failed.clear()
    try:
        selector = _compile(expression, driver)
    except CelCompileError as exc:
        _failed[(expression, driver)] = exc
        raise
    _compiled[expression] = selector
    return selector


_SYNTAX_PREFIX = re.compile(r"^Failed to parse expression .*?: (?=ERROR: )", re.DOTALL)


def _compile(expression: str, driver: str) -> Selector:
    lib = runtime.library()
    try:
        lib.compile(expression)
    except ValueError as exc:
        detail = _SYNTAX_PREFIX.sub("", str(exc)).replace("\n| ", "\n | ")
        if "unsupported syntax" in detail:
            raise CelUnsupportedError(
                t("cel.cannot-evaluate", detail=detail), expression=expression
            ) from None
        raise CelCompileError(f"compilation failed: {detail}", expression=expression) from None
    try:
        checked = check.check(syntax.parse(expression))
    except ParseError as exc:
        raise CelUnsupportedError(
            t("cel.cannot-read", detail=str(exc), pos=exc.pos), expression=expression
        ) from None
    if checked.errors:
        raise checker_error(expression, checked, driver)
    if checked.unsupported:
        names = ", ".join(f"{n}()" for n in sorted(set(checked.unsupported)))
        raise CelUnsupportedError(t("cel.unported", names=names), expression=expression)
    if checked.output not in (BOOL, ANY):
        raise CelCompileError(
            f"must evaluate to bool or the unknown type, not {checked.output.go_string()}",
            hint=t("cel.hint.bool"),
            expression=expression,
        )
    source = emit.emit(checked)
    try:
        program = lib.compile(source)
    except ValueError as exc:  # our printer produced something the library cannot read
        raise CelUnsupportedError(
            t("cel.cannot-evaluate", detail=str(exc)), expression=expression
        ) from None
    needs = check.needs(checked)
    if emit.calls_python(source):
        needs |= {runtime.PYTHON_FUNCTIONS}
    selector = Selector(expression, program, str(checked.output), source, needs)
    # Register what it reads now, so devices get one context holding every compiled selector's
    # needs instead of growing (and being rebuilt) as selectors are first evaluated.
    runtime.require(selector.needs)
    selector._epoch = runtime.epoch
    return selector


@_serialised
def clear_caches(*, results_only: bool = False) -> None:
    """Forget cached results, and unless results_only also prepared devices and compiled
    selectors (for tests and benchmarks)."""
    runtime.clear(results_only=results_only)
    if not results_only:
        _compiled.clear()
        _failed.clear()


# --- many devices, many selectors --------------------------------------------------------------


def _evaluate_chain(selectors: Sequence[Selector], device: Device, prefix: str) -> CelOutcome:
    """AND over selectors in order, stopping at the first false or error (like the allocator)."""
    for i, selector in enumerate(selectors):
        outcome = selector.evaluate(device)
        if outcome.error:
            return CelOutcome(device.id, False, f"{prefix}selector #{i}: {outcome.error}")
        if not outcome.matched:
            return outcome
    return CelOutcome(device.id, True)


@_serialised
def evaluate_all(
    expressions: Sequence[str], devices: Sequence[Device]
) -> dict[DeviceId, CelOutcome]:
    """A device matches only when every expression is true; the first error wins.

    Raises CelCompileError for an expression that does not compile."""
    driver = devices[0].id.driver if devices else ""
    selectors = [compile_selector(e, driver=driver) for e in expressions]
    return {d.id: _evaluate_chain(selectors, d, "") for d in devices}


@dataclass(frozen=True)
class RequestPreview:
    class_admits: tuple[DeviceId, ...]  # devices the DeviceClass selectors admit
    selector_admits: tuple[DeviceId, ...]  # of those, the ones the request's selectors admit
    free_matching: tuple[DeviceId, ...]  # of those, free
    outcomes: Mapping[DeviceId, CelOutcome]  # per device; errors say which selector failed
    needed: int | None  # request count (None for allocationMode All)
    class_name: str = ""
    class_missing: bool = False  # the request names a DeviceClass that does not exist
    has_selectors: bool = False  # whether the request has selectors of its own
    error: str = ""  # a selector that does not compile (then nothing is admitted)
    hint: str = ""

    @property
    def short(self) -> bool:
        """Too few free matching devices to meet the request (its wording: ui/explain.py)."""
        free = len(self.free_matching)
        if self.needed is None:  # allocationMode All: every matching device, and at least one
            return free < len(self.selector_admits) or not self.selector_admits
        return free < self.needed


@_serialised
def explain_request(
    view_devices: Sequence[Device],
    device_class: DeviceClass | None,
    request: Request,
    free: Collection[DeviceId],
) -> RequestPreview:
    """Which devices a request could get: class selectors, then request selectors, then free."""
    needed = None if request.allocation_mode == "All" else request.count

    def preview(**more: Any) -> RequestPreview:
        return RequestPreview(
            (),
            (),
            (),
            {},
            needed,
            class_name=request.device_class,
            has_selectors=bool(request.selectors),
            **more,
        )

    if device_class is None:
        return preview(class_missing=True)
    driver = view_devices[0].id.driver if view_devices else ""
    try:
        class_selectors = [compile_selector(e, driver=driver) for e in device_class.selectors]
        request_selectors = [compile_selector(e, driver=driver) for e in request.selectors]
    except CelCompileError as exc:
        return preview(error=exc.message, hint=exc.hint)
    outcomes: dict[DeviceId, CelOutcome] = {}
    class_admits: list[DeviceId] = []
    selector_admits: list[DeviceId] = []
    for device in view_devices:
        outcome = _evaluate_chain(class_selectors, device, f"class {device_class.name}: ")
        if outcome.matched:
            class_admits.append(device.id)
            outcome = _evaluate_chain(request_selectors, device, f"request {request.name}: ")
            if outcome.matched:
                selector_admits.append(device.id)
        outcomes[device.id] = outcome
    free_set = set(free)
    return RequestPreview(
        tuple(class_admits),
        tuple(selector_admits),
        tuple(d for d in selector_admits if d in free_set),
        outcomes,
        needed,
        class_name=request.device_class,
        has_selectors=bool(request.selectors),
    )
