"""The practice cluster: a real Kubernetes 1.36 control plane built from Go modules.

This is the only part of gsb-tui that writes to a cluster, and only to the one it started.
"""
