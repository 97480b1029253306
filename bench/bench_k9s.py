"""The TUI peer: k9s v0.50.16 and gsb-tui, each in tmux at the latency bench's size, shown the
same claim create/delete events, beside `kubectl get -w` in the same run (issue 27, goal 2).

Both screens are read the same way: `tmux capture-pane` every POLL_S until the claim's name is
on the screen (created) or gone from it (deleted); kubectl's lines are stamped by a process of
their own (bench/outside.py). k9s runs read-only on `resourceclaims` in the lab namespace at
its refresh rate of 2 s — its default, and the lowest it allows (internal/config/k9s.go caps
anything lower to 2 s): it redraws its table from its informer's cache on that tick, so its
figures are about half a refresh on average. k9s is built once into the bench's cache with
`go install` (never in CI); without Go or the module proxy the section says so and goes on.

    .venv/bin/python bench/bench_k9s.py [--events 40]     (a practice cluster of its own)
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import time
from functools import partial
from pathlib import Path

from harness import (
    CLAIMS_PATH,
    Figures,
    TmuxApp,
    all_synced,
    claim_body,
    delete_quietly,
    gsb_tui_args,
    log,
    percentile,
)
from headless import SIZE
from outside import StampedWatch

from gsb_tui.cluster.control_plane import ControlPlane

K9S_VERSION = "v0.50.16"
K9S_REFRESH_S = 2.0  # k9s's default and its floor
K9S_DIR = Path.home() / ".cache" / "gsb-tui" / "bench" / f"k9s-{K9S_VERSION}"
POLL_S = 0.01  # as TmuxApp.wait_for reads the screen
WAIT_S = 6.0  # three k9s refreshes: a change not shown by then is missing
# Between writes, random over a whole refresh: a write right after the screen changed would
# otherwise fall at the same phase of k9s's tick every time (seen: p50 1.47 s, p95 1.65 s
# with gaps of 0.3-0.7 s), not anywhere in it, as a user's change does.
GAP_S = (0.3, 0.3 + K9S_REFRESH_S)


def k9s_binary() -> Path | None:
    """k9s built from the module proxy into the bench's cache (about 6 minutes, once)."""
    binary = K9S_DIR / "k9s"
    if binary.exists():
        return binary
    if shutil.which("go") is None:
        return None
    log(f"building k9s {K9S_VERSION} with go install (once, into {K9S_DIR})")
    K9S_DIR.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GOBIN": str(K9S_DIR)}
    try:
        subprocess.run(
            ["go", "install", f"github.com/derailed/k9s@{K9S_VERSION}"],
            env=env,
            capture_output=True,
            timeout=3600,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log(f"k9s could not be built: {exc}")
        return None
    return binary if binary.exists() else None


def k9s_args(cp: ControlPlane, binary: Path, home: Path) -> list[str]:
    # Its config, logs and screen dumps in a directory of the bench's own.
    xdg = [f"XDG_{d}_HOME={home / d.lower()}" for d in ("CONFIG", "DATA", "STATE", "CACHE")]
    return [
        "env",
        *xdg,
        str(binary),
        f"--kubeconfig={cp.kubeconfig}",
        "-n",
        "dra-lab",
        "-c",
        "resourceclaims",
        "--readonly",
        "--headless",
        "--logoless",
        "--crumbsless",
        "--splashless",
        f"--refresh={K9S_REFRESH_S}",
    ]


def _shows(screen: str, name: str, want: bool) -> bool:
    """The claim's name is on the screen (want) or gone from it (not want)."""
    return any(name in line.split() for line in screen.splitlines()) == want


def measure(
    cp: ControlPlane, args: list[str], label: str, ready: str | None, events: int
) -> tuple[list[float], list[float], int]:
    """(screen ms, kubectl ms, missing) for `events` creates and deletes of claims."""
    rest = cp.rest()
    screen_ms: list[float] = []
    kube_ms: list[float] = []
    missing = 0
    with TmuxApp(args, *SIZE) as app, StampedWatch(cp) as watch:
        started = app.wait_for(all_synced if ready is None else lambda s: ready in s, 60)
        if started is None:
            raise RuntimeError(f"{label} never showed its first screen:\n{app.screen()}")
        time.sleep(3)  # its watches settled
        for i in range(events // 2):
            name = f"{label}-{i:03d}"
            for event in ("ADDED", "DELETED"):
                written = time.monotonic()
                if event == "ADDED":
                    rest.create(CLAIMS_PATH, claim_body(name))
                else:
                    delete_quietly(rest, f"{CLAIMS_PATH}/{name}")
                want = event == "ADDED"
                took = app.wait_for(partial(_shows, name=name, want=want), WAIT_S)
                if took is None:
                    missing += 1
                else:  # wait_for counts from the process's start
                    screen_ms.append(1000 * (app.started + took - written))
                seen = watch.when(event, name)
                if seen is not None:
                    kube_ms.append(1000 * (seen - written))
                time.sleep(random.uniform(*GAP_S))
    return screen_ms, kube_ms, missing


def run(cp: ControlPlane, figures: Figures, events: int) -> None:
    binary = k9s_binary()
    if binary is None:
        figures.note("k9s", f"k9s {K9S_VERSION} is not built here (no Go or no module proxy)")
        return
    version = subprocess.run(
        [str(binary), "version", "-s"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.split()
    with tempfile.TemporaryDirectory(prefix="gsb-bench-k9s-") as home:
        log(f"k9s beside gsb-tui in tmux: {events} claim events each, {SIZE[0]}x{SIZE[1]}")
        runs = {
            "k9s": measure(cp, k9s_args(cp, binary, Path(home)), "k9s", "NAME", events),
            "tmux": measure(cp, gsb_tui_args(cp), "tmux", None, events),
        }
    for prefix, (screen, kube, missing) in runs.items():
        figures.add(f"{prefix}_event_to_screen_p50_ms", percentile(screen, 50), "ms")
        figures.add(f"{prefix}_event_to_screen_p95_ms", percentile(screen, 95), "ms")
        figures.add(f"{prefix}_kubectl_watch_p95_ms", percentile(kube, 95), "ms", "same events")
        figures.add(f"{prefix}_event_to_screen_missing", float(missing), "events")
    figures.note(
        "k9s",
        f"k9s {' '.join(version[:2]) or K9S_VERSION}, refresh {K9S_REFRESH_S:.0f} s (its default "
        "and floor), read-only on resourceclaims; gsb-tui (tmux_*) read from its tmux pane the "
        f"same way, capture-pane every {POLL_S * 1000:.0f} ms",
    )


if __name__ == "__main__":
    import argparse

    from harness import practice_cluster

    from gsb_tui.cluster.control_plane import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=40)
    with practice_cluster(Settings(audit=False)) as plane:
        run(plane, Figures(), parser.parse_args().events)
