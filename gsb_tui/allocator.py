"""glibc's malloc told to keep its mmap threshold where it starts (128 KiB).

glibc raises that threshold each time a block it mapped on its own is freed (up to 32 MiB), so
once the first large list bodies are gone the next ones, and the buffers made while decoding,
come from the heap, and freeing them leaves it in holes it cannot give back. Against a held
10,000-device cluster, five seconds after its first frame gsb-tui held 290 MB with the
threshold moving and 259 MB with it fixed; the frame came as soon (2.15 / 2.16 s;
`bench/first_frame.py --rss-after 5`, 8 runs each; docs/PERFORMANCE.md, "Sixth round").
Setting it with mallopt turns the moving off, as MALLOC_MMAP_THRESHOLD_ in the environment does;
a user's own setting there is left alone.
"""

from __future__ import annotations

import os
import sys

M_MMAP_THRESHOLD = -3  # <malloc.h>
THRESHOLD = 128 * 1024  # glibc's starting value
USERS_OWN = "MALLOC_MMAP_THRESHOLD_"


def fix_mmap_threshold() -> bool:
    """True when glibc took the setting; False (nothing changed) with another C library, on
    another system, or when the environment sets the threshold already."""
    if not sys.platform.startswith("linux") or USERS_OWN in os.environ:
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, ImportError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
