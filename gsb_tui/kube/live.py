"""The live cluster as a ChangeSource: one reflector per kind on one API client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping

from gsb_tui.kube import dra_scope
from gsb_tui.kube.answers import paced
from gsb_tui.kube.backoff import REAL, Clock
from gsb_tui.kube.config import KubeconfigError, Resolved, Target, resolve
from gsb_tui.kube.http_get import Progress
from gsb_tui.kube.reflector import (
    CONNECT_TIMEOUT,
    MAX_PAGE_BYTES,
    PAGE_DEADLINE_S,
    PAGE_READ_TIMEOUT,
    POLL_NODES_ABOVE,
    Reflector,
)
from gsb_tui.kube.source import Emit, SourceInfo
from gsb_tui.kube.store import Change
from gsb_tui.kube.transport import NativeTransport, Transport, make_transport
from gsb_tui.kube.version import read_version
from gsb_tui.snapshot import KINDS, Kind, KindState
from gsb_tui.words import t

# Kinds read across namespaces when RBAC allows (a device held in another namespace is not free;
# a Pending pod in another namespace waits for devices too): pods and events filtered to those
# about DRA (kube/dra_scope.py), the lab's namespace whole.
WIDE_KINDS = frozenset({Kind.CLAIMS, Kind.TEMPLATES, Kind.PODS, Kind.EVENTS})
CONFIG_RETRY_S = 5.0
# hold_first_watches: the watches wait at most this long for the first frame (drawn()).
WATCH_HOLD_S = 3.0
VERSION_EVERY_S = 300.0  # the server's version read again (an upgrade while watching)
VERSION_RETRY_S = 10.0  # … or this soon while it could not be read
# Nothing heard from the API server this long (no answer, event or bookmark on any kind): ask
# its /version, which every API server answers to anyone. No answer within PROBE_TIMEOUT_S
# and every synced kind is shown "not answering" (a stopped server keeps its sockets open:
# the watches look alive until their stall limit, reflector.STALL_S).
PROBE_QUIET_S = 10.0
PROBE_TIMEOUT_S = 5.0


class LiveSource:
    def __init__(
        self,
        target: Target,
        kinds: Iterable[Kind] = tuple(Kind),
        watching: bool = True,
        hold_first_watches: bool = False,
        clock: Clock = REAL,
        field_selectors: Mapping[Kind, str] | None = None,
    ) -> None:
        self.target = target
        # Kinds read in the target's namespace only, as the server selects them (`why`
        # reads one pod and the events about it: not the cluster's 5,000 pods).
        self.field_selectors = dict(field_selectors or {})
        self.clock = clock  # every wait of the reflectors and the probe (tests compress it)
        self.watching = watching  # False: each kind is listed once (the one-shot commands)
        # True (the dashboard): each kind's first watch waits until drawn() says the first
        # frame with every list is on screen, at most WATCH_HOLD_S. Starting eight watches
        # (and importing aiohttp for them, ~0.1 s) is work the first frame need not wait
        # for; the watches go on from the lists' resourceVersions, so nothing is missed.
        self.hold_first_watches = hold_first_watches
        self._drawn = asyncio.Event()  # bound to a loop only when a watch first waits on it
        self.kinds = tuple(kinds)
        self.resolved: Resolved | None = None
        self.config_error = ""
        self.reflectors: dict[Kind, Reflector] = {}
        self._early_api: NativeTransport | None = None  # begin_lists: run() goes on with it
        try:
            self.resolved = resolve(target)
            self.info = SourceInfo(
                context=self.resolved.context,
                server=self.resolved.server,
                namespace=target.namespace,
                user=self.resolved.user,
            )
        except KubeconfigError as exc:
            self.config_error = exc.text
            self.info = SourceInfo(context="-", server="-", namespace=target.namespace)

    def _reflectors(self, api: Transport, emit: Emit) -> dict[Kind, Reflector]:
        return {
            kind: Reflector(
                api,
                KINDS[kind],
                emit,
                namespace=self.target.namespace,
                all_namespaces_first=kind in WIDE_KINDS and kind not in self.field_selectors,
                poll_above=POLL_NODES_ABOVE if kind is Kind.NODES else None,
                watching=self.watching,
                before_first_watch=self._until_drawn if self.hold_first_watches else None,
                scope=self._scope(kind),
                clock=self.clock,
                field_selector=self.field_selectors.get(kind, ""),
            )
            for kind in self.kinds
        }

    def _scope(self, kind: Kind) -> dra_scope.Scope | None:
        if kind is Kind.PODS:
            return dra_scope.pod_filter(self.target.namespace)
        if kind is Kind.EVENTS:
            return dra_scope.event_filter(self.target.namespace)
        return None

    def drawn(self) -> None:
        """The first frame showing every kind's list is on screen (the App says so)."""
        self._drawn.set()

    async def _until_drawn(self) -> None:
        if not self.hold_first_watches:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drawn.wait(), WATCH_HOLD_S)

    def begin_lists(self) -> None:
        """Ask for each kind's first list page now, before the event loop and the UI exist
        (transport.NativeTransport.begin); run() takes the answers. Nothing happens when the
        kubeconfig needs an exec plugin or an auth provider, or cannot be used: run() meets
        that and says it as before."""
        if self.resolved is None or not NativeTransport.supports(self.resolved):
            return
        try:
            api = NativeTransport(self.resolved)
        except KubeconfigError:
            return
        reflectors = self._reflectors(api, lambda _change: None)
        pages = [reflector.first_page() for reflector in reflectors.values()]
        if api.begin(pages, CONNECT_TIMEOUT, PAGE_READ_TIMEOUT, MAX_PAGE_BYTES, PAGE_DEADLINE_S):
            self._early_api = api  # no exec plugin: run() needs no start() for it

    async def _server_version(self, api: Transport, emit: Emit) -> None:
        """Which Kubernetes the server runs (the allocator decides as that release does):
        read once, tried again while it cannot be read, and again now and then (an upgrade)."""
        while True:
            version = await read_version(api)
            if version or not self.watching:  # a one-shot read waits for this answer, even ""
                emit(Change(Kind.NODES, "SERVER", label=version))
            if not self.watching:
                return  # a one-shot read: one try, bounded by read_version's timeout
            await asyncio.sleep(VERSION_EVERY_S if version else VERSION_RETRY_S)

    async def _answers(self, api: Transport) -> bool:
        """The API server answers /version within PROBE_TIMEOUT_S (any status is an answer)."""
        asked = api.fetch("/version", {}, PROBE_TIMEOUT_S, PROBE_TIMEOUT_S, 1 << 16)
        try:
            await paced(asked, Progress(deadline=PROBE_TIMEOUT_S), self.clock, 60.0, _quiet)
        except (OSError, TimeoutError):
            return False
        except Exception:  # it answered, in a way HTTP cannot carry: the reflectors say how
            return True
        return True

    async def _liveness(self, api: Transport) -> None:
        """Probe the server when no kind heard from it for PROBE_QUIET_S; tell the reflectors
        when it stops answering, and when it answers again."""
        silent_since: float | None = None
        due = PROBE_QUIET_S
        while True:
            await self.clock.sleep(max(1.0, due))
            heard = max((r.heard_at for r in self.reflectors.values()), default=self.clock.now())
            due = heard + PROBE_QUIET_S - self.clock.now()  # when the quiet will be long enough
            if silent_since is None and due > 0:
                continue
            due = PROBE_QUIET_S
            if await self._answers(api):
                if silent_since is not None:
                    silent_since = None
                    for reflector in self.reflectors.values():
                        reflector.server_silent(None)
            elif silent_since is None:
                silent_since = heard
                for reflector in self.reflectors.values():
                    reflector.server_silent(heard)

    def _all(self, emit: Emit, phase: str, message: str) -> None:
        for kind in self.kinds:
            emit(Change(kind, "STATE", state=KindState(phase=phase, message=message)))  # type: ignore[arg-type]

    async def run(self, emit: Emit) -> None:
        api: Transport | None = self._early_api
        self._early_api = None
        # A missing or broken kubeconfig may be fixed while we wait: keep trying.
        while api is None:
            try:
                if self.resolved is None:
                    self.resolved = resolve(self.target)
                    self.info = SourceInfo(
                        context=self.resolved.context,
                        server=self.resolved.server,
                        namespace=self.target.namespace,
                        user=self.resolved.user,
                    )
                command = (self.resolved.user_info.get("exec") or {}).get("command")
                if command:  # the plugin may take a while: say what is awaited
                    self._all(emit, "connecting", t("kube.exec.waiting", command=command))
                api = await make_transport(self.resolved)
            except KubeconfigError as exc:
                self.config_error = exc.text
                self.resolved = None
                self._all(emit, "error", self.config_error)
                await asyncio.sleep(CONFIG_RETRY_S)
        self.config_error = ""
        try:
            self.reflectors = self._reflectors(api, emit)
            async with asyncio.TaskGroup() as group:
                group.create_task(self._server_version(api, emit))
                if self.watching:
                    group.create_task(self._liveness(api))
                for reflector in self.reflectors.values():
                    group.create_task(reflector.run())
        finally:
            with contextlib.suppress(Exception):
                await api.close()


def _quiet(_progress: Progress, _seconds: float) -> None:
    pass  # a probe says nothing while it waits
