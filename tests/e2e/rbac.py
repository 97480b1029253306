"""ServiceAccounts with narrow RBAC, and kubeconfigs for them (e2e helpers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gsb_tui.cluster.control_plane import ControlPlane

RBAC = "/apis/rbac.authorization.k8s.io/v1"
READ = ["get", "list", "watch"]
ALL_KINDS: list[dict[str, Any]] = [
    {
        "apiGroups": ["resource.k8s.io"],
        "resources": [
            "resourceslices",
            "deviceclasses",
            "resourceclaims",
            "resourceclaimtemplates",
        ],
        "verbs": READ,
    },
    {"apiGroups": [""], "resources": ["pods", "events", "nodes"], "verbs": READ},
]


def service_account_kubeconfig(
    cluster: ControlPlane, name: str, rules: list[dict[str, Any]], out: Path, ns: str = "dra-lab"
) -> Path:
    """A ServiceAccount bound cluster-wide to `rules`, and a kubeconfig using its token."""
    rest = cluster.rest()
    rest.ensure(f"/api/v1/namespaces/{ns}/serviceaccounts", {"metadata": {"name": name}})
    rest.ensure(f"{RBAC}/clusterroles", {"metadata": {"name": name}, "rules": rules})
    rest.ensure(
        f"{RBAC}/clusterrolebindings",
        {
            "metadata": {"name": name},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": name,
            },
            "subjects": [{"kind": "ServiceAccount", "name": name, "namespace": ns}],
        },
    )
    token = rest.create(
        f"/api/v1/namespaces/{ns}/serviceaccounts/{name}/token",
        {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {}},
    )["status"]["token"]
    config = json.loads(cluster.kubeconfig.read_text())
    config["users"] = [{"name": name, "user": {"token": token}}]
    config["contexts"][0]["context"]["user"] = name
    out.write_text(json.dumps(config))
    return out
