// Command practicedriver is the practice cluster's DRA kubelet plugin. It
// plays dra-example-driver's gpu profile on one real node: it publishes the
// node's ResourceSlice, prepares claims as CDI specs and streams device
// health (KEP-4680) read from annotations on the Node. It is not
// dra-example-driver.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	"k8s.io/klog/v2"
)

// errSignal is the cause of a clean shutdown.
var errSignal = errors.New("signal received")

// config is the parsed command line.
type config struct {
	kubeconfig     string
	nodeName       string
	kubeletDir     string
	cdiDir         string
	devices        int
	driver         string
	healthInterval time.Duration
}

// parseFlags reads the command line; a usage error exits with status 2.
func parseFlags(args []string) config {
	var cfg config
	fs := flag.NewFlagSet("practicedriver", flag.ExitOnError)
	fs.StringVar(&cfg.kubeconfig, "kubeconfig", "", "kubeconfig of the practice cluster (required)")
	fs.StringVar(&cfg.nodeName, "node-name", "", "the one node this driver serves; also its pool name (required)")
	fs.StringVar(&cfg.kubeletDir, "kubelet-dir", "", "the kubelet's --root-dir: registration goes to DIR/plugins_registry, the DRA socket to DIR/plugins/<driver> (required)")
	fs.StringVar(&cfg.cdiDir, "cdi-dir", "", "directory for CDI specs, one of containerd's CDI spec dirs (required)")
	fs.IntVar(&cfg.devices, "devices", 8, "number of devices gpu-0..gpu-N-1 to publish")
	fs.StringVar(&cfg.driver, "driver", "gpu.example.com", "DRA driver name")
	fs.DurationVar(&cfg.healthInterval, "health-interval", 5*time.Second, "how often device health is re-sent to the kubelet when nothing changed")
	// Only klog's verbosity: the helper logs gRPC calls at -v=6.
	klogFlags := flag.NewFlagSet("klog", flag.ExitOnError)
	klog.InitFlags(klogFlags)
	fs.Var(klogFlags.Lookup("v").Value, "v", "log `level` (6 logs every gRPC call)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "practice driver: a DRA kubelet plugin playing dra-example-driver's gpu profile on one node\n\nUsage: %s [flags]\n\n", fs.Name())
		fs.PrintDefaults()
	}
	_ = fs.Parse(args)

	var missing []string
	for _, name := range []string{"kubeconfig", "node-name", "kubelet-dir", "cdi-dir"} {
		if fs.Lookup(name).Value.String() == "" {
			missing = append(missing, "--"+name)
		}
	}
	switch {
	case len(missing) > 0:
		usageError(fs, fmt.Sprintf("missing required flags %v", missing))
	case fs.NArg() > 0:
		usageError(fs, fmt.Sprintf("unexpected arguments %v", fs.Args()))
	case cfg.devices < 1 || cfg.devices > 128: // 128: one ResourceSlice's device limit
		usageError(fs, "--devices must be between 1 and 128")
	case cfg.healthInterval <= 0:
		usageError(fs, "--health-interval must be positive")
	}
	return cfg
}

func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintf(fs.Output(), "practice driver: %s\n\n", msg)
	fs.Usage()
	os.Exit(2)
}

func main() {
	cfg := parseFlags(os.Args[1:])
	if err := run(cfg); err != nil {
		fmt.Fprintf(os.Stderr, "practice driver: %v\n", err)
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

// kubeClient checks the kubeconfig up front: clientcmd's own error for a
// missing file does not say which flag was wrong.
func kubeClient(path string) (kubernetes.Interface, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("--kubeconfig: %w", err)
	}
	restConfig, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig %s: %w", path, err)
	}
	restConfig.UserAgent = "practice-driver"
	return kubernetes.NewForConfig(restConfig)
}

func run(cfg config) error {
	client, err := kubeClient(cfg.kubeconfig)
	if err != nil {
		return err
	}
	registrarDir := filepath.Join(cfg.kubeletDir, "plugins_registry")
	pluginDir := filepath.Join(cfg.kubeletDir, "plugins", cfg.driver)
	// The Helper requires these to exist; the kubelet may not have made them yet.
	for _, dir := range []string{registrarDir, pluginDir, cfg.cdiDir} {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return err
		}
	}

	// SIGTERM/SIGINT and fatal driver errors both end ctx.
	ctx, fail := context.WithCancelCause(context.Background())
	defer fail(nil)
	signals, stopSignals := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-signals.Done()
		// A second signal then kills the process if shutdown hangs.
		stopSignals()
		fail(errSignal)
	}()
	logger := klog.LoggerWithName(klog.Background(), "practice driver")
	ctx = klog.NewContext(ctx, logger)

	health := newHealthMonitor(deviceNames(cfg.devices), time.Now())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		health.pollNode(ctx, client, cfg.nodeName)
	}()
	defer func() {
		fail(nil)
		wg.Wait()
	}()

	d := newDriver(cfg, health, fail)
	helper, err := kubeletplugin.Start(ctx, pluginFor(d),
		kubeletplugin.DriverName(cfg.driver),
		kubeletplugin.NodeName(cfg.nodeName),
		kubeletplugin.KubeClient(client),
		kubeletplugin.RegistrarDirectoryPath(registrarDir),
		kubeletplugin.PluginDataDirectoryPath(pluginDir),
	)
	if err != nil {
		return fmt.Errorf("start kubelet plugin: %w", err)
	}
	// Stop closes the registration and DRA sockets and stops the slice
	// controller; it does not delete the ResourceSlice. The kubelet wipes the
	// node's slices for this driver itself, 30 s after the plugin went away
	// (pkg/kubelet/cm/dra: defaultWipingDelay), unless it comes back first.
	defer helper.Stop()

	logger.Info("Serving", "driver", cfg.driver, "node", cfg.nodeName, "devices", cfg.devices,
		"registrar", registrarDir, "plugin", pluginDir, "cdi", cfg.cdiDir)
	// Unlike its doc comment says, the first PublishResources blocks until the
	// slice informer has synced, so a signal can interrupt it: that is a
	// clean stop, not a failure.
	if err := helper.PublishResources(ctx, driverResources(cfg.nodeName, cfg.devices)); err != nil && ctx.Err() == nil {
		return fmt.Errorf("publish resources: %w", err)
	}
	if ctx.Err() == nil {
		logger.Info("Publishing ResourceSlice", "pool", cfg.nodeName)
	}

	<-ctx.Done()
	cause := context.Cause(ctx)
	logger.Info("Stopping", "reason", cause)
	if errors.Is(cause, errSignal) {
		return nil
	}
	return cause
}
