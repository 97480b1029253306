// Command gsb-alloc-oracle is the test oracle for gsb-tui's DRA allocator mirror.
//
// It reads one snapshot (JSON on stdin), runs upstream's own code on it as
// kube-scheduler would for every pending pod (no spec.nodeName), and
// writes per pod and node whether the pod fits (JSON on stdout). Nothing of
// upstream is copied here: the allocator, the ResourceSlice tracker that
// applies DeviceTaintRules, the claim helpers and the node-filter helpers are
// called from their packages; this file is the glue the scheduler framework
// would otherwise be.
//
// What it mirrors, in the scheduler's order:
//
//   - DynamicResources.PreFilter: the pod's claims (resourceclaim.Name,
//     IsForPod, CanBeReserved, IsReservedForPod), the device classes of the
//     claims to allocate, the allocated state of all claims (as
//     allocateddevices.go and GatherAllocatedState build it), the slices with
//     DeviceTaintRules applied, structured.NewAllocator once per pod.
//   - The Filter plugins in the default profile's order: NodeUnschedulable,
//     TaintToleration, NodeAffinity (node selector and required affinity),
//     then DynamicResources.Filter (allocated claims' node selectors, then
//     Allocate with the default 10 s filter timeout).
//
// What it does not: extended resources backed by DRA, binding conditions of
// already allocated claims, pod groups, scheduling gates, the other filter
// plugins (ports, node resources, volumes, topology spread, inter-pod
// affinity), and pods being placed one after the other: every pod is judged
// against the snapshot alone, as if it were the next one to be scheduled.
//
// Claims and slices get the API server's defaults first (SetObjectDefaults_* of
// k8s.io/kubernetes/pkg/apis/resource/v1); nodes, pods and classes are taken as
// they are.
//
// It is built once per Kubernetes release, from that release's module
// (cluster/go.mod for 1.36, cluster/v1.37/go.mod with the build tag k137):
// release_136.go and release_137.go hold what differs between them.
//
// Exit status: 0 with the result, 2 with a one-line message on stderr when the
// input cannot be used.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	v1helper "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"
	resourcedefaults "k8s.io/kubernetes/pkg/apis/resource/v1"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
	"k8s.io/utils/ptr"
	sigsjson "sigs.k8s.io/json"
)

// Texts of the scheduler plugins' statuses, as in 1.36.3.
const (
	reasonNodeUnschedulable = "node(s) were unschedulable"                        // nodeunschedulable.ErrReasonUnschedulable
	reasonNodeTaint         = "node(s) had untolerated taint(s)"                  // tainttoleration.Filter
	reasonNodeAffinity      = "node(s) didn't match Pod's node affinity/selector" // nodeaffinity.ErrReasonPod
	reasonClaimNode         = "resourceclaim not available on the node"           // dynamicresources.Filter
	reasonNotAll            = "cannot allocate all claims"                        // dynamicresources.Filter
	reasonInUse             = "resourceclaim in use"                              // dynamicresources.PreFilter

	// config.DynamicResourcesFilterTimeoutDefault (DRASchedulerFilterTimeout is on by default).
	filterTimeout = 10 * time.Second
	// How long the informers behind the slice tracker may take to list the snapshot.
	syncTimeout = 30 * time.Second
)

// featureNames are the keys "features" accepts. All default to true: the six
// allocator features are on by default in Kubernetes 1.36. DeviceTaintRules
// (the DRADeviceTaintRules gate, beta but off by default in 1.36 because its
// v1beta2 API is) decides whether "rules" are applied; it defaults to true here
// so that rules given in the snapshot count, as in a cluster that serves them.
var featureNames = []string{
	"AdminAccess", "PrioritizedList", "PartitionableDevices", "DeviceTaints",
	"DeviceBindingAndStatus", "ConsumableCapacity", "DeviceTaintRules",
}

type snapshot struct {
	Slices   []resourceapi.ResourceSlice `json:"slices"`
	Classes  []resourceapi.DeviceClass   `json:"classes"`
	Claims   []resourceapi.ResourceClaim `json:"claims"`
	Nodes    []v1.Node                   `json:"nodes"`
	Pods     []v1.Pod                    `json:"pods"`
	Rules    []taintRule                 `json:"rules"`
	Features map[string]bool             `json:"features"`
}

type deviceOut struct {
	Claim   string `json:"claim"`
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
	ShareID bool   `json:"shareID"`
}

type podOut struct {
	Fits       bool                   `json:"fits"`
	Nodes      []string               `json:"nodes"`
	Error      *string                `json:"error"`
	PodReason  *string                `json:"pod_reason"`
	NodeStatus map[string]string      `json:"node_status"`
	Stage      map[string]string      `json:"stage"`
	Allocation map[string][]deviceOut `json:"allocation"`
}

type output struct {
	Release string             `json:"release"` // the Kubernetes minor it was built for
	Pods    map[string]*podOut `json:"pods"`
}

// badInput is an error in the snapshot itself: exit 2.
type badInput struct{ msg string }

func (e badInput) Error() string { return e.msg }

func fail(format string, args ...any) error { return badInput{fmt.Sprintf(format, args...)} }

func main() {
	// Upstream logs through klog; the oracle's stderr is for its one-line failure.
	klog.SetLogger(logr.Discard())
	out, err := run(os.Stdin)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		fmt.Fprintf(os.Stderr, "gsb-alloc-oracle: %s\n", msg)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "gsb-alloc-oracle: writing the result: %v\n", err)
		os.Exit(1)
	}
}

func run(in io.Reader) (result *output, finalErr error) {
	defer func() {
		if r := recover(); r != nil {
			result, finalErr = nil, fail("internal error on this input: panic: %v", r)
		}
	}()
	snap, err := decode(in)
	if err != nil {
		return nil, err
	}
	features, applyRules, err := readFeatures(snap.Features)
	if err != nil {
		return nil, err
	}
	ctx := klog.NewContext(context.Background(), logr.Discard())

	slicesPatched, err := patchedSlices(ctx, snap, features.DeviceTaints && applyRules, features.ConsumableCapacity)
	if err != nil {
		return nil, err
	}
	classes := classLister{byName: map[string]*resourceapi.DeviceClass{}}
	for i := range snap.Classes {
		c := &snap.Classes[i]
		if c.Name == "" {
			return nil, fail("classes[%d]: metadata.name is empty", i)
		}
		classes.byName[c.Name] = c
	}
	claims := map[string]*resourceapi.ResourceClaim{}
	for i := range snap.Claims {
		c := &snap.Claims[i]
		if c.Name == "" {
			return nil, fail("claims[%d]: metadata.name is empty", i)
		}
		claims[c.Namespace+"/"+c.Name] = c
	}
	nodes := make([]*v1.Node, 0, len(snap.Nodes))
	for i := range snap.Nodes {
		if snap.Nodes[i].Name == "" {
			return nil, fail("nodes[%d]: metadata.name is empty", i)
		}
		nodes = append(nodes, &snap.Nodes[i])
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })

	state := allocatedState(snap.Claims, features.ConsumableCapacity)
	celCache := cel.NewCache(10, cel.Features{EnableConsumableCapacity: features.ConsumableCapacity})
	env := &environment{
		features: features,
		state:    state,
		classes:  classes,
		slices:   slicesPatched,
		claims:   claims,
		nodes:    nodes,
		celCache: celCache,
	}
	result = &output{Release: release, Pods: map[string]*podOut{}}
	for i := range snap.Pods {
		pod := &snap.Pods[i]
		if pod.Spec.NodeName != "" {
			continue
		}
		if pod.Name == "" {
			return nil, fail("pods[%d]: metadata.name is empty", i)
		}
		result.Pods[pod.Namespace+"/"+pod.Name] = env.judge(ctx, pod)
	}
	return result, nil
}

func decode(in io.Reader) (*snapshot, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fail("reading stdin: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fail("no input: expected one JSON object on stdin")
	}
	var top map[string]json.RawMessage
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, &top); err != nil {
		return nil, fail("input is not a JSON object: %v", err)
	}
	known := sets.New("slices", "classes", "claims", "nodes", "pods", "rules", "features")
	for key := range top {
		if !known.Has(key) {
			return nil, fail("unknown key %q in the input (known: %s)", key, strings.Join(sets.List(known), ", "))
		}
	}
	var snap snapshot
	// Case-sensitive field names, as the API server decodes them.
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, &snap); err != nil {
		return nil, fail("decoding the snapshot: %v", err)
	}
	// The API server's defaults (allocationMode ExactCount, count 1, ...), so that a
	// hand-made claim means what it would mean once created; recorded objects already
	// carry them and are unchanged.
	for i := range snap.Claims {
		resourcedefaults.SetObjectDefaults_ResourceClaim(&snap.Claims[i])
	}
	for i := range snap.Slices {
		resourcedefaults.SetObjectDefaults_ResourceSlice(&snap.Slices[i])
	}
	return &snap, nil
}

func readFeatures(overrides map[string]bool) (structured.Features, bool, error) {
	on := map[string]bool{}
	names := slices.Clone(featureNames)
	for _, name := range featureNames {
		on[name] = true
	}
	for name, value := range releaseFeatures {
		on[name] = value
		names = append(names, name)
	}
	sort.Strings(names)
	for name, value := range overrides {
		if _, ok := on[name]; !ok {
			return structured.Features{}, false, fail("unknown feature %q (known: %s)", name, strings.Join(names, ", "))
		}
		on[name] = value
	}
	return allocatorFeatures(on), on["DeviceTaintRules"], nil
}

// commonFeatures are the allocator features every release sets from its gates
// (dynamicresources.AllocatorFeatures); release_<minor>.go adds its own.
func commonFeatures(on map[string]bool) structured.Features {
	return structured.Features{
		AdminAccess:            on["AdminAccess"],
		PrioritizedList:        on["PrioritizedList"],
		PartitionableDevices:   on["PartitionableDevices"],
		DeviceTaints:           on["DeviceTaints"],
		DeviceBindingAndStatus: on["DeviceBindingAndStatus"],
		ConsumableCapacity:     on["ConsumableCapacity"],
	}
}

// patchedSlices returns the snapshot's slices with DeviceTaintRules applied by
// upstream's own resourceslice tracker (tracker.StartTracker and
// ListPatchedResourceSlices, the same calls kube-scheduler makes). The tracker
// needs informers; here they list a fake clientset that holds the snapshot,
// so the patching is the tracker's, not ours. When rules are off the tracker
// is the thin wrapper the scheduler uses then (slices as they are).
func patchedSlices(ctx context.Context, snap *snapshot, enableRules, consumableCapacity bool) ([]*resourceapi.ResourceSlice, error) {
	objects := make([]runtime.Object, 0, len(snap.Slices)+len(snap.Rules)+len(snap.Classes))
	for i := range snap.Slices {
		if snap.Slices[i].Name == "" {
			return nil, fail("slices[%d]: metadata.name is empty", i)
		}
		objects = append(objects, snap.Slices[i].DeepCopy())
	}
	for i := range snap.Rules {
		if snap.Rules[i].Name == "" {
			return nil, fail("rules[%d]: metadata.name is empty", i)
		}
		objects = append(objects, snap.Rules[i].DeepCopy())
	}
	for i := range snap.Classes {
		if snap.Classes[i].Name == "" {
			return nil, fail("classes[%d]: metadata.name is empty", i)
		}
		objects = append(objects, snap.Classes[i].DeepCopy())
	}
	client := fake.NewClientset()
	for _, obj := range objects {
		// One at a time, so that a duplicate name is reported, not lost.
		if err := client.Tracker().Add(obj); err != nil {
			return nil, fail("loading the snapshot: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactory(client, 0)
	opts := tracker.Options{
		EnableDeviceTaintRules:   enableRules,
		EnableConsumableCapacity: consumableCapacity,
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
	}
	if enableRules {
		watchRules(&opts, factory)
	}
	t, err := tracker.StartTracker(ctx, opts)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("starting the resourceslice tracker: %w", err)
	}
	defer func() {
		t.Stop()
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	syncCtx, syncCancel := context.WithTimeout(ctx, syncTimeout)
	defer syncCancel()
	for informerType, ok := range factory.WaitForCacheSync(syncCtx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer for %v did not sync", informerType)
		}
	}
	select {
	case <-t.HasSyncedChecker().Done():
	case <-syncCtx.Done():
		return nil, errors.New("the resourceslice tracker did not sync")
	}
	list, err := t.ListPatchedResourceSlices()
	if err != nil {
		return nil, fmt.Errorf("listing patched slices: %w", err)
	}
	// The scheduler gets them in its cache's order; by name here, so that the
	// first fit the allocator picks is the same on every run.
	slices.SortFunc(list, func(a, b *resourceapi.ResourceSlice) int { return strings.Compare(a.Name, b.Name) })
	return list, nil
}

// allocatedState is what the scheduler's claim tracker gathers from all
// allocated claims (allocateddevices.go: foreachAllocatedDevice, addDevices;
// dra_manager.go: GatherAllocatedState / ListAllAllocatedDevices): results
// with admin access are not allocated; with consumable capacity on, results
// with a shareID are shared devices plus their consumed capacity, all others
// are dedicated devices.
func allocatedState(claims []resourceapi.ResourceClaim, consumableCapacity bool) structured.AllocatedState {
	state := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for i := range claims {
		allocation := claims[i].Status.Allocation
		if allocation == nil {
			continue
		}
		for _, result := range allocation.Devices.Results {
			if ptr.Deref(result.AdminAccess, false) {
				continue
			}
			id := structured.MakeDeviceID(result.Driver, result.Pool, result.Device)
			if consumableCapacity && result.ShareID != nil {
				state.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, result.ShareID))
				if result.ConsumedCapacity != nil {
					state.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, result.ConsumedCapacity))
				}
				continue
			}
			state.AllocatedDevices.Insert(id)
		}
	}
	return state
}

// classLister serves the snapshot's DeviceClasses to the allocator, with the
// informer lister's not-found error.
type classLister struct {
	byName map[string]*resourceapi.DeviceClass
}

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	if c, ok := l.byName[name]; ok {
		return c, nil
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("deviceclass"), name)
}

func (l classLister) List() ([]*resourceapi.DeviceClass, error) {
	out := make([]*resourceapi.DeviceClass, 0, len(l.byName))
	for _, c := range l.byName {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *resourceapi.DeviceClass) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

type environment struct {
	features structured.Features
	state    structured.AllocatedState
	classes  classLister
	slices   []*resourceapi.ResourceSlice
	claims   map[string]*resourceapi.ResourceClaim
	nodes    []*v1.Node
	celCache *cel.Cache
}

// preFilter is DynamicResources.PreFilter's outcome for one pod.
type preFilter struct {
	claims     []*resourceapi.ResourceClaim // all of the pod's claims, in its order
	selectors  []*nodeaffinity.NodeSelector // per claim: the allocation's node selector, if allocated with one
	toAllocate []*resourceapi.ResourceClaim // the unallocated ones, in the pod's order
	allocator  structured.Allocator         // nil when nothing is to be allocated
}

func (env *environment) judge(ctx context.Context, pod *v1.Pod) (out *podOut) {
	out = &podOut{
		Nodes:      []string{},
		NodeStatus: map[string]string{},
		Stage:      map[string]string{},
		Allocation: map[string][]deviceOut{},
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: panic: %v", r)
			out.Fits, out.Nodes, out.Allocation = false, []string{}, map[string][]deviceOut{}
			out.Error = &msg
		}
	}()
	pre, reason, err := env.preFilter(ctx, pod)
	switch {
	case err != nil:
		msg := err.Error()
		out.Error = &msg
		return out
	case reason != "":
		out.PodReason = &reason
		return out
	}

	allocations := map[string][]resourceapi.AllocationResult{}
	for _, node := range env.nodes {
		stage, text, results := env.filter(ctx, pod, pre, node)
		out.Stage[node.Name] = stage
		if stage == "ok" {
			out.NodeStatus[node.Name] = "ok"
			allocations[node.Name] = results
			continue
		}
		if stage == "error" {
			// The scheduler's Error status (not Unschedulable): it aborts the attempt.
			if out.Error == nil {
				msg := text
				out.Error = &msg
			}
			text = "error: " + text
		}
		out.NodeStatus[node.Name] = text
	}
	if out.Error != nil {
		// A filter error aborts the scheduling attempt: the pod fits nowhere.
		return out
	}
	for _, node := range env.nodes {
		results, ok := allocations[node.Name]
		if !ok {
			continue
		}
		out.Nodes = append(out.Nodes, node.Name)
		devices := []deviceOut{}
		for i, result := range results {
			claim := pre.toAllocate[i]
			for _, d := range result.Devices.Results {
				devices = append(devices, deviceOut{
					Claim:   claim.Namespace + "/" + claim.Name,
					Request: d.Request,
					Driver:  d.Driver,
					Pool:    d.Pool,
					Device:  d.Device,
					ShareID: d.ShareID != nil,
				})
			}
		}
		out.Allocation[node.Name] = devices
	}
	out.Fits = len(out.Nodes) > 0
	return out
}

// preFilter mirrors DynamicResources.PreFilter (with foreachPodResourceClaim
// and validateDeviceClass). It returns an unschedulable reason for the whole
// pod, or an error (the scheduler's statusError), or what Filter needs.
func (env *environment) preFilter(ctx context.Context, pod *v1.Pod) (*preFilter, string, error) {
	pre := &preFilter{}
	for i := range pod.Spec.ResourceClaims {
		podClaim := &pod.Spec.ResourceClaims[i]
		name, mustCheckOwner, err := resourceclaim.Name(pod, podClaim)
		if err != nil {
			return nil, err.Error(), nil
		}
		if name == nil {
			// No claim was made on purpose: the scheduler skips the entry.
			continue
		}
		key := pod.Namespace + "/" + *name
		claim, ok := env.claims[key]
		if !ok {
			// What the scheduler's assume cache answers for a claim it does not have.
			return nil, (&assumecache.NotFoundError{TypeName: "ResourceClaim", ObjectKey: key}).Error(), nil
		}
		if claim.DeletionTimestamp != nil {
			return nil, fmt.Sprintf("resourceclaim %q is being deleted", claim.Name), nil
		}
		if mustCheckOwner {
			// acceptPodGroupOwner: DRAWorkloadResourceClaims is alpha, off.
			if err := resourceclaim.IsForPod(pod, claim, false); err != nil {
				return nil, err.Error(), nil
			}
		}
		pre.claims = append(pre.claims, claim)
	}
	if len(pre.claims) == 0 {
		// PreFilter returns Skip: DynamicResources does not filter this pod.
		return pre, "", nil
	}
	pre.selectors = make([]*nodeaffinity.NodeSelector, len(pre.claims))
	for index, claim := range pre.claims {
		if claim.Status.Allocation != nil &&
			!resourceclaim.CanBeReserved(claim) &&
			!resourceclaim.IsReservedForPod(pod, claim, false) {
			return nil, reasonInUse, nil
		}
		if claim.Status.Allocation != nil {
			if claim.Status.Allocation.NodeSelector != nil {
				selector, err := nodeaffinity.NewNodeSelector(claim.Status.Allocation.NodeSelector)
				if err != nil {
					return nil, "", err
				}
				pre.selectors[index] = selector
			}
			continue
		}
		pre.toAllocate = append(pre.toAllocate, claim)
		for _, request := range claim.Spec.Devices.Requests {
			switch {
			case request.Exactly != nil:
				if reason, err := env.validateDeviceClass(request.Exactly.DeviceClassName, request.Name); reason != "" || err != nil {
					return nil, reason, err
				}
			case len(request.FirstAvailable) > 0:
				if !env.features.PrioritizedList {
					return nil, fmt.Sprintf("resource claim %s, request %s: has subrequests, but the DRAPrioritizedList feature is disabled", klog.KObj(claim), request.Name), nil
				}
				for _, sub := range request.FirstAvailable {
					qualified := strings.Join([]string{request.Name, sub.Name}, "/")
					if reason, err := env.validateDeviceClass(sub.DeviceClassName, qualified); reason != "" || err != nil {
						return nil, reason, err
					}
				}
			default:
				return nil, fmt.Sprintf("resource claim %s, request %s: unknown request type", klog.KObj(claim), request.Name), nil
			}
		}
	}
	if len(pre.toAllocate) > 0 {
		allocator, err := structured.NewAllocator(ctx, env.features, env.state, env.classes, env.slices, env.celCache)
		if err != nil {
			return nil, "", err
		}
		pre.allocator = allocator
	}
	return pre, "", nil
}

func (env *environment) validateDeviceClass(className, requestName string) (string, error) {
	if className == "" {
		return "", fmt.Errorf("request %s: unsupported request type", requestName)
	}
	if _, err := env.classes.Get(className); err != nil && apierrors.IsNotFound(err) {
		return fmt.Sprintf("request %s: device class %s does not exist", requestName, className), nil
	}
	return "", nil
}

// filter runs the Filter plugins for one node in the default profile's order
// and stops at the first that rejects it, as the framework does. It returns
// the stage, the status text and, when the pod fits, the allocation results
// (one per claim to allocate).
func (env *environment) filter(ctx context.Context, pod *v1.Pod, pre *preFilter, node *v1.Node) (string, string, []resourceapi.AllocationResult) {
	logger := klog.FromContext(ctx)
	// NodeUnschedulable. TaintTolerationComparisonOperators is alpha, off.
	if node.Spec.Unschedulable && !v1helper.TolerationsTolerateTaint(logger, pod.Spec.Tolerations, &v1.Taint{
		Key:    v1.TaintNodeUnschedulable,
		Effect: v1.TaintEffectNoSchedule,
	}, false) {
		return "node-unschedulable", reasonNodeUnschedulable, nil
	}
	// TaintToleration: NoSchedule and NoExecute taints (helper.DoNotScheduleTaintsFilterFunc).
	if _, untolerated := v1helper.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, pod.Spec.Tolerations,
		func(t *v1.Taint) bool {
			return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
		}, false); untolerated {
		return "node-taint", reasonNodeTaint, nil
	}
	// NodeAffinity: spec.nodeSelector and required node affinity; parse errors count as no match.
	if match, _ := nodeaffinity.GetRequiredNodeAffinity(pod).Match(node); !match {
		return "node-selector", reasonNodeAffinity, nil
	}
	if len(pre.claims) == 0 {
		return "ok", "", nil
	}

	// DynamicResources.Filter. As upstream does, a claim whose allocation does
	// not match the node is only remembered here: Allocate still runs, and its
	// error (if any) is what the node reports.
	unavailable := false
	for index := range pre.claims {
		if selector := pre.selectors[index]; selector != nil && !selector.Match(node) {
			unavailable = true
		}
	}
	var results []resourceapi.AllocationResult
	if pre.allocator != nil {
		allocCtx, cancel := context.WithTimeout(ctx, filterTimeout)
		defer cancel()
		var err error
		results, err = pre.allocator.Allocate(allocCtx, node, pre.toAllocate)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return "error", fmt.Sprintf("node %s: timed out trying to allocate devices", node.Name), nil
		case errors.Is(err, structured.ErrFailedAllocationOnNode):
			return "allocate", err.Error(), nil
		case err != nil:
			return "error", err.Error(), nil
		}
		if len(results) != len(pre.toAllocate) {
			return "allocate", reasonNotAll, nil
		}
	}
	if unavailable {
		return "claim-node", reasonClaimNode, nil
	}
	return "ok", "", results
}
