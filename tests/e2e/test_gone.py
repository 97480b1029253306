"""410 Gone for real: etcd compacted and the API server restarted (its watch cache emptied),
so a watch from an old resourceVersion is refused; the reflector re-lists, no lost or ghost."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.kube.config import Target, resolve
from gsb_tui.kube.reflector import Gone, Reflector
from gsb_tui.kube.store import Store
from gsb_tui.kube.transport import make_transport
from gsb_tui.snapshot import KINDS, Kind

from .watching import CLAIMS, claim


def etcd_post(cluster: ControlPlane, path: str, body: dict[str, object]) -> dict[str, object]:
    url = f"http://127.0.0.1:{cluster.info()['ports']['etcd']}{path}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return dict(json.loads(resp.read()))


async def test_watch_from_a_compacted_version_relists(cluster: ControlPlane) -> None:
    rest = cluster.rest()
    ns = "e2e-gone"
    rest.ensure("/api/v1/namespaces", {"metadata": {"name": ns}})
    rest.create(CLAIMS.format(ns=ns), claim("before", ns))
    api = await make_transport(resolve(Target(kubeconfig=cluster.kubeconfig, namespace=ns)))
    store = Store()
    try:
        reflector = Reflector(api, KINDS[Kind.CLAIMS], store.apply, namespace=ns)
        old_rv = await reflector.list()
        rest.create(CLAIMS.format(ns=ns), claim("after", ns))
        rest.delete(f"{CLAIMS.format(ns=ns)}/before")
        status = etcd_post(cluster, "/v3/maintenance/status", {})
        revision = int(status["header"]["revision"])  # type: ignore[index]
        etcd_post(cluster, "/v3/kv/compaction", {"revision": revision, "physical": True})
        cluster.kill("kube-apiserver")
        cluster.start_again("kube-apiserver")
        deadline = time.monotonic() + 60
        while not rest.healthy():
            assert time.monotonic() < deadline, "API server did not come back"
            time.sleep(0.05)
        for _ in range(50):  # the client may still hold a dead connection: retry until served
            try:
                with pytest.raises(Gone):
                    await reflector.watch(old_rv)
                break
            except Exception as exc:  # a connection reset by the restart
                if isinstance(exc, AssertionError):
                    raise
                time.sleep(0.1)
        else:
            raise AssertionError("never got 410 Gone")
        # What the run loop does on Gone: re-list, replacing the kind.
        await reflector.list()
        held = {name for _, name in store.snapshot().objects[Kind.CLAIMS]}
        fresh = {c["metadata"]["name"] for c in rest.get(CLAIMS.format(ns=ns))["items"]}
        assert held == fresh == {"after"}
    finally:
        await api.close()
