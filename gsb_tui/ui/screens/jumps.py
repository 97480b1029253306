"""The dashboard's keys for going somewhere: `:` the jump box, `n` the namespace switch, and one
key each from a claim to its devices (g), from the grid's device to the claim using it (u) and
from a claim to its pods (o). Mixed into DashboardScreen, whose BINDINGS take JUMP_BINDINGS in
(so the footer, `?`, the palette and the keymap see them as the dashboard's)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual.binding import Binding

from gsb_tui.dra.model import DeviceId, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.ui.jump_targets import Target, TargetIndex, build_index
from gsb_tui.ui.messages import LedgerListWanted, TextWanted
from gsb_tui.ui.render.describe import describe_pod
from gsb_tui.ui.screens.jump import JumpScreen
from gsb_tui.ui.screens.ledger_list import LedgerListScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text

if TYPE_CHECKING:  # dashboard.py imports this module
    from gsb_tui.ui.screens.dashboard import DashboardScreen

JUMP_BINDINGS = [
    Binding(
        "colon",
        "jump",
        "Jump",
        key_display=":",
        show=False,
        tooltip="Go to a node, pool, device, claim, pod, namespace or pane by name",
        id="gsb.jump",
    ),
    Binding(
        "n",
        "namespace",
        "Namespace",
        show=False,
        tooltip="Show the claims of one namespace, or of all",
        id="gsb.namespace",
    ),
    Binding(
        "g",
        "go_device",
        "Go to device",
        show=False,
        tooltip="The selected claim's devices in the grid (again: the next one)",
        id="gsb.go.device",
    ),
    Binding(
        "u",  # "used by" (c copies in the checklist)
        "go_claim",
        "Go to claim",
        show=False,
        tooltip="The claim holding the device under the grid's cursor",
        id="gsb.go.claim",
    ),
    Binding(
        "o",
        "go_pods",
        "Pods",
        show=False,
        tooltip="The pods using the selected claim (describe one)",
        id="gsb.go.pods",
    ),
]


class Jumps:
    """Going to what the jump box, `g`, `u` and `o` name (DashboardScreen's half of it)."""

    namespace_scope: str | None = None  # the namespace whose claims are shown (None: all)
    start_scope: str | None = None  # `-n` given: the namespace it opens on
    _targets: tuple[DraView, TargetIndex] | None = None  # built once per view

    def _dash(self) -> DashboardScreen:
        return cast("DashboardScreen", self)

    def _say(self, key: str, **values: object) -> None:
        dash = self._dash()
        dash.app.notify(text(dash.lang, key, **values), severity="warning")

    def jump_index(self) -> TargetIndex | None:
        """The targets of the view on screen, built on the first `:` after it came."""
        view = self._dash().view
        if view is None:
            return None
        if self._targets is None or self._targets[0] is not view:
            previous = self._targets[1] if self._targets is not None else None
            self._targets = (view, build_index(view, self._dash().lang, previous))
        return self._targets[1]

    # --- keys ------------------------------------------------------------------------------

    def action_jump(self, query: str = "", title: str = "") -> None:
        dash = self._dash()
        index = self.jump_index()
        if index is None or dash.view is None:
            dash._nothing()
            return
        screen = JumpScreen(dash.view, index, dash.lang, query=query, title=title)
        dash.app.push_screen(screen, self.go_to)

    def action_namespace(self) -> None:
        """The jump box on the namespaces (k9s's `:ns`)."""
        self.action_jump("ns ", text(self._dash().lang, "key.gsb.namespace"))

    def action_go_device(self) -> None:
        """The selected claim's first device; pressed again in the grid, its next one."""
        dash = self._dash()
        claim = dash._claim(dash.selected_claim)
        if claim is None:
            dash._nothing()
            return
        devices = claim.devices
        if not devices:
            self._say("go.pending", claim=claim.name)
            return
        cursor = dash.grid.cursor
        at = devices.index(cursor) + 1 if cursor in devices and dash.current_pane() == "grid" else 0
        self.go_device(devices[at % len(devices)])

    def action_go_claim(self) -> None:
        """The claim holding the grid's device (pressed again, the next claim sharing it)."""
        dash = self._dash()
        view, cursor = dash.view, dash.grid.cursor
        occ = view.occupancy.get(cursor) if view is not None and cursor is not None else None
        if occ is None:
            self._say("go.no-device")
            return
        keys = [c.key for c in occ.holders]
        if not keys:
            self._say("go.free", device=occ.device.name)
            return
        at = 0
        if dash.selected_claim in keys:
            at = keys.index(dash.selected_claim) + (dash.current_pane() == "claims")
        self.go_claim(keys[at % len(keys)])

    def action_go_pods(self) -> None:
        """The pods using the selected claim: one is described at once, several are listed."""
        dash = self._dash()
        claim = dash._claim(dash.selected_claim)
        view = dash.view
        if claim is None or view is None:
            dash._nothing()
            return
        pods = view.pods_of_claim(claim)
        if not pods:
            self._say("go.no-pods", claim=claim.name)
            return
        if len(pods) == 1:
            self.describe_pod(pods[0])
            return
        index = TargetIndex([Target("pod", f"{p.namespace}/{p.name}", p.key) for p in pods])
        title = text(dash.lang, "jump.pods-title", claim=claim.name)
        dash.app.push_screen(JumpScreen(view, index, dash.lang, title=title), self._pod_picked)

    # --- going -----------------------------------------------------------------------------

    def go_to(self, target: Target | None) -> None:
        """Where a jump box's target leads (None: closed with Esc)."""
        dash = self._dash()
        view = dash.view
        if target is None or view is None:
            return
        kind, ref = target.kind, target.ref
        if kind == "pane":
            dash.focus_pane(str(ref))
        elif kind == "namespace":
            self.set_namespace(ref if isinstance(ref, str) else None)
        elif kind in ("node", "pool"):
            first = next(
                (
                    d.id
                    for d in view.devices
                    if (d.node if kind == "node" else (d.id.driver, d.id.pool)) == ref
                ),
                None,
            )
            if first is None:
                self._say("jump.no-devices", name=target.name)
            else:
                self.go_device(first)
        elif kind == "device" and isinstance(ref, DeviceId):
            self.go_device(ref)
        elif kind == "claim" and isinstance(ref, tuple):
            self.go_claim(ref)
        elif kind == "pod" and isinstance(ref, tuple):
            pod = view.pods.get(ref)
            claims = view.claims_of_pod(pod) if pod is not None else ()
            if pod is None:
                self._say("jump.gone", name=target.name)
            elif claims:
                self.go_claim(claims[0].key)
            else:  # no claim (yet): what the pod itself says
                self.describe_pod(pod)

    def go_device(self, device: DeviceId) -> None:
        """The grid's cursor on the device, scrolled into view (its tab shown when narrow)."""
        dash = self._dash()
        if device not in dash.grid.cells:
            self._say("jump.gone", name=device.device)
            return
        dash.focus_pane("grid")
        dash.grid.select_device(device)

    def go_claim(self, key: tuple[str, str]) -> None:
        """The claim selected in the table (a filter hiding it cleared, another namespace's
        claim shown with every namespace), its details shown and its devices marked."""
        dash = self._dash()
        view = dash.view
        claim = view.claims.get(key) if view is not None else None
        if view is None or claim is None:
            self._say("jump.gone", name="/".join(key))
            return
        if not dash.claims.reveal(key):
            self.set_namespace(None)
            self._say("jump.all-shown", name=claim.name)
        dash.selected_claim = dash.claims.select(key)
        dash.grid.mark_claim(claim)
        dash.details.show(view, dash.selected_claim, dash.warnings)
        dash.focus_pane("claims")

    def set_namespace(self, namespace: str | None) -> None:
        """Show one namespace's claims (None: all); the header says which."""
        dash = self._dash()
        self.namespace_scope = namespace
        dash.claims.set_scope(namespace)
        header = dash.header
        header.info = replace(dash.info, namespace=namespace) if namespace else dash.info
        header.refresh()
        view = dash.view
        if view is not None:  # the selection stays a row the table shows
            dash.selected_claim = dash.claims.select(dash.selected_claim)
            dash.grid.mark_claim(dash._claim(dash.selected_claim), move_cursor=False)
            dash.details.show(view, dash.selected_claim, dash.warnings)
        words = text(dash.lang, "ns.only", ns=namespace) if namespace else text(dash.lang, "ns.all")
        dash.app.notify(words, timeout=3)

    def describe_pod(self, pod: Pod) -> None:
        dash = self._dash()
        if dash.view is None:
            return
        body = describe_pod(dash.view, pod, dash.lang)
        dash.app.push_screen(
            TextViewScreen(
                f"describe Pod {pod.namespace}/{pod.name}",
                body,
                copy_name=f"{pod.namespace}_{pod.name}.describe.txt",
            )
        )

    def _pod_picked(self, target: Target | None) -> None:
        view = self._dash().view
        if view is None or target is None or not isinstance(target.ref, tuple):
            return
        pod = view.pods.get(target.ref)
        if pod is not None:
            self.describe_pod(pod)

    # --- screens panes ask for ----------------------------------------------------------------

    # Named handlers, not @on: Textual collects @on only from classes of its own metaclass.
    def on_text_wanted(self, message: TextWanted) -> None:
        message.stop()
        screen = TextViewScreen(
            message.title, message.body, syntax=message.syntax, copy_name=message.copy_name
        )
        self._dash().app.push_screen(screen)

    def on_ledger_list_wanted(self, message: LedgerListWanted) -> None:
        message.stop()
        dash = self._dash()
        screen = LedgerListScreen(message.view, message.category, dash.lang)
        dash.app.push_screen(screen, message.chosen)
