"""Each component's command line: which flags the practice control plane runs with.

control_plane.py decides when each starts and what it waits for; this module only words the
flags (the ports, files and profile gates are given), so a flag is changed in one place.
"""

from __future__ import annotations

from pathlib import Path

from gsb_tui.cluster import profiles, seed
from gsb_tui.cluster.build import Binaries
from gsb_tui.cluster.pki import Pki

CONTROLLERS = (
    "resourceclaim-controller",
    "serviceaccount-controller",
    "garbage-collector-controller",
    "namespace-controller",
)

# Writes only, with who and what: enough to prove the dashboard never writes.
AUDIT_POLICY = """\
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  verbs: ["create", "update", "patch", "delete", "deletecollection"]
- level: None
"""


def etcd(bins: Binaries, data_dir: Path, client_url: str, peer_url: str) -> list[str]:
    return [
        str(bins.etcd),
        "--name=default",
        f"--data-dir={data_dir}",
        f"--listen-client-urls={client_url}",
        f"--advertise-client-urls={client_url}",
        f"--listen-peer-urls={peer_url}",
        f"--initial-advertise-peer-urls={peer_url}",
        f"--initial-cluster=default={peer_url}",
        "--unsafe-no-fsync",  # practice data only: speed over durability
        "--log-level=warn",
    ]


def apiserver(
    bins: Binaries,
    etcd_url: str,
    port: int,
    pki_dir: Path,
    pki: Pki,
    names: tuple[str, ...],
    audit_log: Path | None,
    release: str = "1.36",
) -> list[str]:
    """`names`: the profiles; `audit_log`: where write requests are logged (None: nowhere);
    `release`: the Kubernetes minor (what it serves by default differs)."""
    args = [
        str(bins.apiserver),
        f"--etcd-servers={etcd_url}",
        "--bind-address=127.0.0.1",
        f"--secure-port={port}",
        f"--cert-dir={pki_dir}",
        "--service-account-issuer=https://kubernetes.default.svc",
        f"--service-account-key-file={pki_dir / 'sa.key'}",
        f"--service-account-signing-key-file={pki_dir / 'sa.key'}",
        f"--token-auth-file={pki_dir / 'tokens.csv'}",
        f"--client-ca-file={pki.client_ca}",
        "--authorization-mode=RBAC",
        "--service-cluster-ip-range=10.96.0.0/16",
        # Nobody runs the node lifecycle controller, which would lift the not-ready taint.
        "--disable-admission-plugins=TaintNodesByCondition",
        *profiles.apiserver_flags(names, release),
    ]
    if audit_log is not None:
        args += [
            f"--audit-policy-file={pki_dir / 'audit-policy.yaml'}",
            f"--audit-log-path={audit_log}",
            "--audit-log-format=json",
        ]
    return args


def controllers(names: tuple[str, ...], real_node: bool = False) -> list[str]:
    """The controllers kube-controller-manager runs: the lab's and the profiles' own; a real
    node's pods mount the kube-root-ca.crt ConfigMap that root-ca-cert-publisher makes."""
    extra = ["root-ca-certificate-publisher-controller"] if real_node else []
    return [*CONTROLLERS, *extra, *profiles.controllers(names)]


def controller_manager(
    bins: Binaries, kubeconfig: Path, names: tuple[str, ...], real_node: bool = False
) -> list[str]:
    return [
        str(bins.controller_manager),
        f"--kubeconfig={kubeconfig}",
        "--leader-elect=false",
        "--secure-port=0",
        f"--controllers={','.join(controllers(names, real_node))}",
        *profiles.gate_flags(names),
    ]


def scheduler(bins: Binaries, kubeconfig: Path, names: tuple[str, ...], qps: float) -> list[str]:
    """`qps`: the scheduler's client rate limit (0: its default, 50 requests/s)."""
    args = [
        str(bins.scheduler),
        f"--kubeconfig={kubeconfig}",
        "--leader-elect=false",
        "--secure-port=0",
        *profiles.gate_flags(names),
    ]
    if qps:
        args += [f"--kube-api-qps={qps:g}", f"--kube-api-burst={int(2 * qps)}"]
    return args


def kwok(bins: Binaries, kubeconfig: Path, port: int) -> list[str]:
    key, value = seed.KWOK_ANNOTATION
    args = [
        str(bins.kwok),
        f"--kubeconfig={kubeconfig}",
        "--manage-all-nodes=false",
        f"--manage-nodes-with-annotation-selector={key}={value}",
        f"--server-address=127.0.0.1:{port}",
    ]
    for stage in bins.kwok_stages:
        args += ["--config", str(stage)]
    return args
