"""The per-kind object store that reflectors (or a replay) feed, and the changes they send."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from gsb_tui.snapshot import Kind, KindState, Obj, ObjKey, Snapshot, obj_key

ChangeType = Literal["ADDED", "MODIFIED", "DELETED", "SYNCED", "STATE", "MARK", "SERVER"]


@dataclass(frozen=True)
class Change:
    """One thing a watch (or a recording) says happened.

    SYNCED carries a complete list that replaces the kind (after a list or re-list);
    STATE reports how the watch stands; MARK is a label in a recording (a lab step); SERVER
    carries the API server's version (`/version` gitVersion) in `label`, its kind unused.
    """

    kind: Kind
    type: ChangeType
    obj: Obj | None = None
    items: tuple[Obj, ...] = ()
    state: KindState | None = None
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "type": self.type}
        if self.obj is not None:
            out["object"] = self.obj
        if self.type == "SYNCED":
            out["items"] = list(self.items)
        if self.state is not None:
            out["state"] = {
                "phase": self.state.phase,
                "message": self.state.message,
                "attempts": self.state.attempts,
                "scope": self.state.scope,
            }
            if self.state.every:
                out["state"]["every"] = self.state.every
        if self.label:
            out["label"] = self.label
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Change:
        state = data.get("state")
        return cls(
            kind=Kind(data["kind"]),
            type=data["type"],
            obj=data.get("object"),
            items=tuple(data.get("items") or ()),
            state=KindState(**state) if state else None,
            label=data.get("label", ""),
        )


TOUCHED_MAX = 1024  # changed keys per kind past which a snapshot says "all may differ"


class Store:
    """Objects per kind keyed by (namespace, name), replaced (never mutated) on change."""

    def __init__(self, kinds: Iterable[Kind] = tuple(Kind)) -> None:
        self._objects: dict[Kind, dict[ObjKey, Obj]] = {k: {} for k in kinds}
        self._states: dict[Kind, KindState] = {k: KindState() for k in self._objects}
        self._revision = 0
        self._last_event_at: float | None = None
        self._server_version = ""
        # Each kind's copy for snapshots, kept until the kind changes: an unchanged kind is the
        # very same read-only mapping in the next snapshot, so dra/ can tell "unchanged" by
        # identity (a mapping nobody can change).
        self._copies: dict[Kind, Mapping[ObjKey, Obj]] = {}
        # Per kind, since its copy was last made: the keys changed (None: re-listed, or more
        # than a patch is worth) and that copy.
        self._touched: dict[Kind, tuple[Mapping[ObjKey, Obj], set[ObjKey] | None]] = {}

    @property
    def revision(self) -> int:
        return self._revision

    def apply(self, change: Change) -> bool:
        """Apply one change; True when the snapshot differs afterwards."""
        kind = change.kind
        if change.type == "SERVER":
            if change.label == self._server_version:
                return False
            self._server_version = change.label
            self._revision += 1
            return True
        if kind not in self._objects or change.type == "MARK":
            return False
        objs = self._objects[kind]
        touched: ObjKey | None = None
        if change.type == "SYNCED":
            self._objects[kind] = {obj_key(o): o for o in change.items}
        elif change.type in ("ADDED", "MODIFIED") and change.obj is not None:
            touched = obj_key(change.obj)
            objs[touched] = change.obj
        elif change.type == "DELETED" and change.obj is not None:
            key = obj_key(change.obj)
            old = objs.get(key)
            # A delete for an older incarnation (another uid) must not drop the new one.
            uid = (change.obj.get("metadata") or {}).get("uid")
            if old is None or (uid and (old.get("metadata") or {}).get("uid") not in (uid, None)):
                return False
            del objs[key]
            touched = key
        elif change.type == "STATE" and change.state is not None:
            if self._states.get(kind) == change.state:
                return False
            self._states[kind] = change.state
        else:
            return False
        self._revision += 1
        if change.type != "STATE":
            self._note(kind, touched)
            self._last_event_at = time.monotonic()
        return True

    def _note(self, kind: Kind, key: ObjKey | None) -> None:
        """The kind changed (at `key`; None: all of it): its next snapshot gets a new copy."""
        copy = self._copies.pop(kind, None)
        if copy is not None:
            self._touched[kind] = (copy, set())
        since = self._touched.get(kind)
        if since is None:
            return
        keys = since[1]
        if key is None or keys is None or len(keys) >= TOUCHED_MAX:
            self._touched[kind] = (since[0], None)
        else:
            keys.add(key)

    def snapshot(self) -> Snapshot:
        # Shallow copies: objects themselves are never mutated in place, so sharing is safe.
        copies = self._copies
        changed: dict[Kind, tuple[Mapping[ObjKey, Obj], frozenset[ObjKey]]] = {}
        for kind, objs in self._objects.items():
            if kind not in copies:
                copies[kind] = MappingProxyType(dict(objs))
                since = self._touched.pop(kind, None)
                if since is not None and since[1] is not None:
                    changed[kind] = (since[0], frozenset(since[1]))
        return Snapshot(
            objects={kind: copies[kind] for kind in self._objects},
            changed=changed,
            states=dict(self._states),
            revision=self._revision,
            last_event_at=self._last_event_at,
            server_version=self._server_version,
        )
