package main

import (
	"context"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// healthAnnotationPrefix pins a device's health on the driver's Node, the way
// dra-example-driver v0.5.0 pins it with annotations on its pod.
const healthAnnotationPrefix = "health.example.com/"

const (
	nodePollInterval = time.Second
	nodeGetTimeout   = 5 * time.Second
)

// healthStatus uses the kubelet's words; each build maps it onto its API.
type healthStatus string

const (
	healthHealthy   healthStatus = "Healthy"
	healthUnhealthy healthStatus = "Unhealthy"
	healthUnknown   healthStatus = "Unknown"
)

// deviceHealth is one device's entry in a health report.
type deviceHealth struct {
	Device      string
	Health      healthStatus
	Message     string
	LastUpdated time.Time
}

// healthFromAnnotations reads each device's annotation. Absent or
// unrecognised values mean healthy: a device is healthy unless someone says
// otherwise.
func healthFromAnnotations(annotations map[string]string, devices []string) []deviceHealth {
	report := make([]deviceHealth, len(devices))
	for i, device := range devices {
		key := healthAnnotationPrefix + device
		entry := deviceHealth{Device: device, Health: healthHealthy}
		switch strings.ToLower(strings.TrimSpace(annotations[key])) {
		case "unhealthy":
			entry.Health = healthUnhealthy
			entry.Message = "practice driver: marked unhealthy by annotation " + key
		case "unknown":
			entry.Health = healthUnknown
			entry.Message = "practice driver: marked unknown by annotation " + key
		}
		report[i] = entry
	}
	return report
}

// healthMonitor holds the devices' last known health and wakes health
// streams when it changes.
type healthMonitor struct {
	devices []string

	mu          sync.Mutex
	current     []deviceHealth
	lastUpdated time.Time     // last successful read of the Node
	changed     chan struct{} // closed and replaced on every change
}

func newHealthMonitor(devices []string, now time.Time) *healthMonitor {
	return &healthMonitor{
		devices:     devices,
		current:     healthFromAnnotations(nil, devices),
		lastUpdated: now,
		changed:     make(chan struct{}),
	}
}

// update records a fresh reading and reports whether any device changed.
func (h *healthMonitor) update(annotations map[string]string, now time.Time) bool {
	next := healthFromAnnotations(annotations, h.devices)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastUpdated = now
	same := len(next) == len(h.current)
	for i := 0; same && i < len(next); i++ {
		same = next[i] == h.current[i]
	}
	if same {
		return false
	}
	h.current = next
	close(h.changed)
	h.changed = make(chan struct{})
	return true
}

// snapshot returns a copy of the current report, stamped with the last
// successful reading, and the channel that closes on the next change.
func (h *healthMonitor) snapshot() ([]deviceHealth, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	report := make([]deviceHealth, len(h.current))
	for i, entry := range h.current {
		entry.LastUpdated = h.lastUpdated
		report[i] = entry
	}
	return report, h.changed
}

// watch sends the full report at connect, on every change and at the
// latest one interval after the previous send (so the kubelet's 30 s default
// lease never runs out) until ctx ends or send fails.
func (h *healthMonitor) watch(ctx context.Context, interval time.Duration, send func([]deviceHealth) error) error {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		report, changed := h.snapshot()
		if err := send(report); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		// A change just sent restarts the interval: no near-duplicate resend.
		ticker.Reset(interval)
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		case <-ticker.C:
		}
	}
}

// pollNode reads the Node's annotations every second until ctx ends. A
// failed GET keeps the last values; it is logged once per failure streak.
func (h *healthMonitor) pollNode(ctx context.Context, client kubernetes.Interface, node string) {
	logger := klog.FromContext(ctx)
	failing := false
	ticker := time.NewTicker(nodePollInterval)
	defer ticker.Stop()
	for {
		getCtx, cancel := context.WithTimeout(ctx, nodeGetTimeout)
		obj, err := client.CoreV1().Nodes().Get(getCtx, node, metav1.GetOptions{})
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			if !failing {
				logger.Error(err, "Reading node for device health failed, keeping last values", "node", node)
				failing = true
			}
		default:
			if failing {
				logger.Info("Reading node for device health works again", "node", node)
				failing = false
			}
			if h.update(obj.Annotations, time.Now()) {
				report, _ := h.snapshot()
				logger.Info("Device health changed", "node", node, "health", summary(report))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// summary is a compact "gpu-0=Healthy ..." line for the logs.
func summary(report []deviceHealth) string {
	parts := make([]string, len(report))
	for i, entry := range report {
		parts[i] = entry.Device + "=" + string(entry.Health)
	}
	return strings.Join(parts, " ")
}
