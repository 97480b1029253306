"""What `:` can jump to: every pane, namespace, node, pool, device, claim and pod of one DraView,
built once per view, and a fuzzy match over them (subsequence, best first).

At 10,000 devices there are ~20,000 targets: each keystroke tests them with one compiled
pattern (narrowing the last keystroke's matches when the text only grew) and ranks only the
matches, keeping the best `limit`; hints (state, holder, counts) are worded only for the rows shown.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.natural import NaturalKey, natural_key
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.features import STATUSES  # said as they are, in both languages
from gsb_tui.words import text

# The kinds in the order an empty query lists them; "pane" targets focus a pane.
KINDS = ("pane", "namespace", "node", "pool", "claim", "pod", "device")
# A first word naming a kind (k9s habits: `:ns`, `:po`) narrows the search to that kind.
ALIASES = {
    "pane": "pane",
    "panes": "pane",
    "ns": "namespace",
    "namespace": "namespace",
    "namespaces": "namespace",
    "no": "node",
    "node": "node",
    "nodes": "node",
    "pool": "pool",
    "pools": "pool",
    "dev": "device",
    "device": "device",
    "devices": "device",
    "claim": "claim",
    "claims": "claim",
    "resourceclaim": "claim",
    "resourceclaims": "claim",
    "po": "pod",
    "pod": "pod",
    "pods": "pod",
}
# Panes as `:` offers them, with the kinds they show (what a kubectl user types).
PANE_KINDS = (
    ("grid", "ResourceSlice devices"),
    ("slices", "ResourceSlices"),
    ("claims", "ResourceClaims"),
    ("details", "ResourceClaim"),
    ("checklist", "lab"),
)
LIMIT = 50  # rows shown at most: ranking every match of "g" at 10,000 devices is not needed
_BOUNDARY = "/-._: "


class Target(NamedTuple):  # a tuple: 22,000 made per view at 10,000 devices, 4x a dataclass
    kind: str  # one of KINDS
    name: str  # what is shown and matched
    # pane id, namespace (None: all), node, (driver, pool), DeviceId, claim key or pod key
    ref: object


@dataclass(frozen=True)
class _Part:
    """The targets of one kind (or a few, in KINDS order) and the view facts they came from:
    a new view whose facts are the very same objects (or equal) reuses them."""

    facts: object
    targets: tuple[Target, ...]
    names: tuple[str, ...]  # lowercase, as matched
    counts: Mapping[tuple[str, object], int]


def _part(facts: object, targets: list[Target], counts: Mapping[tuple[str, object], int]) -> _Part:
    return _Part(facts, tuple(targets), tuple(t.name.lower() for t in targets), counts)


def _same(part: _Part | None, facts: object) -> bool:
    return part is not None and (part.facts is facts or part.facts == facts)


def _head(view: DraView, lang: str) -> _Part:
    out = [Target("pane", f"{text(lang, pane)} ({kinds})", pane) for pane, kinds in PANE_KINDS]
    namespaces = {ns for ns, _ in view.claims} | {ns for ns, _ in view.pods}
    out.append(Target("namespace", text(lang, "jump.all-namespaces"), None))
    out += [Target("namespace", ns, ns) for ns in sorted(namespaces, key=natural_key)]
    counts: Counter[tuple[str, object]] = Counter(("namespace", ns) for ns, _ in view.claims)
    counts["namespace", None] = len(view.claims)
    return _part(None, out, counts)


def _nodes(nodes: tuple[str, ...]) -> _Part:
    return _part(nodes, [Target("node", n, n) for n in sorted(nodes, key=natural_key)], {})


def _keys(kind: str, keys: Mapping[tuple[str, str], object]) -> _Part:
    return _part(keys, [Target(kind, f"{ns}/{name}", (ns, name)) for ns, name in sorted(keys)], {})


def _devices(view: DraView) -> tuple[_Part, _Part]:
    """The pools' targets and the devices': node by node (natural order), each node's in the
    order its slices publish them (view.devices' own): sorting 10,000 names naturally cost
    more than the rest together."""
    counts: Counter[tuple[str, object]] = Counter()
    by_node: dict[str, list[Target]] = {}
    prefixes: dict[tuple[str, str], str] = {}
    for d in view.devices:
        node, pool = d.node, d.id.pool
        counts["node", node] += 1
        counts["pool", (d.id.driver, pool)] += 1
        prefix = prefixes.get((node, pool))
        if prefix is None:
            prefix = prefixes[node, pool] = device_name(d.id._replace(device=""), node)
        by_node.setdefault(node, []).append(Target("device", prefix + d.id.device, d.id))
    pools = sorted({(d.id.driver, d.id.pool) for d in view.devices}, key=_pool_order)
    pool_targets = [Target("pool", f"{pool} ({driver})", (driver, pool)) for driver, pool in pools]
    devices = [t for node in sorted(by_node, key=natural_key) for t in by_node[node]]
    return _part(view.devices, pool_targets, {}), _part(view.devices, devices, counts)


def _pool_order(pool: tuple[str, str]) -> tuple[NaturalKey, str]:
    return natural_key(pool[1]), pool[0]


def build_targets(view: DraView, lang: str = "en") -> tuple[Target, ...]:
    return build_index(view, lang).targets


def device_name(device: DeviceId, node: str) -> str:
    """node/device, or node/pool/device where the pool is not named after the node."""
    parts = [node] if node else []
    if device.pool != node:
        parts.append(device.pool)
    return "/".join([*parts, device.device])


def split_kind(query: str) -> tuple[str | None, str]:
    """("pod", "dra") for "pod dra" or "pod:dra"; (None, query) when no kind is named."""
    query = query.lstrip().lower()  # "ns " names the kind: its space counts
    for sep in (" ", ":"):
        head, found, rest = query.partition(sep)
        if found and head in ALIASES:
            return ALIASES[head], rest.strip()
    return None, query.strip()


def subsequence(needle: str) -> re.Pattern[str]:
    """A pattern matching names that hold the needle's characters in order: "[^a]*+a[^b]*+b"
    finds each character's first place and never backtracks (".*?" did, for every name)."""
    parts = []
    for char in needle:
        escaped = re.escape(char)
        parts.append(f"[^{escaped}]*+{escaped}")
    return re.compile("".join(parts))


def score(needle: str, hay: str) -> int:
    """Higher is better: a whole name or segment, then a prefix or a word start, then an early
    and tight subsequence; shorter names first among equals. hay holds the needle in order."""
    at = hay.find(needle)
    if at >= 0:
        value = 1000 - 2 * at
        if at == 0 or hay[at - 1] in _BOUNDARY:
            value += 100
        end = at + len(needle)
        if end == len(hay) or hay[end] in _BOUNDARY:
            value += 60  # gpu-1 before gpu-10
        if hay == needle:
            value += 200
        return value - len(hay) // 4
    value, last = 500, -1
    for char in needle:
        found = hay.find(char, last + 1)
        if found < 0:
            return 0
        if last >= 0:
            value -= 3 * (found - last - 1)
        if found == 0 or hay[found - 1] in _BOUNDARY:
            value += 10
        last = found
    return value - len(hay) // 4


class TargetIndex:
    """The targets of one view, searched as the user types; `counts` holds what the hints say
    per node, pool and namespace (counted once, not per row shown)."""

    def __init__(
        self,
        targets: Sequence[Target],
        counts: Mapping[tuple[str, object], int] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        self.targets = tuple(targets)
        self.counts: Mapping[tuple[str, object], int] = counts or {}
        self._names = names if names is not None else [t.name.lower() for t in self.targets]
        self._by_kind: dict[str | None, list[int]] = {None: list(range(len(self.targets)))}
        for i, target in enumerate(self.targets):
            self._by_kind.setdefault(target.kind, []).append(i)
        self._last: tuple[str | None, str, list[int]] | None = None
        self.parts: tuple[_Part, ...] = ()  # build_index's, for the next view

    def count(self, kind: str) -> int:
        return len(self._by_kind.get(kind, ()))

    def search(self, query: str, limit: int = LIMIT) -> tuple[list[Target], int]:
        """The best `limit` targets for the query, and how many match in all."""
        kind, needle = split_kind(query)
        pool = self._by_kind.get(kind, [])
        last = self._last
        if last is not None and last[0] == kind and needle.startswith(last[1]):
            pool = last[2]  # the text grew: only the last matches can still match
        terms = needle.split()
        if len(terms) == 1:
            matches, best = self._one_term(terms[0], pool, limit)
        elif terms:
            # Words apart match apart, in any order ("lab-node-7 gpu-3" as fzf takes it).
            patterns = [subsequence(term).match for term in terms]
            names = self._names
            matches = [i for i in pool if all(match(names[i]) for match in patterns)]

            def rank(i: int) -> tuple[int, int]:
                return (-sum(score(term, names[i]) for term in terms), i)

            best = heapq.nsmallest(limit, matches, key=rank)
        else:
            matches = pool
            best = matches[:limit]
        self._last = (kind, needle, matches)
        return [self.targets[i] for i in best], len(matches)

    def _one_term(self, term: str, pool: list[int], limit: int) -> tuple[list[int], list[int]]:
        """The common case in one pass, each name scored once as it matches: a name holding
        the term whole needs no pattern (at 20,000 targets the first keys match nearly all)."""
        names, match = self._names, subsequence(term).match
        matches: list[int] = []
        ranked: list[tuple[int, int]] = []
        for i in pool:
            name = names[i]
            if term in name or match(name):
                matches.append(i)
                ranked.append((-score(term, name), i))
        return matches, [i for _, i in heapq.nsmallest(limit, ranked)]


def build_index(
    view: DraView, lang: str = "en", previous: TargetIndex | None = None
) -> TargetIndex:
    """Every target of the view; the parts of `previous` (the last view's index) whose facts
    did not change are taken as they are: at 10,000 devices a claim's change rebuilds the claims
    and pods, not the 11,000 targets the slices give."""
    old = dict(enumerate(previous.parts)) if previous is not None else {}
    nodes = view.nodes()
    node_part = old[1] if _same(old.get(1), nodes) else _nodes(nodes)
    if _same(old.get(2), view.devices) and _same(old.get(5), view.devices):
        pools, devices = old[2], old[5]
    else:
        pools, devices = _devices(view)
    claims = old[3] if _same(old.get(3), view.claims) else _keys("claim", view.claims)
    pods = old[4] if _same(old.get(4), view.pods) else _keys("pod", view.pods)
    parts = (_head(view, lang), node_part, pools, claims, pods, devices)
    counts = {**parts[0].counts, **devices.counts}
    targets = tuple(chain.from_iterable(p.targets for p in parts))
    names = list(chain.from_iterable(p.names for p in parts))
    index = TargetIndex(targets, counts, names)
    index.parts = parts
    return index


def state_word(view: DraView, device: DeviceId, lang: str) -> str:
    """A device's state as its grid cell words it."""
    state = view.state(device)
    return state if state in STATUSES else text(lang, f"feat.state.{state}")


def hint(view: DraView, index: TargetIndex, target: Target, lang: str) -> str:
    """A few words beside a target: counts, state, holder (for the rows shown only)."""
    ref, kind = target.ref, target.kind
    if kind == "namespace":
        return text(lang, "jump.hint.claims", n=index.counts.get((kind, ref), 0))
    if kind in ("node", "pool"):
        return text(lang, "jump.hint.devices", n=index.counts.get((kind, ref), 0))
    if kind == "claim" and isinstance(ref, tuple):
        claim = view.claims.get(ref)
        if claim is None:
            return ""
        return f"{claim.state} · {text(lang, 'jump.hint.devices', n=len(claim.devices))}"
    if kind == "pod" and isinstance(ref, tuple):
        pod = view.pods.get(ref)
        return f"{pod.phase or '-'} · {pod.node or '-'}" if pod is not None else ""
    if kind == "device" and isinstance(ref, DeviceId):
        occ = view.occupancy.get(ref)
        if occ is None:
            return ""
        state = state_word(view, ref, lang)
        holders = ", ".join(c.name for c in occ.holders)
        return f"{state} · {holders}" if holders else state
    return ""
