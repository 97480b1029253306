"""Selectors compiled once per expression, each evaluated on one device at a time.

Compiling judges a selector as the API server does, in its order: the length limit (10,240
bytes), cel-go's parser limits (syntax.py: 250 nested rules or operators), syntax errors (the
library's parser: the same grammar as cel-go), type errors (check.py, worded by errors.py), the
result type, then the estimated cost limit (cost.py), then compiles the checked tree for
interp.py, the one evaluator. The library is only asked to parse (its syntax errors are
cel-go's words). Evaluating is runtime.py's; many devices and requests are preview.py's. The
package's __init__ is the face that callers import from.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence

from gsb_tui.dra.cel import (
    check,
    column,
    cost,
    interp,
    prepared,
    runtime,
    stackless,
    syntax,
    validate,
)
from gsb_tui.dra.cel.errors import CelCompileError, CelUnsupportedError, checker_error
from gsb_tui.dra.cel.lexer import ParseError
from gsb_tui.dra.cel.outcome import CelOutcome
from gsb_tui.dra.cel.runtime import Evaluator
from gsb_tui.dra.cel.types import ANY, BOOL, TypeDepthError
from gsb_tui.dra.model import Device
from gsb_tui.words import t

_MAX_CACHED = 4096  # expressions typed one keystroke at a time must not grow these forever


class CelSession:
    """One owner's compiled selectors and prepared devices (a view builder's memo holds the
    watcher's: derive.Memo.cel; a fresh one evaluates once, keeping nothing for later).

    The dashboard previews selectors while the lab checks judge step 5 on a worker thread:
    one thread at a time in a session. The lock is held for one compile or one device's
    evaluation (its selectors in turn), never for a whole request, so a caller waits at most
    one device's (bounded) evaluations for another thread."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.devices = prepared.PreparedDevices()
        self._compiled: dict[str, Selector] = {}
        self._failed: dict[tuple[str, str], CelCompileError] = {}

    def compile(self, expression: str, driver: str = "") -> Selector:
        """Compile once per expression text; CelCompileError reads like the API server's
        rejection. `driver` only improves hints (the domain in `device.attributes['<driver>']`)."""
        with self.lock:
            selector = self._compiled.get(expression)
            if selector is not None:
                return selector
            failure = self._failed.get((expression, driver))
            if failure is not None:
                raise type(failure)(failure.message, failure.hint, failure.fix, expression)
            if len(self._compiled) + len(self._failed) >= _MAX_CACHED:
                self._compiled.clear()
                self._failed.clear()
            try:
                selector = _compile(self, expression, driver)
            except CelCompileError as exc:
                self._failed[(expression, driver)] = exc
                raise
            self._compiled[expression] = selector
            return selector

    def clear(self, *, results_only: bool = False) -> None:
        """Forget cached results, and unless results_only also prepared devices and compiled
        selectors (benchmarks measure a cold session with it)."""
        with self.lock:
            self.devices.clear(results_only=results_only)
            if not results_only:
                self._compiled.clear()
                self._failed.clear()


class Selector:
    """A compiled selector of one session. `evaluate` caches per device content, so calling it
    again on every snapshot is cheap."""

    def __init__(
        self,
        session: CelSession,
        expression: str,
        evaluator: Evaluator,
        output: str,
        max_cost: int,
    ) -> None:
        self.session = session
        self.expression = expression
        self.output_type = output  # "bool", or "any" for e.g. a boolean attribute on its own
        self.needs = evaluator.needs  # the parts of a device it reads
        self.max_cost = max_cost  # cel-go's estimated worst-case cost (the API server's)
        self._evaluator = evaluator
        self._epoch = -1

    def __repr__(self) -> str:
        return f"Selector({self.expression!r})"

    def evaluate(self, device: Device, deadline: float | None = None) -> CelOutcome:
        """The outcome on one device; `deadline` (time.monotonic()) bounds it besides the
        per-evaluation budget (an unfinished outcome then, not cached)."""
        with self.session.lock:
            self.registered()
            return runtime.evaluate(self._evaluator, device, deadline)

    def evaluate_many(
        self,
        devices: Sequence[Device],
        deadline: float | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> list[CelOutcome] | None:
        """The outcome on every device, in order, by key column (column.py: one outcome answers
        for every device holding its values, its `device` the first one's); None when `stop()`
        wanted it ended."""
        with self.session.lock:
            self.registered()
        return column.outcomes(self._evaluator, self.session.lock, devices, deadline, stop)

    def registered(self) -> None:
        """Register what it reads again when the session's caches were cleared since (the
        caller holds the session's lock)."""
        devices = self.session.devices
        if self._epoch != devices.epoch:
            devices.require(self.needs)
            self._epoch = devices.epoch


def compile_selector(
    expression: str, *, driver: str = "", session: CelSession | None = None
) -> Selector:
    """`session.compile`; without a session, in a fresh one (nothing kept for later calls)."""
    return (session or CelSession()).compile(expression, driver)


_SYNTAX_PREFIX = re.compile(r"^Failed to parse expression .*?: (?=ERROR: )", re.DOTALL)
# The library's parser gives up at 96 nested levels where cel-go allows 250.
_LIBRARY_DEPTH = "Recursion limit of"


def _compile(session: CelSession, expression: str, driver: str) -> Selector:
    size = len(expression.encode("utf-8", "surrogatepass"))
    if size > cost.MAX_LENGTH:
        raise CelCompileError(
            f"Too long: may not be more than {cost.MAX_LENGTH} bytes",
            hint=t("cel.hint.too-long", size=size, limit=cost.MAX_LENGTH),
            expression=expression,
        )
    root: syntax.Node | None = None
    unreadable: ParseError | None = None
    try:
        root = syntax.parse(expression)
    except syntax.LimitError as exc:  # cel-go's own parser limits: the API server's words
        raise CelCompileError(
            f"compilation failed: ERROR: <input>:-1:0: {exc}",
            hint=t("cel.hint.depth", limit=syntax.MAX_RECURSION_DEPTH),
            expression=expression,
        ) from None
    except ParseError as exc:
        unreadable = exc
    lib = prepared.library()
    try:
        lib.compile(expression)
    except ValueError as exc:
        detail = _SYNTAX_PREFIX.sub("", str(exc)).replace("\n| ", "\n | ")
        if "unsupported syntax" in detail:
            raise CelUnsupportedError(
                t("cel.cannot-evaluate", detail=detail), expression=expression
            ) from None
        if _LIBRARY_DEPTH not in detail:  # a syntax error, worded as cel-go words it
            raise CelCompileError(f"compilation failed: {detail}", expression=expression) from None
        # else: too deep for the library, not for cel-go: this parser's reading decides
    if unreadable is not None or root is None:
        error = unreadable or ParseError("unreadable", 0)
        raise CelUnsupportedError(
            t("cel.cannot-read", detail=str(error), pos=error.pos), expression=expression
        ) from None
    if interp.tree_depth(root) > interp.DEEP_TREE:  # the checker's type walks recurse
        judged = stackless.on_fresh_stack(_judge, expression, root, driver)
    else:
        judged = _judge(expression, root, driver)
    checked, program, estimate = judged
    evaluator = Evaluator(expression, program, check.needs(checked), session.devices)
    selector = Selector(session, expression, evaluator, str(checked.output), estimate)
    # Register what it reads now, so devices get one typed value holding every compiled
    # selector's needs instead of growing (and being rebuilt) as selectors are first evaluated.
    selector.registered()
    return selector


def _judge(
    expression: str, root: syntax.Node, driver: str
) -> tuple[check.Checked, interp.Program, int]:
    """Type check, result type, constant folding, cost estimate and the interpreter's program,
    in the API server's order; CelCompileError / CelUnsupportedError as it would refuse."""
    try:
        checked = check.check(root)
    except TypeDepthError:
        raise CelUnsupportedError(t("cel.too-deep"), expression=expression) from None
    if not checked.errors:  # cel-go's AST validators, on a tree that type-checks
        checked.errors = validate.validate_literals(checked)
    if checked.errors:
        raise checker_error(expression, checked, driver)
    if checked.unsupported:
        names = ", ".join(sorted(set(checked.unsupported)))
        raise CelUnsupportedError(t("cel.unported", names=names), expression=expression)
    if checked.output not in (BOOL, ANY):
        raise CelCompileError(
            f"must evaluate to bool or the unknown type, not {checked.output.go_string()}",
            hint=t("cel.hint.bool"),
            expression=expression,
        )
    folding = interp.instantiation_error(checked)
    if folding:
        raise CelCompileError(
            f"Internal error: program instantiation failed: {folding}", expression=expression
        )
    estimate = cost.estimate(checked)
    if estimate.max > cost.MAX_COST:
        raise CelCompileError(
            "Forbidden: too complex, exceeds cost limit",
            hint=t("cel.hint.cost", cost=_shown_cost(estimate.max), limit=cost.MAX_COST),
            expression=expression,
        )
    try:
        program = interp.Program(checked)
    except interp.Unported as exc:
        raise CelUnsupportedError(
            t("cel.cannot-evaluate", detail=str(exc)), expression=expression
        ) from None
    return checked, program, estimate.max


def _shown_cost(value: int) -> str:
    return "2^64-1" if value >= 2**64 - 1 else f"{value:,}"
