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
// their 1.37 defaults (pkg/features/kube_features.go at v1.37.2):
// DRAFractionalCapacityRange beta and on, DRADeviceCompatibilityGroups alpha
// and off.
var releaseFeatures = map[string]bool{
	"FractionalCapacityRange": true,
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
