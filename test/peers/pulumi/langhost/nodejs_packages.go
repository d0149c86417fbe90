// Which Pulumi packages a Node.js program needs: those installed under its node_modules whose package.json has a
// `pulumi` section saying they come with a resource plugin (a generated SDK, parameterized or not).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetRequiredPackages is how the engine learns which plugins (and which parameterizations of them) to install and
// start before a program runs.
func (h *nodejsHost) GetRequiredPackages(_ context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	pkgs := nodejsRequiredPackages(req.GetInfo().GetProgramDirectory())
	return &pulumirpc.GetRequiredPackagesResponse{Packages: pkgs}, nil
}

// GetRequiredPlugins answers an engine that asks the older question: the plugins behind the same packages (a
// parameterized package needs its base plugin).
func (h *nodejsHost) GetRequiredPlugins(_ context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	seen := map[string]bool{}
	var plugins []*pulumirpc.PluginDependency
	for _, p := range nodejsRequiredPackages(programDir(req.GetInfo(), req.GetPwd())) {
		key := p.Name + "\x00" + p.Version + "\x00" + p.Server
		if seen[key] {
			continue
		}
		seen[key] = true
		plugins = append(plugins, &pulumirpc.PluginDependency{Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// nodejsRequiredPackages walks dir for node_modules and reads each installed package.json. A package.json it cannot
// read or understand is skipped: one broken package must not stop the program's other plugins from being found.
func nodejsRequiredPackages(dir string) []*pulumirpc.PackageDependency {
	w := &nodeModulesWalk{visited: map[string]bool{}, seen: map[string]bool{}, sdks: map[string]semver.Version{}}
	if abs, err := filepath.Abs(dir); err == nil {
		w.walk(abs, false)
	}
	w.warnOnIncompatibleSDKs()
	return w.packages
}

type nodeModulesWalk struct {
	visited  map[string]bool // real path + whether it was reached under node_modules
	seen     map[string]bool // packages already listed
	packages []*pulumirpc.PackageDependency
	sdks     map[string]semver.Version // @pulumi/pulumi package.json path → its version
}

// walk goes through every folder under dir, following symbolic links (a `file:` dependency is one), and reads
// package.json files only inside node_modules. A folder is visited at most once outside and once inside
// node_modules, so a local SDK (sdks/random) is read when node_modules/@pulumi/random reaches it, whichever way the
// walk came to it first.
func (w *nodeModulesWalk) walk(dir string, inNodeModules bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return
	}
	key := fmt.Sprintf("%t:%s", inNodeModules, real)
	if w.visited[key] {
		return
	}
	w.visited[key] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	childrenInNodeModules := inNodeModules || filepath.Base(dir) == "node_modules"
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			if err != nil {
				continue
			}
			isDir = fi.IsDir()
		}
		switch {
		case isDir:
			// A policy pack's plugins are the policy pack's, not the program's.
			if pack, err := workspace.DetectPolicyPackPathAt(path); err != nil || pack != "" {
				continue
			}
			w.walk(path, childrenInNodeModules)
		case inNodeModules && e.Name() == "package.json":
			w.read(path)
		}
	}
}

// nodePackageJSON is what a package.json says that matters here.
type nodePackageJSON struct {
	Name    string                  `json:"name"`
	Version string                  `json:"version"`
	Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
}

func (w *nodeModulesWalk) read(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var pj nodePackageJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return
	}
	if pj.Name == "@pulumi/pulumi" {
		if v, err := semver.Parse(pj.Version); err == nil {
			w.sdks[path] = v
		}
	}
	if !pj.Pulumi.Resource {
		return
	}
	dep, err := nodePackageDependency(pj)
	if err != nil {
		return
	}
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%v\x00%v", dep.Name, dep.Version, dep.Server, dep.Parameterization, dep.Extension)
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	w.packages = append(w.packages, dep)
}

// nodePackageDependency is the package a package.json with `"pulumi": {"resource": true}` stands for: the plugin's
// name is `pulumi.name`, else the package's own name without the @pulumi/ scope (another scope must name its
// plugin); its version `pulumi.version`, else the package's, with a leading v as plugin versions have.
func nodePackageDependency(pj nodePackageJSON) (*pulumirpc.PackageDependency, error) {
	name := pj.Pulumi.Name
	if name == "" {
		rest, ok := strings.CutPrefix(pj.Name, "@pulumi/")
		if !ok || rest == "" {
			return nil, fmt.Errorf("%s: a package outside @pulumi must name its plugin in the \"pulumi\" section", pj.Name)
		}
		name = rest
	}
	version := pj.Pulumi.Version
	if version == "" {
		version = pj.Version
	}
	if version == "" {
		return nil, errors.New("no version")
	}
	if !strings.HasPrefix(version, "v") {
		version = "v" + version
	}
	return &pulumirpc.PackageDependency{
		Name:             name,
		Kind:             "resource",
		Version:          version,
		Server:           pj.Pulumi.Server,
		Parameterization: rpcParameterization(pj.Pulumi.Parameterization),
		Extension:        rpcParameterization(pj.Pulumi.ExtensionParameterization),
	}, nil
}

// warnOnIncompatibleSDKs says so on stderr when two copies of @pulumi/pulumi in the program are of different major
// versions: resources made through one are not known to the other.
func (w *nodeModulesWalk) warnOnIncompatibleSDKs() {
	paths := make([]string, 0, len(w.sdks))
	for p := range w.sdks {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths[min(1, len(paths)):] {
		a, b := w.sdks[paths[0]], w.sdks[p]
		if a.Major != b.Major || (a.Major == 0 && a.Minor != b.Minor) {
			fmt.Fprintf(os.Stderr, "Found incompatible versions of @pulumi/pulumi.\n  Version %s referenced at %s\n  Version %s referenced at %s\n",
				a, paths[0], b, p)
			return
		}
	}
}
