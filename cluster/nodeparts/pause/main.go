// Command pause is the pod sandbox's pid 1 on the practice cluster's real node.
//
// It holds the pod's namespaces open by doing nothing: it blocks until SIGINT
// or SIGTERM (then exits 0, so a sandbox stops cleanly and at once) and reaps
// every zombie re-parented to it, since pid 1 of a shared pid namespace
// inherits the orphans of all the pod's containers.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for sig := range sigs {
		if sig != syscall.SIGCHLD {
			os.Exit(0)
		}
		reap()
	}
}

// reap collects every exited child; SIGCHLDs merge, so one may stand for many.
func reap() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			return
		}
	}
}
