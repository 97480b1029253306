//go:build !k137

package main

import (
	"google.golang.org/grpc"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	drahealthv1alpha1 "k8s.io/kubelet/pkg/apis/dra-health/v1alpha1"
)

// In v0.36 the Helper serves DRAResourceHealth only if the plugin value
// itself implements the v1alpha1 gRPC server (a type assertion in Start), so
// the driver is wrapped in one.
type healthPlugin struct {
	*driver
	drahealthv1alpha1.UnimplementedDRAResourceHealthServer
}

var _ drahealthv1alpha1.DRAResourceHealthServer = healthPlugin{}

func pluginFor(d *driver) kubeletplugin.DRAPlugin {
	return healthPlugin{driver: d}
}

// NodeWatchResources is the kubelet's health stream for this driver.
func (p healthPlugin) NodeWatchResources(_ *drahealthv1alpha1.NodeWatchResourcesRequest, stream grpc.ServerStreamingServer[drahealthv1alpha1.NodeWatchResourcesResponse]) error {
	return p.health.watch(stream.Context(), p.healthInterval, func(report []deviceHealth) error {
		return stream.Send(p.v1alpha1Report(report))
	})
}

func (p healthPlugin) v1alpha1Report(report []deviceHealth) *drahealthv1alpha1.NodeWatchResourcesResponse {
	devices := make([]*drahealthv1alpha1.DeviceHealth, 0, len(report))
	for _, entry := range report {
		devices = append(devices, &drahealthv1alpha1.DeviceHealth{
			Device:          &drahealthv1alpha1.DeviceIdentifier{PoolName: p.node, DeviceName: entry.Device},
			Health:          v1alpha1Status(entry.Health),
			LastUpdatedTime: entry.LastUpdated.Unix(),
			Message:         entry.Message,
		})
	}
	return &drahealthv1alpha1.NodeWatchResourcesResponse{Devices: devices}
}

func v1alpha1Status(status healthStatus) drahealthv1alpha1.HealthStatus {
	switch status {
	case healthHealthy:
		return drahealthv1alpha1.HealthStatus_HEALTHY
	case healthUnhealthy:
		return drahealthv1alpha1.HealthStatus_UNHEALTHY
	default:
		return drahealthv1alpha1.HealthStatus_UNKNOWN
	}
}
