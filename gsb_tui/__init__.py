"""gsb-tui: a live terminal dashboard for Kubernetes Dynamic Resource Allocation."""

__version__ = "0.1.0"
