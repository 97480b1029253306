package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
)

// cdiVersion is old enough for every CDI library containerd 2.x vendors
// (env-only edits need 0.3.0) and is what the example driver family writes.
const cdiVersion = "0.6.0"

// cdiClass is the device class half of the CDI kind "<driver>/gpu".
const cdiClass = "gpu"

// The subset of the CDI spec this driver writes (tags.cncf.io specs-go is not
// a dependency of this module, and env edits are all the gpu profile needs).
type cdiSpec struct {
	Version string      `json:"cdiVersion"`
	Kind    string      `json:"kind"`
	Devices []cdiDevice `json:"devices"`
}

type cdiDevice struct {
	Name           string            `json:"name"`
	ContainerEdits cdiContainerEdits `json:"containerEdits"`
}

type cdiContainerEdits struct {
	Env []string `json:"env,omitempty"`
}

// cdiWriter owns the spec files of one driver in one CDI directory.
type cdiWriter struct {
	dir    string
	driver string
	node   string
}

func (w cdiWriter) kind() string { return w.driver + "/" + cdiClass }

// specPath is one file per claim: Unprepare needs only the claim UID to find
// it, even after a restart of the driver.
func (w cdiWriter) specPath(claimUID types.UID) string {
	return filepath.Join(w.dir, fmt.Sprintf("%s-%s.json", w.driver, claimUID))
}

// deviceID is the fully qualified CDI device ID the kubelet hands to the runtime.
func (w cdiWriter) deviceID(name string) string {
	return w.kind() + "=" + name
}

// commonDeviceName is the per-claim device carrying node-wide env.
func commonDeviceName(claimUID types.UID) string {
	return string(claimUID) + "-common"
}

// claimDeviceName is unique per claim and device so that a runtime's CDI
// cache never resolves a stale spec for a new claim.
func claimDeviceName(claimUID types.UID, device string) string {
	return string(claimUID) + "-" + device
}

// envToken turns a device or capacity name into an env var fragment.
func envToken(name string) string {
	return strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// deviceEnv is the gpu profile's env for one allocated device.
func deviceEnv(claimUID types.UID, result resourceapi.DeviceRequestAllocationResult) []string {
	n := envToken(strings.TrimPrefix(result.Device, "gpu-"))
	prefix := "GPU_DEVICE_" + n
	admin := result.AdminAccess != nil && *result.AdminAccess
	env := []string{
		fmt.Sprintf("%s=%s", prefix, result.Device),
		prefix + "_SHARING_STRATEGY=TimeSlicing",
		prefix + "_TIMESLICE_INTERVAL=Default",
		// <CLASS>_DEVICE_<DEVICE>: the device name keeps its gpu- part here.
		fmt.Sprintf("GPU_DEVICE_%s_RESOURCE_CLAIM=%s", envToken(result.Device), claimUID),
		fmt.Sprintf("DRA_ADMIN_ACCESS=%t", admin),
	}
	// Sorted so that a retried Prepare writes byte-identical specs.
	names := make([]string, 0, len(result.ConsumedCapacity))
	for name := range result.ConsumedCapacity {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		quantity := result.ConsumedCapacity[resourceapi.QualifiedName(name)]
		env = append(env, fmt.Sprintf("%s_%s=%s", prefix, envToken(name), quantity.String()))
	}
	return env
}

// claimSpec builds the CDI spec for a claim's allocated devices (already
// filtered to this driver and pool) and the CDI device IDs per device.
func (w cdiWriter) claimSpec(claimUID types.UID, results []resourceapi.DeviceRequestAllocationResult) (cdiSpec, [][]string) {
	spec := cdiSpec{Version: cdiVersion, Kind: w.kind()}
	common := commonDeviceName(claimUID)
	ids := make([][]string, 0, len(results))
	for _, result := range results {
		name := claimDeviceName(claimUID, result.Device)
		spec.Devices = append(spec.Devices, cdiDevice{
			Name:           name,
			ContainerEdits: cdiContainerEdits{Env: deviceEnv(claimUID, result)},
		})
		// The device's own ID comes first: the kubelet names health
		// reports in pod status after the first CDI ID.
		ids = append(ids, []string{w.deviceID(name), w.deviceID(common)})
	}
	spec.Devices = append(spec.Devices, cdiDevice{
		Name: common,
		ContainerEdits: cdiContainerEdits{Env: []string{
			"KUBERNETES_NODE_NAME=" + w.node,
			"DRA_RESOURCE_DRIVER_NAME=" + w.driver,
		}},
	})
	return spec, ids
}

// write replaces the claim's spec atomically: containerd watches the
// directory and must never parse a half-written file. The temporary name
// does not end in .json, so the CDI cache ignores it.
func (w cdiWriter) write(claimUID types.UID, spec cdiSpec) error {
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode CDI spec: %w", err)
	}
	final := w.specPath(claimUID)
	tmp, err := os.CreateTemp(w.dir, "."+filepath.Base(final)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write CDI spec: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write CDI spec: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write CDI spec: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write CDI spec: %w", err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return fmt.Errorf("write CDI spec: %w", err)
	}
	return nil
}

// remove deletes the claim's spec; a missing file means already unprepared.
func (w cdiWriter) remove(claimUID types.UID) error {
	err := os.Remove(w.specPath(claimUID))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove CDI spec: %w", err)
	}
	return nil
}
