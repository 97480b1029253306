// Command gsb-cni is the CNI plugin of the practice cluster's one real node.
//
// It implements the CNI spec 1.0.0 (ADD, DEL, CHECK, VERSION, plus STATUS and
// GC from 1.1.0) and never touches the host's network: every change happens
// inside the pod's network namespace (CNI_NETNS), so a test machine or a CI
// runner keeps exactly the links, addresses and routes it had.
//
// The same binary answers two network types, chosen by the config's "type":
//
//   - "loopback": brings lo up. containerd's CRI always runs a loopback network
//     before the pod network, so this binary is installed a second time under
//     the name "loopback".
//   - anything else (e.g. "gsb-netns"): creates a veth pair with BOTH ends in
//     the pod (CNI_IFNAME and a peer such as gsbpeer0), gives CNI_IFNAME an
//     address from "subnet" (default 10.88.0.0/16) picked from a hash of
//     CNI_CONTAINERID, and adds a default route via a gateway address held by
//     the peer. Programs that insist on a default route (or on an eth0 with an
//     address) work; a packet sent to the world ends at the peer, because a
//     fresh netns does not forward, so nothing leaves the pod.
//
// The netlink work is done by exec'ing `nsenter --net=CNI_NETNS ip ...`, so the
// plugin is Go standard library only and needs no third-party module.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Versions whose config and result formats this plugin speaks. Results are
// written in the config's version, because libcni parses them as that version
// (containerd's loopback network, for one, is still "0.3.1").
var supportedVersions = []string{"0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"}

const (
	latestVersion = "1.0.0"
	defaultSubnet = "10.88.0.0/16"
	ipTimeout     = 10 * time.Second
	// nsfsMagic is statfs(2)'s f_type for a network namespace file (NSFS_MAGIC).
	nsfsMagic = 0x6e736673
)

// Error codes from the CNI spec ("Error" section); 100+ are ours.
const (
	codeIncompatibleVersion = 1
	codeUnknownContainer    = 3
	codeInvalidEnv          = 4
	codeIOFailure           = 5
	codeDecodeFailure       = 6
	codeInvalidConfig       = 7
	codeTryAgainLater       = 11
	codePluginNotAvailable  = 50
	codeCheckFailed         = 100
)

// netConf is the part of the network config this plugin reads.
type netConf struct {
	CNIVersion string          `json:"cniVersion"`
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Subnet     string          `json:"subnet,omitempty"`
	Gateway    string          `json:"gateway,omitempty"`
	PrevResult json.RawMessage `json:"prevResult,omitempty"`
}

type cniError struct {
	CNIVersion string `json:"cniVersion"`
	Code       uint   `json:"code"`
	Msg        string `json:"msg"`
	Details    string `json:"details,omitempty"`
}

func (e *cniError) Error() string { return e.Msg }

func fail(code uint, details string, format string, args ...any) *cniError {
	return &cniError{Code: code, Msg: fmt.Sprintf(format, args...), Details: details}
}

type resultIface struct {
	Name    string `json:"name"`
	Mac     string `json:"mac,omitempty"`
	Sandbox string `json:"sandbox,omitempty"`
}

type resultIP struct {
	Version   string `json:"version,omitempty"` // only in results before 1.0.0
	Address   string `json:"address"`
	Gateway   string `json:"gateway,omitempty"`
	Interface *int   `json:"interface,omitempty"`
}

type resultRoute struct {
	Dst string `json:"dst"`
	GW  string `json:"gw,omitempty"`
}

type result struct {
	CNIVersion string        `json:"cniVersion"`
	Interfaces []resultIface `json:"interfaces,omitempty"`
	IPs        []resultIP    `json:"ips,omitempty"`
	Routes     []resultRoute `json:"routes,omitempty"`
	DNS        struct{}      `json:"dns"`
}

// env holds the CNI_* variables of one invocation.
type env struct {
	command     string
	containerID string
	netns       string
	ifname      string
}

func main() {
	e := env{
		command:     os.Getenv("CNI_COMMAND"),
		containerID: os.Getenv("CNI_CONTAINERID"),
		netns:       os.Getenv("CNI_NETNS"),
		ifname:      os.Getenv("CNI_IFNAME"),
	}
	version, err := run(e, os.Stdin, os.Stdout)
	if err != nil {
		var ce *cniError
		if !errors.As(err, &ce) {
			ce = fail(codeIOFailure, "", "%v", err)
		}
		if ce.CNIVersion == "" {
			ce.CNIVersion = version
		}
		out, _ := json.Marshal(ce)
		fmt.Fprintln(os.Stdout, string(out))
		os.Exit(1)
	}
}

// run executes one CNI command; it returns the version to report errors in.
func run(e env, stdin io.Reader, stdout io.Writer) (string, error) {
	raw, err := io.ReadAll(stdin)
	if err != nil {
		return latestVersion, fail(codeIOFailure, err.Error(), "reading the network config from stdin")
	}
	if e.command == "VERSION" {
		return latestVersion, cmdVersion(raw, stdout)
	}
	var conf netConf
	if err := json.Unmarshal(raw, &conf); err != nil {
		return latestVersion, fail(codeDecodeFailure, err.Error(), "decoding the network config")
	}
	version := conf.CNIVersion
	if version == "" {
		version = "0.1.0" // the spec's meaning of a config without cniVersion
	}
	if !slices.Contains(supportedVersions, version) {
		return latestVersion, fail(codeIncompatibleVersion, "supported: "+strings.Join(supportedVersions, ", "),
			"CNI version %q is not supported", version)
	}
	tools, toolErr := findTools()
	switch e.command {
	case "STATUS":
		// Ready as soon as the two programs we drive exist; we hold no state.
		if toolErr != nil {
			return version, fail(codePluginNotAvailable, toolErr.Error(), "plugin not available")
		}
		return version, nil
	case "GC":
		return version, nil // nothing is allocated outside the pod, so nothing to collect
	case "ADD", "DEL", "CHECK":
	default:
		return version, fail(codeInvalidEnv, "", "unknown CNI_COMMAND %q", e.command)
	}
	if err := e.require(); err != nil {
		return version, err
	}
	if toolErr != nil {
		return version, fail(codePluginNotAvailable, toolErr.Error(), "plugin not available")
	}
	if conf.Type == "loopback" {
		return version, loopback(e, tools, version, stdout)
	}
	return version, vethNet(e, tools, &conf, version, stdout)
}

func cmdVersion(raw []byte, stdout io.Writer) error {
	// libcni sends {"cniVersion": "..."}; answer in that version when we know it.
	version := latestVersion
	var conf netConf
	if json.Unmarshal(raw, &conf) == nil && slices.Contains(supportedVersions, conf.CNIVersion) {
		version = conf.CNIVersion
	}
	return writeJSON(stdout, map[string]any{"cniVersion": version, "supportedVersions": supportedVersions})
}

func (e env) require() error {
	missing := []string{}
	if e.containerID == "" {
		missing = append(missing, "CNI_CONTAINERID")
	}
	if e.ifname == "" {
		missing = append(missing, "CNI_IFNAME")
	}
	// DEL must work without a netns (the sandbox may already be gone).
	if e.netns == "" && e.command != "DEL" {
		missing = append(missing, "CNI_NETNS")
	}
	if len(missing) > 0 {
		return fail(codeInvalidEnv, "", "missing environment variable(s): %s", strings.Join(missing, ", "))
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	out, err := json.Marshal(v)
	if err != nil {
		return fail(codeIOFailure, err.Error(), "encoding the result")
	}
	_, err = fmt.Fprintln(w, string(out))
	return err
}

// netnsState says whether path exists and is a network namespace (a bind
// mount under /var/run/netns or /proc/PID/ns/net both statfs as nsfs).
func netnsState(path string) (exists, isNetns bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return !errors.Is(err, os.ErrNotExist), false
	}
	return true, st.Type == nsfsMagic
}

// checkNetns turns a missing or bogus CNI_NETNS into the spec's error codes.
func checkNetns(path string) error {
	exists, ok := netnsState(path)
	switch {
	case !exists:
		return fail(codeUnknownContainer, path, "network namespace %s does not exist", path)
	case !ok:
		return fail(codeInvalidEnv, path, "CNI_NETNS %s is not a network namespace", path)
	}
	return nil
}

// tools are the absolute paths of the programs the plugin execs.
type tools struct {
	nsenter string
	ip      string
}

// findTools looks in PATH first, then in the usual places: runtimes pass their
// own environment to plugins, and a service's PATH can be short.
func findTools() (tools, error) {
	find := func(name string) (string, error) {
		if p, err := exec.LookPath(name); err == nil {
			return filepath.Abs(p)
		}
		for _, dir := range []string{"/usr/sbin", "/sbin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/local/bin"} {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
		return "", fmt.Errorf("%s not found in PATH or the usual directories", name)
	}
	var t tools
	var err error
	if t.nsenter, err = find("nsenter"); err != nil {
		return t, err
	}
	t.ip, err = find("ip")
	return t, err
}

// ipError is a failed `ip` run, with its stderr for the CNI error's details.
type ipError struct {
	args     []string
	stderr   string
	timedOut bool
	err      error
}

func (e *ipError) Error() string {
	if e.timedOut {
		return fmt.Sprintf("ip %s: timed out after %s", strings.Join(e.args, " "), ipTimeout)
	}
	return fmt.Sprintf("ip %s: %v: %s", strings.Join(e.args, " "), e.err, strings.TrimSpace(e.stderr))
}

// notFound says the object (link, address) the command named does not exist.
func (e *ipError) notFound() bool {
	s := e.stderr
	return strings.Contains(s, "does not exist") || strings.Contains(s, "Cannot find device") ||
		strings.Contains(s, "No such device")
}

// asCNI wraps a failed command as "try again later": the usual causes (a
// timeout, a namespace being torn down, a busy netlink socket) are transient.
func asCNI(err error, what string) error {
	var ie *ipError
	if errors.As(err, &ie) {
		return fail(codeTryAgainLater, strings.TrimSpace(ie.stderr), "%s: %s", what, ie.Error())
	}
	return fail(codeTryAgainLater, err.Error(), "%s: %v", what, err)
}

// ipIn runs `ip ARGS...` inside netns, bounded by ipTimeout.
func (t tools) ipIn(netns string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ipTimeout)
	defer cancel()
	argv := append([]string{"--net=" + netns, t.ip}, args...)
	cmd := exec.CommandContext(ctx, t.nsenter, argv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin = nil
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second // do not hang on a child that keeps the pipes open
	err := cmd.Run()
	if err != nil {
		return stdout.String(), &ipError{
			args: args, stderr: stderr.String(), err: err,
			timedOut: errors.Is(ctx.Err(), context.DeadlineExceeded),
		}
	}
	return stdout.String(), nil
}

// ipLink is the part of `ip -j link/addr show` output we read.
type ipLink struct {
	Name     string   `json:"ifname"`
	Flags    []string `json:"flags"`
	Address  string   `json:"address"`
	AddrInfo []struct {
		Family    string `json:"family"`
		Local     string `json:"local"`
		PrefixLen int    `json:"prefixlen"`
	} `json:"addr_info"`
}

func (t tools) showLink(netns, name string) (*ipLink, error) {
	out, err := t.ipIn(netns, "-j", "addr", "show", "dev", name)
	if err != nil {
		return nil, err
	}
	var links []ipLink
	if err := json.Unmarshal([]byte(out), &links); err != nil || len(links) != 1 {
		return nil, fmt.Errorf("unexpected `ip -j addr show dev %s` output %q", name, out)
	}
	return &links[0], nil
}

func (l *ipLink) hasAddr(prefix netip.Prefix) bool {
	for _, a := range l.AddrInfo {
		if a.Family == "inet" && a.Local == prefix.Addr().String() && a.PrefixLen == prefix.Bits() {
			return true
		}
	}
	return false
}

func intPtr(i int) *int { return &i }

// ipEntry builds a result IP; results before 1.0.0 also carry "version".
func ipEntry(cniVersion string, addr, gw string, iface int) resultIP {
	r := resultIP{Address: addr, Gateway: gw, Interface: intPtr(iface)}
	if !strings.HasPrefix(cniVersion, "1.") {
		r.Version = "4"
	}
	return r
}

// loopback handles the network every CRI pod sandbox gets first: lo up.
func loopback(e env, t tools, version string, stdout io.Writer) error {
	switch e.command {
	case "DEL":
		return nil // lo goes away with the namespace
	case "CHECK":
		if err := checkNetns(e.netns); err != nil {
			return err
		}
		lo, err := t.showLink(e.netns, "lo")
		if err != nil {
			return asCNI(err, "reading lo")
		}
		if !slices.Contains(lo.Flags, "UP") {
			return fail(codeCheckFailed, strings.Join(lo.Flags, ","), "lo is not up in %s", e.netns)
		}
		return nil
	}
	if err := checkNetns(e.netns); err != nil {
		return err
	}
	if _, err := t.ipIn(e.netns, "link", "set", "dev", "lo", "up"); err != nil {
		return asCNI(err, "bringing lo up")
	}
	return writeJSON(stdout, result{
		CNIVersion: version,
		Interfaces: []resultIface{{Name: "lo", Mac: "00:00:00:00:00:00", Sandbox: e.netns}},
		IPs:        []resultIP{ipEntry(version, "127.0.0.1/8", "", 0)},
	})
}

// plan is what ADD creates and CHECK expects, all derived from the config and
// the container id, so the same pod always gets the same address and MACs.
type plan struct {
	addr    netip.Prefix // CNI_IFNAME's address, with the subnet's length
	gateway netip.Addr   // held by the peer as a /32
	peer    string
	mac     string
	peerMac string
}

func makePlan(conf *netConf, containerID, ifname string) (plan, error) {
	subnet := conf.Subnet
	if subnet == "" {
		subnet = defaultSubnet
	}
	pfx, err := netip.ParsePrefix(subnet)
	if err != nil || !pfx.Addr().Is4() || pfx.Bits() > 30 {
		return plan{}, fail(codeInvalidConfig, subnet, "subnet must be an IPv4 prefix of /30 or shorter")
	}
	pfx = pfx.Masked()
	base := binary.BigEndian.Uint32(pfx.Addr().AsSlice())
	size := uint64(1) << (32 - pfx.Bits())
	at := func(off uint64) netip.Addr {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], base+uint32(off))
		return netip.AddrFrom4(b)
	}
	gw := at(1)
	if conf.Gateway != "" {
		gw, err = netip.ParseAddr(conf.Gateway)
		if err != nil || !pfx.Contains(gw) || gw == at(0) || gw == at(size-1) {
			return plan{}, fail(codeInvalidConfig, conf.Gateway, "gateway must be a host address inside %s", pfx)
		}
	}
	// Offsets 2..size-2: never the network (.0), the conventional gateway
	// (.1) or the broadcast address. Two pods may hash to the same address;
	// that is harmless because no pod can reach another.
	sum := sha256.Sum256([]byte(containerID))
	span := size - 3
	off := 2 + binary.BigEndian.Uint64(sum[:8])%span
	if at(off) == gw {
		if span == 1 {
			return plan{}, fail(codeInvalidConfig, subnet, "subnet %s has no address left besides the gateway", pfx)
		}
		off = 2 + (off-2+1)%span
	}
	macSum := sha256.Sum256([]byte(containerID + "/" + ifname))
	mac := func(first byte) string { // locally administered, unicast
		return fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", first, macSum[0], macSum[1], macSum[2], macSum[3], macSum[4])
	}
	return plan{
		addr:    netip.PrefixFrom(at(off), pfx.Bits()),
		gateway: gw,
		peer:    peerName(ifname),
		mac:     mac(0x0a),
		peerMac: mac(0x0e),
	}, nil
}

// peerName names the in-pod peer of ifname: eth0 -> gsbpeer0, else gsbp-NAME
// (cut to the kernel's 15 characters).
func peerName(ifname string) string {
	name := "gsbp-" + ifname
	if rest, ok := strings.CutPrefix(ifname, "eth"); ok {
		name = "gsbpeer" + rest
	}
	if len(name) > 15 {
		name = name[:15]
	}
	return name
}

func vethNet(e env, t tools, conf *netConf, version string, stdout io.Writer) error {
	if e.command == "DEL" {
		return vethDel(e, t) // needs no plan: a config that broke since ADD must not block cleanup
	}
	p, err := makePlan(conf, e.containerID, e.ifname)
	if err != nil {
		return err
	}
	switch e.command {
	case "CHECK":
		return vethCheck(e, t, conf, p)
	}
	if err := checkNetns(e.netns); err != nil {
		return err
	}
	if err := vethAdd(e, t, p); err != nil {
		return err
	}
	return writeJSON(stdout, result{
		CNIVersion: version,
		Interfaces: []resultIface{
			{Name: e.ifname, Mac: p.mac, Sandbox: e.netns},
			{Name: p.peer, Mac: p.peerMac, Sandbox: e.netns},
		},
		IPs:    []resultIP{ipEntry(version, p.addr.String(), p.gateway.String(), 0)},
		Routes: []resultRoute{{Dst: "0.0.0.0/0", GW: p.gateway.String()}},
	})
}

// deleteLink removes name from netns; a link that is already gone is fine.
func deleteLink(t tools, netns, name string) error {
	_, err := t.ipIn(netns, "link", "del", "dev", name)
	var ie *ipError
	if err != nil && errors.As(err, &ie) && ie.notFound() {
		return nil
	}
	return err
}

func vethAdd(e env, t tools, p plan) error {
	// A retried ADD (after "try again later") finds what the first try made:
	// start clean, the plan is deterministic so the result is the same.
	for _, name := range []string{e.ifname, p.peer} {
		if err := deleteLink(t, e.netns, name); err != nil {
			return asCNI(err, "removing a leftover "+name)
		}
	}
	if _, err := t.ipIn(e.netns, "link", "add", e.ifname, "address", p.mac, "type", "veth",
		"peer", "name", p.peer, "address", p.peerMac); err != nil {
		return asCNI(err, "creating the veth pair")
	}
	gw := p.gateway.String()
	steps := []struct {
		what string
		args []string
	}{
		{"addressing " + e.ifname, []string{"addr", "add", p.addr.String(), "dev", e.ifname}},
		{"addressing " + p.peer, []string{"addr", "add", gw + "/32", "dev", p.peer}},
		{"bringing lo up", []string{"link", "set", "dev", "lo", "up"}},
		{"bringing " + p.peer + " up", []string{"link", "set", "dev", p.peer, "up"}},
		{"bringing " + e.ifname + " up", []string{"link", "set", "dev", e.ifname, "up"}},
		// A permanent neighbour entry: the peer would not answer ARP for its
		// own namespace's address (that needs accept_local), and with it a
		// packet for the world is dropped at once instead of after an ARP
		// timeout.
		{"adding the gateway's neighbour entry", []string{"neigh", "replace", gw, "lladdr", p.peerMac,
			"dev", e.ifname, "nud", "permanent"}},
		{"adding the default route", []string{"route", "replace", "default", "via", gw, "dev", e.ifname}},
	}
	for _, s := range steps {
		if _, err := t.ipIn(e.netns, s.args...); err != nil {
			_ = deleteLink(t, e.netns, e.ifname) // takes the peer with it
			return asCNI(err, s.what)
		}
	}
	return nil
}

func vethDel(e env, t tools) error {
	// DEL must succeed when the namespace or the link is already gone.
	if e.netns == "" {
		return nil
	}
	if _, ok := netnsState(e.netns); !ok {
		return nil
	}
	if err := deleteLink(t, e.netns, e.ifname); err != nil {
		return asCNI(err, "deleting "+e.ifname)
	}
	return nil
}

// vethCheck verifies the address (from prevResult when given, else the plan),
// that CNI_IFNAME is up and that the default route goes via the gateway.
func vethCheck(e env, t tools, conf *netConf, p plan) error {
	if err := checkNetns(e.netns); err != nil {
		return err
	}
	want := p.addr
	if len(conf.PrevResult) > 0 {
		var prev result
		if err := json.Unmarshal(conf.PrevResult, &prev); err != nil {
			return fail(codeDecodeFailure, err.Error(), "decoding prevResult")
		}
		for _, ip := range prev.IPs {
			if pfx, err := netip.ParsePrefix(ip.Address); err == nil && pfx.Addr().Is4() {
				want = pfx
				break
			}
		}
	}
	link, err := t.showLink(e.netns, e.ifname)
	if err != nil {
		var ie *ipError
		if errors.As(err, &ie) && ie.notFound() {
			return fail(codeCheckFailed, ie.stderr, "%s does not exist in %s", e.ifname, e.netns)
		}
		return asCNI(err, "reading "+e.ifname)
	}
	if !link.hasAddr(want) {
		have := []string{}
		for _, a := range link.AddrInfo {
			if a.Family == "inet" {
				have = append(have, fmt.Sprintf("%s/%d", a.Local, a.PrefixLen))
			}
		}
		return fail(codeCheckFailed, "has: "+strings.Join(have, " "), "%s lacks address %s", e.ifname, want)
	}
	if !slices.Contains(link.Flags, "UP") {
		return fail(codeCheckFailed, strings.Join(link.Flags, ","), "%s is not up", e.ifname)
	}
	out, err := t.ipIn(e.netns, "-j", "route", "show", "default")
	if err != nil {
		return asCNI(err, "reading the default route")
	}
	var routes []struct {
		Gateway string `json:"gateway"`
		Dev     string `json:"dev"`
	}
	if err := json.Unmarshal([]byte(out), &routes); err != nil {
		return fail(codeIOFailure, out, "unexpected `ip -j route show default` output")
	}
	for _, r := range routes {
		if r.Gateway == p.gateway.String() && r.Dev == e.ifname {
			return nil
		}
	}
	return fail(codeCheckFailed, strings.TrimSpace(out), "no default route via %s dev %s", p.gateway, e.ifname)
}
