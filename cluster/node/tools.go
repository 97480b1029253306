//go:build tools

// Package tools pins the container runtime the practice cluster's real node runs:
// containerd's own main packages, built from this module (see gsb_tui/cluster/node_build.py).
package tools

import (
	_ "github.com/containerd/containerd/v2/cmd/containerd"
	_ "github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2"
	_ "github.com/containerd/containerd/v2/cmd/ctr"
)
