"""Keys and certificates for the practice cluster (written under its state directory only).

Like k3s, the admin kubeconfig authenticates with a client certificate (CN=admin,
O=system:masters) issued by a client CA the API server trusts; a token file serves the
harness's own REST client. ServiceAccount tokens are signed with a fresh EC key.
"""

from __future__ import annotations

import base64
import datetime
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_DAYS = 365


@dataclass(frozen=True)
class Pki:
    token: str
    client_ca: Path
    admin_cert: bytes
    admin_key: bytes


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )


def _private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _cert(
    subject: x509.Name,
    key: ec.EllipticCurvePrivateKey,
    issuer: x509.Name,
    issuer_key: ec.EllipticCurvePrivateKey,
    ca: bool,
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
        )
    return builder.sign(issuer_key, hashes.SHA256())


def new_ca(common_name: str) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    return _cert(name, key, name, key, ca=True), key


def write_pki(folder: Path) -> Pki:
    folder.mkdir(parents=True, exist_ok=True)
    _private(folder / "sa.key", _pem_key(ec.generate_private_key(ec.SECP256R1())))
    token = secrets.token_hex(24)
    _private(folder / "tokens.csv", f'{token},admin,admin-uid,"system:masters"\n'.encode())
    ca, ca_key = new_ca("gsb-lab-client-ca")
    ca_name = ca.subject
    (folder / "client-ca.crt").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    admin_key = ec.generate_private_key(ec.SECP256R1())
    admin_name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "system:masters"),
            x509.NameAttribute(NameOID.COMMON_NAME, "admin"),
        ]
    )
    admin = _cert(admin_name, admin_key, ca_name, ca_key, ca=False)
    return Pki(
        token=token,
        client_ca=folder / "client-ca.crt",
        admin_cert=admin.public_bytes(serialization.Encoding.PEM),
        admin_key=_pem_key(admin_key),
    )


def read_token(folder: Path) -> str:
    return (folder / "tokens.csv").read_text().split(",", 1)[0]


def admin_kubeconfig(server: str, pki: Pki, ca: bytes, namespace: str) -> dict[str, Any]:
    """A kubeconfig for the admin client certificate, as k3s's admin kubeconfig has."""
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {
                "name": "gsb-lab",
                "cluster": {
                    "server": server,
                    "certificate-authority-data": base64.b64encode(ca).decode(),
                },
            }
        ],
        "users": [
            {
                "name": "gsb-admin",
                "user": {
                    "client-certificate-data": base64.b64encode(pki.admin_cert).decode(),
                    "client-key-data": base64.b64encode(pki.admin_key).decode(),
                },
            }
        ],
        "contexts": [
            {
                "name": "gsb-lab",
                "context": {"cluster": "gsb-lab", "user": "gsb-admin", "namespace": namespace},
            }
        ],
        "current-context": "gsb-lab",
    }
