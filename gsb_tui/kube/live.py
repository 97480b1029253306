"""The live cluster as a ChangeSource: one reflector per kind on one API client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable

from gsb_tui.kube import dra_scope
from gsb_tui.kube.config import KubeconfigError, Resolved, Target, resolve
from gsb_tui.kube.reflector import (
    CONNECT_TIMEOUT,
    MAX_PAGE_BYTES,
    PAGE_READ_TIMEOUT,
    POLL_NODES_ABOVE,
    Reflector,
)
from gsb_tui.kube.source import Emit, SourceInfo
from gsb_tui.kube.store import Change
from gsb_tui.kube.transport import NativeTransport, Transport, make_transport
from gsb_tui.kube.version import read_version
from gsb_tui.snapshot import KINDS, Kind, KindState, Obj
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


class LiveSource:
    def __init__(
        self,
        target: Target,
        kinds: Iterable[Kind] = tuple(Kind),
        watching: bool = True,
        hold_first_watches: bool = False,
    ) -> None:
        self.target = target
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
                all_namespaces_first=kind in WIDE_KINDS,
                poll_above=POLL_NODES_ABOVE if kind is Kind.NODES else None,
                watching=self.watching,
                before_first_watch=self._until_drawn if self.hold_first_watches else None,
                keep=self._keep(kind),
            )
            for kind in self.kinds
        }

    def _keep(self, kind: Kind) -> Callable[[Obj], bool] | None:
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
        if api.begin(pages, CONNECT_TIMEOUT, PAGE_READ_TIMEOUT, MAX_PAGE_BYTES):
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
                for reflector in self.reflectors.values():
                    group.create_task(reflector.run())
        finally:
            with contextlib.suppress(Exception):
                await api.close()
