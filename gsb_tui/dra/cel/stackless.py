"""Deep recursion without Python's stack: a trampoline for recursive generator functions.

A selector of 10,240 bytes can nest hundreds of levels deep, within what the API server accepts
(cel-go's parser allows 250 levels), and Python's own limit is about 1,000 frames. So the walks
over a selector's syntax tree (parser, checker, printer, cost estimate, interpreter) are written
as generators: where a function would call itself, it yields the generator of the call instead
(`value = yield self.walk(child)`), and `run` drives them all with a list as the stack.

Rules for such generators: never `yield from` a recursive call (that nests C frames again), and
never catch an exception around a `yield` (run() ends every generator when one raises).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from typing import Any, TypeVar

T = TypeVar("T")

# A generator that yields the generators of its sub-calls and returns a T.
Step = Generator[Any, Any, T]


def run(step: Step[T]) -> T:
    """Drive a recursive generator to its result with a heap-allocated stack."""
    stack: list[Generator[Any, Any, Any]] = [step]
    value: Any = None
    while True:
        top = stack[-1]
        try:
            sub = top.send(value)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                result: T = stop.value
                return result
            value = stop.value
            continue
        except BaseException:
            stack.pop()
            for pending in reversed(stack):
                pending.close()
            raise
        stack.append(sub)
        value = None


def on_fresh_stack(fn: Callable[..., T], *args: Any) -> T:
    """fn(*args) on a thread of its own: its value, or what it raised there raised here.

    For the few walks that still recurse (type functions, the interpreter's closures), ~2
    frames a level: a fresh thread's stack holds cel-go's 250 levels however deep the caller's
    already is. fn must not take a lock its caller holds; it is bounded in time by its own
    deadline or by its input's size, so the join is too."""
    out: list[tuple[bool, Any]] = []

    def work() -> None:
        try:
            out.append((True, fn(*args)))
        except BaseException as exc:  # raised again in the caller's thread
            out.append((False, exc))

    worker = threading.Thread(target=work, name="cel-deep", daemon=True)
    worker.start()
    worker.join()
    ok, value = out[0]
    if not ok:
        raise value
    result: T = value
    return result
