package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	"k8s.io/klog/v2"
)

// driver is the DRAPlugin the kubeletplugin Helper calls into. The Helper
// serializes Prepare and Unprepare, so driver keeps no locks of its own.
type driver struct {
	name    string
	node    string
	devices sets.Set[string] // what the node's slice publishes
	cdi     cdiWriter
	health  *healthMonitor
	// healthInterval is how often a health stream re-sends unchanged health.
	healthInterval time.Duration
	// fail ends the process on a fatal background error.
	fail context.CancelCauseFunc
}

var _ kubeletplugin.DRAPlugin = &driver{}

func newDriver(cfg config, health *healthMonitor, fail context.CancelCauseFunc) *driver {
	return &driver{
		name:           cfg.driver,
		node:           cfg.nodeName,
		devices:        sets.New(deviceNames(cfg.devices)...),
		cdi:            cdiWriter{dir: cfg.cdiDir, driver: cfg.driver, node: cfg.nodeName},
		health:         health,
		healthInterval: cfg.healthInterval,
		fail:           fail,
	}
}

// PrepareResourceClaims writes one CDI spec per claim. Rewriting an existing
// spec with identical content is what makes kubelet retries harmless.
func (d *driver) PrepareResourceClaims(ctx context.Context, claims []*resourceapi.ResourceClaim) (map[types.UID]kubeletplugin.PrepareResult, error) {
	logger := klog.FromContext(ctx)
	results := make(map[types.UID]kubeletplugin.PrepareResult, len(claims))
	for _, claim := range claims {
		result := d.prepare(claim)
		if result.Err != nil {
			logger.Error(result.Err, "Prepare failed", "claim", klog.KObj(claim))
		} else {
			logger.Info("Prepared claim", "claim", klog.KObj(claim), "uid", claim.UID, "devices", len(result.Devices))
		}
		results[claim.UID] = result
	}
	return results, nil
}

func (d *driver) prepare(claim *resourceapi.ResourceClaim) kubeletplugin.PrepareResult {
	if claim.Status.Allocation == nil {
		return kubeletplugin.PrepareResult{Err: errors.New("claim is not allocated")}
	}
	var ours []resourceapi.DeviceRequestAllocationResult
	for _, result := range claim.Status.Allocation.Devices.Results {
		// Other drivers' and other nodes' results are theirs to prepare.
		if result.Driver != d.name || result.Pool != d.node {
			continue
		}
		if !d.devices.Has(result.Device) {
			return kubeletplugin.PrepareResult{Err: fmt.Errorf("device %q is not in pool %q", result.Device, d.node)}
		}
		ours = append(ours, result)
	}
	spec, ids := d.cdi.claimSpec(claim.UID, ours)
	if err := d.cdi.write(claim.UID, spec); err != nil {
		return kubeletplugin.PrepareResult{Err: err}
	}
	prepared := kubeletplugin.PrepareResult{Devices: make([]kubeletplugin.Device, 0, len(ours))}
	for i, result := range ours {
		prepared.Devices = append(prepared.Devices, kubeletplugin.Device{
			Requests:     []string{result.Request},
			PoolName:     result.Pool,
			DeviceName:   result.Device,
			CDIDeviceIDs: ids[i],
			ShareID:      result.ShareID,
		})
	}
	return prepared
}

// UnprepareResourceClaims removes the claims' specs. The claim objects may be
// gone already; the UID is all the spec's file name needs.
func (d *driver) UnprepareResourceClaims(ctx context.Context, claims []kubeletplugin.NamespacedObject) (map[types.UID]error, error) {
	logger := klog.FromContext(ctx)
	results := make(map[types.UID]error, len(claims))
	for _, claim := range claims {
		err := d.cdi.remove(claim.UID)
		if err != nil {
			logger.Error(err, "Unprepare failed", "claim", claim.NamespacedName, "uid", claim.UID)
		} else {
			logger.Info("Unprepared claim", "claim", claim.NamespacedName, "uid", claim.UID)
		}
		results[claim.UID] = err
	}
	return results, nil
}

// HandleError logs background errors (slice publishing, gRPC servers) and
// stops the driver on the ones the Helper says retrying will not fix.
func (d *driver) HandleError(ctx context.Context, err error, msg string) {
	klog.FromContext(ctx).Error(err, msg)
	if !errors.Is(err, kubeletplugin.ErrRecoverable) {
		d.fail(fmt.Errorf("%s: %w", msg, err))
	}
}
