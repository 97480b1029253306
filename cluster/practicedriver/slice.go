package main

import (
	"crypto/sha256"
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/utils/ptr"
)

// The gpu profile's fixed device facts, as gsb_tui/cluster/seed.py seeds them.
const (
	deviceModel   = "LATEST-GPU-MODEL"
	driverVersion = "1.0.0"
	deviceMemory  = "80Gi"
	deviceCompute = "100"
)

// deviceName is the name of device i in the node's pool.
func deviceName(i int) string {
	return fmt.Sprintf("gpu-%d", i)
}

// deviceNames lists the pool's devices in slice order.
func deviceNames(count int) []string {
	names := make([]string, count)
	for i := range names {
		names[i] = deviceName(i)
	}
	return names
}

// deviceUUID must equal seed.py's device_uuid(node, i): the first 16 bytes of
// sha256("<node>/<i>") stamped as a version-4 UUID, as Python's
// uuid.UUID(bytes=..., version=4) does, so seeded and real slices agree.
func deviceUUID(node string, index int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", node, index)))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("gpu-%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// poolDevices describes the node's devices gpu-0..gpu-<count-1>.
func poolDevices(node string, count int) []resourceapi.Device {
	devices := make([]resourceapi.Device, count)
	for i := range devices {
		devices[i] = resourceapi.Device{
			Name: deviceName(i),
			// Explicitly exclusive, as the seeded slices say.
			AllowMultipleAllocations: ptr.To(false),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"index":         {IntValue: ptr.To(int64(i))},
				"uuid":          {StringValue: ptr.To(deviceUUID(node, i))},
				"model":         {StringValue: ptr.To(deviceModel)},
				"driverVersion": {VersionValue: ptr.To(driverVersion)},
			},
			Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{
				"memory":  {Value: resource.MustParse(deviceMemory)},
				"compute": {Value: resource.MustParse(deviceCompute)},
			},
		}
	}
	return devices
}

// driverResources is one pool named after the node holding one slice; the
// Helper's controller sets the node name, owner and pool generation.
func driverResources(node string, count int) resourceslice.DriverResources {
	return resourceslice.DriverResources{
		Pools: map[string]resourceslice.Pool{
			node: {Slices: []resourceslice.Slice{{Devices: poolDevices(node, count)}}},
		},
	}
}
