"""Issue 26: each failure of the wire worded for what happened, on the path that saw it, and
"nothing readable" exit 2 for every command (a 403 said once, as a 403)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import ssl
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import http_exceptions

from gsb_tui.cli import main
from gsb_tui.kube import oneshot
from gsb_tui.kube.backoff import Compressed
from gsb_tui.kube.reflector import Reflector
from gsb_tui.kube.store import Change, Store
from gsb_tui.kube.wire_words import describe
from gsb_tui.snapshot import KINDS, Kind, KindState
from gsb_tui.words import t, text

from .local_server import token_kubeconfig, token_transport, wire_server


def _first_state(tmp_path: Path, mode: str, kind: Kind = Kind.PODS) -> KindState:
    """The first state a one-shot reflector of `kind` reports against `mode`."""

    async def run() -> KindState:
        with wire_server(mode) as wire:
            api = token_transport(tmp_path, wire.url)
            changes: list[Change] = []
            ref = Reflector(
                api,
                KINDS[kind],
                changes.append,
                namespace="lab",
                watching=False,
                clock=Compressed(100),
                rng=random.Random(26),
            )
            task = asyncio.ensure_future(ref.run())
            for _ in range(3000):
                states = [c.state for c in changes if c.state is not None]
                if states:
                    break
                await asyncio.sleep(0.001)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await api.close()
        assert states, "no state in 3 s"
        return states[0]

    return asyncio.run(run())


def test_a_gzip_lie_is_said_as_one(tmp_path: Path) -> None:
    # before: "the API server closed the connection"
    state = _first_state(tmp_path, "gzip-lie")
    assert state.phase == "reconnecting"
    assert state.message.startswith("the API server said its answer was gzip-compressed, but")
    assert "closed the connection" not in state.message


def test_a_bad_chunk_is_said_as_one_and_no_400_is_made_up(tmp_path: Path) -> None:
    # before: "HTTP 400: Invalid character in chunk size" (no 400 was sent)
    state = _first_state(tmp_path, "bad-chunk")
    assert "chunk size that is not a number" in state.message
    assert "400" not in state.message


def test_metadata_of_the_wrong_type_says_where_not_a_python_error(tmp_path: Path) -> None:
    # before: "unexpected error…: AttributeError: …"
    state = _first_state(tmp_path, "wrong-type-metadata")
    assert state.phase == "error"
    assert (
        state.message == "the API server sent pods items[0].metadata as a string, not as a mapping"
    )
    assert "Error" not in state.message
    assert "문자열" in state.message.ko  # type: ignore[attr-defined]


def test_a_403_is_kept_in_the_servers_words_and_worded_once(tmp_path: Path) -> None:
    # before: "forbidden (RBAC): forbidden (RBAC): …"
    state = _first_state(tmp_path, "403-everything")
    assert state.phase == "forbidden"
    assert (
        state.message
        == '/api/v1/namespaces/lab/pods is forbidden: User "u" cannot list this resource'
    )
    pane = text("en", "forbidden", message=state.message)
    assert pane.count("forbidden (RBAC)") == 1
    store = Store((Kind.PODS,))
    store.apply(Change(Kind.PODS, "STATE", state=state))
    said = oneshot.unreadable(store.snapshot(), (Kind.PODS,))
    assert (
        said is not None and said.count("(RBAC, HTTP 403)") == 1 and "RBAC): forbidden" not in said
    )


def test_aiohttp_failures_are_worded_for_what_happened() -> None:
    payload = aiohttp.ClientPayloadError("400, message: Can not decode content-encoding: gzip")
    payload.__cause__ = http_exceptions.ContentEncodingError(
        "Can not decode content-encoding: gzip"
    )
    assert str(describe(payload)).startswith("the API server said its answer was gzip-compressed")
    chunked = aiohttp.ClientPayloadError("Not enough data")
    chunked.__cause__ = http_exceptions.TransferEncodingError("Not enough data")
    assert "chunk size" in str(describe(chunked))
    info: Any = None
    parse = aiohttp.ClientResponseError(
        info, (), status=400, message="Invalid character in chunk size"
    )
    words = describe(parse)
    assert words is not None and "400" not in words and "chunk" in words
    assert str(describe(aiohttp.ServerDisconnectedError())) == str(t("kube.disconnected"))


@pytest.mark.parametrize(
    ("exc", "starts"),
    [
        (ConnectionRefusedError(111, "Connection refused"), "cannot connect to the API server at"),
        (ssl.SSLCertVerificationError(1, "certificate verify failed"), "TLS: the API server's"),
        (ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number"), "TLS problem"),
        (TimeoutError(), "no answer from the API server (timeout)"),
        (ConnectionResetError(104, "Connection reset by peer"), "the API server closed"),
    ],
)
def test_stdlib_failures_are_worded_for_what_happened(exc: BaseException, starts: str) -> None:
    words = describe(exc, "https://10.0.0.9:6443")
    assert words is not None and str(words).startswith(starts), words
    assert "object at 0x" not in words and "Error(" not in words


def test_nothing_readable_is_exit_2_for_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # before: `check` exited 1 with eight "cannot judge"; `record` said "no answer"
    out = tmp_path / "rec.jsonl"
    commands = (["check"], ["match", "true"], ["why", "lab/p"], ["devices"], ["record", str(out)])
    with wire_server("403-everything") as wire:
        config = token_kubeconfig(tmp_path, wire.url)
        codes = []
        for args in commands:
            with contextlib.suppress(SystemExit):
                codes.append(main([*args, "--kubeconfig", str(config), "-n", "lab"]))
            err = capsys.readouterr().err
            assert "forbidden (RBAC, HTTP 403): " in err and err.count("forbidden (RBAC") == 1
            assert "no answer" not in err
    assert codes == [2, 2, 2, 2, 2]
    assert not out.exists()  # record made no file


def test_the_new_words_are_in_both_languages() -> None:
    for key, values in {
        "wire.slow": {"got": "412", "seconds": "60"},
        "wire.retry-after": {"status": 429, "asked": "120", "wait": "60"},
        "wire.forbidden": {"message": "m"},
    }.items():
        words = t(key, **values)
        assert str(words) != words.ko and any("\uac00" <= ch <= "\ud7a3" for ch in words.ko)
