//go:build k137

package main

import (
	"context"

	"k8s.io/dynamic-resource-allocation/kubeletplugin"
)

// In v0.37 WatchHealthStatus is part of DRAPlugin and the Helper serves the
// v1 and v1alpha1 gRPC APIs itself, so the driver is the plugin as it is.
func pluginFor(d *driver) kubeletplugin.DRAPlugin {
	return d
}

// WatchHealthStatus feeds the Helper's health stream for one kubelet
// connection; it may be called again when the kubelet reconnects.
func (d *driver) WatchHealthStatus(ctx context.Context, reports chan<- kubeletplugin.DeviceHealthReport) error {
	return d.health.watch(ctx, d.healthInterval, func(report []deviceHealth) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case reports <- d.helperReport(report):
			return nil
		}
	})
}

func (d *driver) helperReport(report []deviceHealth) kubeletplugin.DeviceHealthReport {
	devices := make([]kubeletplugin.DeviceHealth, 0, len(report))
	for _, entry := range report {
		devices = append(devices, kubeletplugin.DeviceHealth{
			PoolName:    d.node,
			DeviceName:  entry.Device,
			Health:      helperStatus(entry.Health),
			LastUpdated: entry.LastUpdated,
			Message:     entry.Message,
		})
	}
	return kubeletplugin.DeviceHealthReport{Devices: devices}
}

func helperStatus(status healthStatus) kubeletplugin.HealthStatus {
	switch status {
	case healthHealthy:
		return kubeletplugin.HealthStatusHealthy
	case healthUnhealthy:
		return kubeletplugin.HealthStatusUnhealthy
	default:
		return kubeletplugin.HealthStatusUnknown
	}
}
