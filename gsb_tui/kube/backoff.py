"""How long a reflector waits after a failure, on a clock it is given (tests compress it).

The figures follow client-go's reflector (tools/cache/reflector.go, v0.36.5): a backoff that
starts at 800 ms and doubles, with jitter, over consecutive failures of the list or the watch,
and is reset only once a watch has stayed healthy for a while, not by a list that succeeded
(a server whose watches fail right after a good list would otherwise be listed again and
again). Two figures differ: client-go caps the wait at 30 s (jittered up to 60 s) and resets
after 2 min without a backoff; a dashboard on a learner's cluster caps it at 8 s (up to 12 s)
so that a restarted API server is seen within seconds, and resets after a watch was heard
from 30 s after it opened. A server's Retry-After is honoured for 429 and 5xx (client-go's
rest client does so), at most RETRY_AFTER_MAX_S.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import time

BACKOFF_INIT_S = 0.8  # client-go: 800 ms
BACKOFF_FACTOR = 2.0  # client-go: 2
BACKOFF_MAX_S = 8.0  # client-go: 30 s
BACKOFF_JITTER = 0.5  # each wait is d to 1.5 d (client-go: jitter 1.0, d to 2 d)
HEALTHY_S = 30.0  # a watch heard from this long after it opened resets the backoff
RETRY_AFTER_MAX_S = 60.0  # a Retry-After of 120 s waits 60 s


class Clock:
    """Monotonic seconds and a sleep on them: the real ones."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class Compressed(Clock):
    """A clock running `factor` times faster than the real one: its sleeps are that much
    shorter, its seconds that much longer (a test sees 30 s of a reflector's waits in 0.3 s
    at 100)."""

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.zero = time.monotonic()

    def now(self) -> float:
        return self.zero + (time.monotonic() - self.zero) * self.factor

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.factor)


REAL = Clock()


class Backoff:
    """Consecutive failures and the wait after the last one."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.failures = 0

    def failed(self) -> float:
        """One more failure; the wait before the next try."""
        self.failures += 1
        return self.delay()

    def delay(self) -> float:
        steps = max(0, self.failures - 1)
        base = BACKOFF_MAX_S if steps > 16 else min(BACKOFF_MAX_S, BACKOFF_INIT_S * 2**steps)
        return base * (1.0 + BACKOFF_JITTER * self.rng.random())

    def reset(self) -> None:
        self.failures = 0


def retry_after(value: str, now: float | None = None) -> float | None:
    """The seconds a Retry-After header asks for (delta-seconds or an HTTP date), or None when
    it says nothing usable. Not capped here."""
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(min(int(value[:9]), 10**9))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds) if math.isfinite(seconds) else None
