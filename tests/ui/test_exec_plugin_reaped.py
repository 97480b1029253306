"""`q` while an exec credential plugin hangs: the dashboard quits and the plugin's whole
process group goes with it (the issue found it left running, reparented to PID 1)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from gsb_tui.kube.config import Target
from gsb_tui.kube.exec_plugin import running
from gsb_tui.kube.live import LiveSource
from tests.ui.helpers import make_app, wait_until

HANG = """#!/bin/sh
echo $$ > "{dir}/plugin.pid"
sleep 1000 &
echo $! > "{dir}/child.pid"
wait
"""


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie is dead, only not yet reaped by its new parent
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] == "Z"
    except (OSError, IndexError):
        return False


async def test_q_quits_and_reaps_a_hanging_plugin(tmp_path: Path) -> None:
    plugin = tmp_path / "hang.sh"
    plugin.write_text(HANG.format(dir=tmp_path))
    plugin.chmod(0o755)
    config = {
        "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:1"}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [
            {
                "name": "u",
                "user": {
                    "exec": {
                        "command": str(plugin),
                        "apiVersion": "client.authentication.k8s.io/v1",
                    }
                },
            }
        ],
        "current-context": "x",
    }
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps(config))
    app = make_app(LiveSource(Target(kubeconfig=path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: (tmp_path / "child.pid").exists())
        await pilot.pause(0.2)
        assert running()  # the plugin is being waited for
        await pilot.press("q")
    pids = [int((tmp_path / name).read_text()) for name in ("plugin.pid", "child.pid")]
    deadline = time.monotonic() + 5
    while not all(gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(p) for p in pids)
    assert running() == frozenset()
