//go:build k137

package main

import (
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/client-go/informers"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
)

// release is the Kubernetes minor whose modules this build uses.
const release = "1.37"

// DeviceTaintRules are GA in 1.37 and kube-scheduler reads them at v1.
type taintRule = resourceapi.DeviceTaintRule

// releaseFeatures are the 1.37 allocator features beyond featureNames, with
// their defaults as a 1.37.2 binary has them (pkg/features/kube_features.go):
// DRAFractionalCapacityRange is beta, but its default-on entry needs
// compatibility version 1.37 while a 1.37 binary's is 1.36, so it is off (the
// practice cluster's scheduler consumed 1, not 750m, for 600m in 250m steps);
// DRADeviceCompatibilityGroups is alpha and off.
var releaseFeatures = map[string]bool{
	"FractionalCapacityRange": false,
	"CompatibilityGroups":     false,
}

// allocatorFeatures are the fields dynamicresources.AllocatorFeatures sets in
// 1.37 that these defaults can turn on (ListTypeAttributes, DerivedAttributes
// and OptionalNodeOperations stay off: alpha gates this oracle does not take).
func allocatorFeatures(on map[string]bool) structured.Features {
	features := commonFeatures(on)
	features.FractionalCapacityRange = on["FractionalCapacityRange"]
	features.CompatibilityGroups = on["CompatibilityGroups"]
	return features
}

// watchRules gives the tracker the informer kube-scheduler 1.37 gives it.
func watchRules(opts *tracker.Options, factory informers.SharedInformerFactory) {
	opts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
}
