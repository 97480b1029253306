//go:build !k137

package main

import (
	resourcebetaapi "k8s.io/api/resource/v1beta2"
	"k8s.io/client-go/informers"
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
)

// release is the Kubernetes minor whose modules this build uses.
const release = "1.36"

// DeviceTaintRules are read at v1beta2 in 1.36 (the only version that serves them).
type taintRule = resourcebetaapi.DeviceTaintRule

// releaseFeatures are the features of this release beyond featureNames, with
// their defaults: none in 1.36.
var releaseFeatures = map[string]bool{}

// allocatorFeatures are the fields dynamicresources.AllocatorFeatures sets in
// 1.36 (ListTypeAttributes is not among them): the common ones.
func allocatorFeatures(on map[string]bool) structured.Features {
	return commonFeatures(on)
}

// watchRules gives the tracker the informers kube-scheduler 1.36 gives it.
func watchRules(opts *tracker.Options, factory informers.SharedInformerFactory) {
	opts.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
	opts.ClassInformer = factory.Resource().V1().DeviceClasses()
}
