"""`gsb-tui cluster up` and `down` take the state directory's lock (issue 26, part 6): two
`up`s on one directory at once used to both fail and leave an etcd behind, and a second one a
second later stopped the first one's components. Now the second waits, bounded, saying who
holds the directory (pid and command), and nothing is left once `down` has run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gsb_tui.cluster import state_lock
from gsb_tui.cluster.control_plane import ClusterError, ControlPlane
from gsb_tui.cluster.state_lock import LOCK_NAME, holder

BOUND_S = 60  # failure bounds only
GSB = str(Path(sys.executable).parent / "gsb-tui")

HOLD = """
import sys
from pathlib import Path
from gsb_tui.cluster.state_lock import state_lock
with state_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes our stdin
"""


@pytest.fixture
def held(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding tmp_path/state's lock until its stdin is closed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path / "state"), "cluster", "up"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(BOUND_S)


def _free(directory: Path) -> bool:
    """Whether another process could take the lock now (asked from a fresh process)."""
    code = (
        "import sys, fcntl, os\n"
        "fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "except BlockingIOError:\n    sys.exit(1)\n"
    )
    lock = directory / LOCK_NAME
    return subprocess.run([sys.executable, "-c", code, str(lock)], timeout=BOUND_S).returncode == 0


def test_a_second_one_gives_up_naming_the_holder(
    tmp_path: Path, held: subprocess.Popen[str]
) -> None:
    said: list[str] = []
    with (
        pytest.raises(ClusterError) as exc,
        state_lock.state_lock(tmp_path / "state", said.append, wait_s=0),
    ):
        pass
    message = str(exc.value)
    assert message.startswith(f"{tmp_path / 'state'} is still in use by pid {held.pid} (")
    assert "cluster up" in message and message.endswith("try again when it has finished")
    ko = getattr(exc.value.args[0], "ko", "")
    assert ko.startswith(f"{tmp_path / 'state'}") and " 아직 " in ko
    assert "(를)" not in ko and "(가)" not in ko  # the particle chosen by the word before it


def test_a_second_one_waits_and_then_goes_ahead(
    tmp_path: Path, held: subprocess.Popen[str]
) -> None:
    said: list[str] = []
    entered = threading.Event()

    def second() -> None:
        with state_lock.state_lock(tmp_path / "state", said.append, wait_s=BOUND_S):
            entered.set()

    thread = threading.Thread(target=second)
    thread.start()
    while not said:  # it says once that it waits, and for whom
        thread.join(0.05)
        assert thread.is_alive() or said
    assert not entered.is_set()
    assert len(said) == 1 and f"in use by pid {held.pid}" in said[0]
    assert f"waiting up to {BOUND_S} s" in said[0]
    assert held.stdin is not None
    held.stdin.close()  # the holder finishes
    thread.join(BOUND_S)
    assert entered.is_set() and len(said) == 1


def test_a_killed_holder_leaves_no_lock(tmp_path: Path, held: subprocess.Popen[str]) -> None:
    assert not _free(tmp_path / "state")
    held.send_signal(signal.SIGKILL)
    held.wait(BOUND_S)
    assert _free(tmp_path / "state")
    with state_lock.state_lock(tmp_path / "state", wait_s=0):
        pid, _, command = (tmp_path / "state" / LOCK_NAME).read_text().partition(" ")
        assert int(pid) == os.getpid() and command.strip()


def test_held_again_inside_the_same_thread_and_released_with_the_last(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    with state_lock.state_lock(directory):
        with state_lock.state_lock(directory, wait_s=0):  # `up` calling `down` to clean up
            assert not _free(directory)
        assert not _free(directory)
    assert _free(directory)


def test_components_started_under_the_lock_do_not_keep_it(tmp_path: Path) -> None:
    from gsb_tui.cluster.process import spawn, terminate

    directory = tmp_path / "state"
    with state_lock.state_lock(directory):
        child = spawn(["sleep", "600"], directory / "sleep.log", cwd=directory)
    try:
        assert child.poll() is None and _free(directory)
    finally:
        terminate(child.pid)
        child.wait(BOUND_S)


def test_down_where_nothing_ever_was_makes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "never"
    assert ControlPlane(missing).down(log=lambda _m: None) == 0
    assert not missing.exists()


def test_a_symlink_in_place_of_the_lock_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    directory.mkdir()
    (directory / LOCK_NAME).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ClusterError, match="cannot lock the state directory"):
        ControlPlane(directory).down(log=lambda _m: None)
    assert not (tmp_path / "elsewhere").exists()


def test_up_and_down_wait_for_the_lock(
    tmp_path: Path, held: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state_lock, "WAIT_S", 0.0)
    said: list[str] = []
    cp = ControlPlane(tmp_path / "state")
    with pytest.raises(ClusterError, match=f"in use by pid {held.pid}"):
        cp.down(log=said.append)
    with pytest.raises(ClusterError, match=f"in use by pid {held.pid}"):
        cp.up(log=said.append)
    assert not (tmp_path / "state" / "run").exists()  # nothing was started or stopped


def test_the_holder_as_read_from_a_lock_file(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    lock.write_text("4242 gsb-tui cluster --dir /x up\n")
    assert holder(lock) == "pid 4242 (gsb-tui cluster --dir /x up)"
    lock.write_text("")
    assert holder(lock) == "a process that did not say who it is"


# ---------------------------------------------------------------- against the real binaries


def _binaries_built() -> bool:
    from gsb_tui.cluster.build import RELEASES, cache_root, find_go, k8s_key, module_dir

    try:
        key = k8s_key(find_go(), module_dir(), RELEASES["1.36"].k8s)
    except Exception:
        return False
    names = ("kube-apiserver", "kube-scheduler", "kube-controller-manager", "etcd")
    return all((cache_root() / key / "bin" / n).is_file() for n in names)


def _processes_naming(directory: Path) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            words = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(directory) in words:
            found.append(f"{entry.name}: {words}")
    return found


@pytest.mark.skipif(not _binaries_built(), reason="the practice control plane is not built")
@pytest.mark.parametrize("second", ["at-once", "while-the-first-starts-etcd"])
def test_two_ups_share_one_cluster_and_down_leaves_nothing(tmp_path: Path, second: str) -> None:
    directory = tmp_path / "cluster"
    env = {**os.environ, "LANG": "C.UTF-8"}
    command = [GSB, "--lang", "en", "cluster", "--dir", str(directory)]

    def up() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [*command, "up"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )

    try:
        first = up()
        early = ""
        if second != "at-once":  # the measured case: a second `up` a moment later
            assert first.stderr is not None
            while "starting etcd" not in early:
                line = first.stderr.readline()
                assert line, "the first up ended before starting etcd"
                early += line
        ups = [first, up()]
        results = [proc.communicate(timeout=300) for proc in ups]
        codes = [proc.returncode for proc in ups]
        assert codes == [0, 0], (early, results)
        stderr = [early + results[0][1], results[1][1]]
        assert sum("already running" in err for err in stderr) == 1, stderr
        assert "waiting up to" in stderr[1] or second == "at-once", stderr
        assert not any("stopping a partial cluster" in err for err in stderr), stderr
        status = json.loads(
            subprocess.run(
                [*command, "status", "--json"], capture_output=True, text=True, timeout=BOUND_S
            ).stdout
        )
        assert status["api_ready"] and all(status["components"].values()), status
    finally:
        down = subprocess.run([*command, "down"], capture_output=True, text=True, timeout=120)
    assert down.returncode == 0, down.stderr
    assert _processes_naming(directory) == []
