package main

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

func TestDeviceUUIDMatchesSeed(t *testing.T) {
	// Recorded from gsb_tui.cluster.seed.device_uuid("n1", 3).
	const want = "gpu-626d41e0-e238-4716-8c11-816475a2ebed"
	if got := deviceUUID("n1", 3); got != want {
		t.Fatalf("deviceUUID(n1, 3) = %s, want %s", got, want)
	}
}

func TestPoolDevicesShape(t *testing.T) {
	devices := poolDevices("n1", 2)
	if len(devices) != 2 || devices[1].Name != "gpu-1" {
		t.Fatalf("devices = %+v", devices)
	}
	d := devices[1]
	if *d.Attributes["index"].IntValue != 1 || *d.Attributes["uuid"].StringValue != deviceUUID("n1", 1) ||
		*d.Attributes["model"].StringValue != "LATEST-GPU-MODEL" || *d.Attributes["driverVersion"].VersionValue != "1.0.0" {
		t.Errorf("attributes = %+v", d.Attributes)
	}
	memory, compute := d.Capacity["memory"].Value, d.Capacity["compute"].Value
	if memory.String() != "80Gi" || compute.String() != "100" {
		t.Errorf("capacity = %+v", d.Capacity)
	}
	pools := driverResources("n1", 2).Pools
	if len(pools) != 1 || len(pools["n1"].Slices) != 1 {
		t.Errorf("pools = %+v", pools)
	}
}

// twoDeviceClaim has two of our devices plus results prepare must skip.
func twoDeviceClaim() *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "pair", Namespace: "dra-lab", UID: types.UID("c0ffee00-0000-4000-8000-000000000001")},
		Status: resourceapi.ResourceClaimStatus{Allocation: &resourceapi.AllocationResult{
			Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
				{Request: "gpus", Driver: "gpu.example.com", Pool: "n1", Device: "gpu-0"},
				{Request: "gpus", Driver: "gpu.example.com", Pool: "n1", Device: "gpu-3", AdminAccess: ptr.To(true),
					ConsumedCapacity: map[resourceapi.QualifiedName]resource.Quantity{
						"memory":  resource.MustParse("40Gi"),
						"compute": resource.MustParse("50"),
					}},
				{Request: "nic", Driver: "net.example.com", Pool: "n1", Device: "eth0"},
				{Request: "gpus", Driver: "gpu.example.com", Pool: "n2", Device: "gpu-1"},
			}},
		}},
	}
}

func TestPrepareWritesCDISpec(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(config{driver: "gpu.example.com", nodeName: "n1", devices: 8, cdiDir: dir}, nil, nil)
	claim := twoDeviceClaim()
	uid := string(claim.UID)

	result := d.prepare(claim)
	if result.Err != nil {
		t.Fatal(result.Err)
	}
	if len(result.Devices) != 2 {
		t.Fatalf("prepared %d devices, want 2: %+v", len(result.Devices), result.Devices)
	}
	common := "gpu.example.com/gpu=" + uid + "-common"
	wantIDs := [][]string{
		{"gpu.example.com/gpu=" + uid + "-gpu-0", common},
		{"gpu.example.com/gpu=" + uid + "-gpu-3", common},
	}
	for i, device := range result.Devices {
		if device.PoolName != "n1" || !reflect.DeepEqual(device.Requests, []string{"gpus"}) || !reflect.DeepEqual(device.CDIDeviceIDs, wantIDs[i]) {
			t.Errorf("device %d = %+v", i, device)
		}
	}

	path := d.cdi.specPath(claim.UID)
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:\n%s", path, first)
	var spec cdiSpec
	if err := json.Unmarshal(first, &spec); err != nil {
		t.Fatal(err)
	}
	want := cdiSpec{Version: "0.6.0", Kind: "gpu.example.com/gpu", Devices: []cdiDevice{
		{Name: uid + "-gpu-0", ContainerEdits: cdiContainerEdits{Env: []string{
			"GPU_DEVICE_0=gpu-0",
			"GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing",
			"GPU_DEVICE_0_TIMESLICE_INTERVAL=Default",
			"GPU_DEVICE_GPU_0_RESOURCE_CLAIM=" + uid,
			"DRA_ADMIN_ACCESS=false",
		}}},
		{Name: uid + "-gpu-3", ContainerEdits: cdiContainerEdits{Env: []string{
			"GPU_DEVICE_3=gpu-3",
			"GPU_DEVICE_3_SHARING_STRATEGY=TimeSlicing",
			"GPU_DEVICE_3_TIMESLICE_INTERVAL=Default",
			"GPU_DEVICE_GPU_3_RESOURCE_CLAIM=" + uid,
			"DRA_ADMIN_ACCESS=true",
			"GPU_DEVICE_3_COMPUTE=50",
			"GPU_DEVICE_3_MEMORY=40Gi",
		}}},
		{Name: uid + "-common", ContainerEdits: cdiContainerEdits{Env: []string{
			"KUBERNETES_NODE_NAME=n1",
			"DRA_RESOURCE_DRIVER_NAME=gpu.example.com",
		}}},
	}}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec = %+v\nwant  %+v", spec, want)
	}

	// A kubelet retry rewrites the same bytes and leaves no temporary files.
	if again := d.prepare(claim); again.Err != nil || !reflect.DeepEqual(again, result) {
		t.Errorf("second prepare = %+v, want %+v", again, result)
	}
	second, _ := os.ReadFile(path)
	if string(second) != string(first) {
		t.Errorf("second prepare changed the spec")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("CDI dir has %d entries, want 1", len(entries))
	}

	// Unprepare removes the spec; twice, and for unknown claims, is fine.
	unknown := types.UID("never-prepared")
	for range 2 {
		for _, uid := range []types.UID{claim.UID, unknown} {
			if err := d.cdi.remove(uid); err != nil {
				t.Errorf("remove(%s): %v", uid, err)
			}
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("spec still there after unprepare: %v", err)
	}
}

func TestPrepareRejectsUnknownDevice(t *testing.T) {
	d := newDriver(config{driver: "gpu.example.com", nodeName: "n1", devices: 2, cdiDir: t.TempDir()}, nil, nil)
	claim := twoDeviceClaim() // gpu-3 is not among 2 devices
	if result := d.prepare(claim); result.Err == nil {
		t.Fatalf("prepare of gpu-3 with 2 devices succeeded: %+v", result)
	}
}

func TestHealthFromAnnotations(t *testing.T) {
	devices := deviceNames(6)
	report := healthFromAnnotations(map[string]string{
		"health.example.com/gpu-1": "unhealthy",
		"health.example.com/gpu-2": "UnKnown",
		"health.example.com/gpu-3": "Healthy",
		"health.example.com/gpu-4": "broken", // not a health word: healthy
		"health.example.com/gpu-9": "unhealthy",
		"other.example.com/gpu-5":  "unhealthy",
	}, devices)
	want := []deviceHealth{
		{Device: "gpu-0", Health: healthHealthy},
		{Device: "gpu-1", Health: healthUnhealthy, Message: "practice driver: marked unhealthy by annotation health.example.com/gpu-1"},
		{Device: "gpu-2", Health: healthUnknown, Message: "practice driver: marked unknown by annotation health.example.com/gpu-2"},
		{Device: "gpu-3", Health: healthHealthy},
		{Device: "gpu-4", Health: healthHealthy},
		{Device: "gpu-5", Health: healthHealthy},
	}
	if !reflect.DeepEqual(report, want) {
		t.Errorf("report = %+v\nwant     %+v", report, want)
	}
}

func TestHealthWatchSendsOnConnectAndChange(t *testing.T) {
	h := newHealthMonitor(deviceNames(2), time.Unix(100, 0))
	ctx, cancel := context.WithCancel(context.Background())
	sent := make(chan []deviceHealth, 10)
	done := make(chan error)
	go func() {
		done <- h.watch(ctx, time.Hour, func(report []deviceHealth) error {
			sent <- report
			return nil
		})
	}()
	first := <-sent
	if first[1].Health != healthHealthy || first[1].LastUpdated != time.Unix(100, 0) {
		t.Errorf("first report = %+v", first)
	}
	if h.update(nil, time.Unix(101, 0)) {
		t.Error("update without change reported a change")
	}
	if !h.update(map[string]string{"health.example.com/gpu-1": "unhealthy"}, time.Unix(102, 0)) {
		t.Error("update with change reported none")
	}
	second := <-sent
	if second[1].Health != healthUnhealthy || second[1].LastUpdated != time.Unix(102, 0) {
		t.Errorf("second report = %+v", second)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("watch returned %v after cancel", err)
	}
}

func TestHealthWatchResendsEveryInterval(t *testing.T) {
	h := newHealthMonitor(deviceNames(1), time.Now())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	count := 0
	_ = h.watch(ctx, 50*time.Millisecond, func([]deviceHealth) error {
		if count++; count == 3 {
			cancel()
		}
		return nil
	})
	if count < 3 {
		t.Errorf("sent %d reports in 1s at a 50ms interval", count)
	}
}
