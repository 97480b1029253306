"""Wrong types at the model boundary, at scale: the generated cases of
tests/unit/test_model_boundary_fuzz.py, N of them, and every path shape of every kind with
every hostile value; prints cases and tracebacks (grouped by where they were raised).

Run: .venv/bin/python bench/model_fuzz.py [N] [--seed S] [--panes]
  N        random cases (default 20,000; CI runs 600)
  --panes  also draw each random case as the dashboard's panes would (about 12x slower)
Exit 0 when no case raised, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.unit.test_model_boundary_fuzz import (
    HOSTILE,
    SEED,
    Case,
    Figures,
    lab_dir,
    paths,
    random_cases,
    render_panes,
    replaced,
    run,
    shape,
    snapshots,
    with_object,
)


def every_shape_and_value() -> Iterator[Case]:
    """Each path shape of each kind (its first occurrence) with each hostile value."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for base in snapshots():
        for kind in sorted(base.objects):
            for key in sorted(base.objects[kind]):
                obj = base.objects[kind][key]
                for path in paths(obj):
                    if not path or (kind.value, shape(path)) in seen:
                        continue
                    seen.add((kind.value, shape(path)))
                    for value in HOSTILE:
                        if path == ("metadata",) and not isinstance(value, dict):
                            continue  # refused before the Store (see hostile())
                        changed = replaced(obj, path, value)
                        yield Case(with_object(base, kind, key, changed), kind, changed, (path,))


def where(failure: str) -> str:
    """The last frame and the exception of a formatted traceback."""
    lines = [line.strip() for line in failure.splitlines() if line.strip()]
    frames = [line for line in lines if line.startswith("File ")]
    return f"{lines[-1][:120]} at {frames[-1] if frames else '?'}"


def report(name: str, figures: Figures, seconds: float) -> None:
    print(f"{name}: {figures.cases} cases, {len(figures.failed)} tracebacks ({seconds:.1f} s)")
    print("  by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(figures.kinds.items())))
    for signature, n in Counter(where(f) for f in figures.failed).most_common():
        print(f"  {n} x {signature}")
    if figures.failed:
        print("  first:\n" + figures.failed[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--panes", action="store_true")
    args = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        lab = lab_dir(Path(tmp) / "lab")
        print(f"{len(snapshots())} recorded snapshots, seed {args.seed}")
        started = time.monotonic()
        figures = run(every_shape_and_value(), lab)
        report("every path shape x every hostile value", figures, time.monotonic() - started)
        failed += len(figures.failed)
        started = time.monotonic()
        figures = run(random_cases(args.n, args.seed), lab)
        report("random cases (1-3 fields each)", figures, time.monotonic() - started)
        failed += len(figures.failed)
        if args.panes:
            started = time.monotonic()
            rng = random.Random(args.seed + 1).randrange(1 << 30)
            figures = run(random_cases(args.n, rng), lab, render_panes)
            report("random cases drawn as the panes", figures, time.monotonic() - started)
            failed += len(figures.failed)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
