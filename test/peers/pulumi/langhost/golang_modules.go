// What a Go program depends on, read from its go.mod and the Go toolchain: the Pulumi packages (each module's
// pulumi-plugin.json) and the modules `pulumi about` lists.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// goModule is the part of `go list -m -json` and `go mod download -json` output used here; both print these fields.
type goModule struct {
	Path    string
	Version string
	Dir     string // where the module's files are; empty while it is not downloaded (or in vendor mode)
}

// loadGoMod finds the go.mod that governs dir (it may be in a parent: a program can live in a subfolder of its
// module) and parses it.
func loadGoMod(ctx context.Context, gobin, dir string) (string, *modfile.File, error) {
	cmd := exec.CommandContext(ctx, gobin, "list", "-m", "-f", "{{.GoMod}}")
	// A workspace would make `list -m` name every module in it; only the program's own is wanted.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list -m: %w", err)
	}
	path := string(bytes.TrimSpace(out))
	if path == "" {
		// Outside any module `go list -m` succeeds and prints nothing.
		return "", nil, fmt.Errorf("no go.mod file found: %v", dir)
	}
	body, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	f, err := modfile.Parse(path, body, nil)
	if err != nil {
		return "", nil, fmt.Errorf("parse: %w", err)
	}
	return filepath.Dir(path), f, nil
}

// goModulesJSON runs a go subcommand that prints a stream of module JSON objects (`list -m -json`,
// `mod download -json`) and decodes them.
func goModulesJSON(ctx context.Context, gobin, dir string, args ...string) ([]goModule, error) {
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var mods []goModule
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m goModule
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return mods, nil
		} else if err != nil {
			return nil, fmt.Errorf("decode module info: %w", err)
		}
		mods = append(mods, m)
	}
}

// moduleDirs finds where the files of each module in paths are. `go list -m` leaves Dir empty for a module not yet
// in the module cache, so those are downloaded; in vendor mode nothing can be downloaded and vendor/ is looked in
// instead. Modules whose files cannot be found are left out.
func moduleDirs(ctx context.Context, gobin, modDir string, paths []string) ([]goModule, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	mods, err := goModulesJSON(ctx, gobin, modDir, append([]string{"list", "-m", "-json"}, paths...)...)
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	vendor := filepath.Join(modDir, "vendor")
	if _, err := os.Stat(vendor); err == nil {
		for i := range mods {
			if mods[i].Dir == "" {
				if d := filepath.Join(vendor, mods[i].Path); isDir(d) {
					mods[i].Dir = d
				}
			}
		}
		return withDir(mods), nil
	}
	var missing []string
	at := map[string]int{}
	for i, m := range mods {
		at[m.Path] = i
		if m.Dir == "" {
			missing = append(missing, m.Path)
		}
	}
	if len(missing) > 0 {
		got, err := goModulesJSON(ctx, gobin, modDir, append([]string{"mod", "download", "-json"}, missing...)...)
		if err != nil {
			return nil, fmt.Errorf("go mod download: %w", err)
		}
		for _, m := range got {
			if i, ok := at[m.Path]; ok && mods[i].Dir == "" {
				mods[i].Dir = m.Dir
			}
		}
	}
	return withDir(mods), nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func withDir(mods []goModule) []goModule {
	kept := mods[:0]
	for _, m := range mods {
		if m.Dir != "" {
			kept = append(kept, m)
		}
	}
	return kept
}

// pluginJSON reads the module's pulumi-plugin.json, nil when it has none. Pulumi's generator writes it beside the
// root package: at the module's root, in go/, in go/<pkg>/, or (a module of its own, as `package add` writes) in
// <pkg>/.
func (m goModule) pluginJSON() (*plugin.PulumiPluginJSON, error) {
	candidates := []string{filepath.Join(m.Dir, "pulumi-plugin.json"), filepath.Join(m.Dir, "go", "pulumi-plugin.json")}
	for _, pattern := range []string{filepath.Join(m.Dir, "go", "*", "pulumi-plugin.json"), filepath.Join(m.Dir, "*", "pulumi-plugin.json")} {
		found, _ := filepath.Glob(pattern)
		candidates = append(candidates, found...)
	}
	for _, p := range candidates {
		pj, err := plugin.LoadPulumiPluginJSON(p)
		if os.IsNotExist(err) {
			continue
		}
		return pj, err
	}
	return nil, nil
}

// pluginVersion makes a module version a plugin version. A pseudo-version (an untagged commit) is taken as the
// release before it: its patch number was bumped past the tag it descends from.
func pluginVersion(v string) (string, error) {
	sv, err := semver.ParseTolerant(v)
	if err != nil {
		return "", errors.New("module does not have semver compatible version")
	}
	if !module.IsPseudoVersion(v) {
		return v, nil
	}
	if sv.Major == 0 && sv.Minor == 0 && sv.Patch == 0 {
		return "", errors.New("invalid pseudo-version with no prior tag")
	}
	if sv.Patch > 0 {
		sv.Patch--
	}
	return fmt.Sprintf("v%d.%d.%d", sv.Major, sv.Minor, sv.Patch), nil
}

// packageOf is the Pulumi package a module provides, or an error saying why it provides none.
func (m goModule) packageOf() (*pulumirpc.PackageDependency, error) {
	pj, err := m.pluginJSON()
	if err != nil {
		return nil, fmt.Errorf("failed to load pulumi-plugin.json: %w", err)
	}
	if pj == nil || !pj.Resource {
		return nil, errors.New("module is not a pulumi provider")
	}
	name := pj.Name
	if name == "" {
		// A module without a name in its pulumi-plugin.json is named by convention: github.com/pulumi/pulumi-aws/sdk.
		parts := strings.Split(m.Path, "/")
		if len(parts) < 3 || !strings.Contains(parts[2], "-") {
			return nil, fmt.Errorf("cannot tell the plugin's name from the module path %s", m.Path)
		}
		name = strings.SplitN(parts[2], "-", 2)[1]
	}
	version := m.Version
	if pj.Version != "" {
		version = pj.Version
	}
	if version, err = pluginVersion(version); err != nil {
		return nil, err
	}
	return &pulumirpc.PackageDependency{
		Name:             name,
		Kind:             "resource",
		Version:          version,
		Server:           pj.Server,
		Parameterization: rpcParameterization(pj.Parameterization),
		Extension:        rpcParameterization(pj.ExtensionParameterization),
	}, nil
}

// requiredPackages lists the Pulumi packages among the modules the program's go.mod requires. Like Pulumi's host it
// is lenient: a program outside a module, or whose modules cannot be listed, needs no packages.
func requiredPackages(ctx context.Context, programDir string) ([]*pulumirpc.PackageDependency, error) {
	gobin, err := goBinary()
	if err != nil {
		return nil, err
	}
	modDir, gomod, err := loadGoMod(ctx, gobin, programDir)
	if err != nil {
		logging.V(5).Infof("GetRequiredPackages: no go.mod: %v", err)
		return nil, nil
	}
	paths := make([]string, 0, len(gomod.Require))
	for _, r := range gomod.Require {
		paths = append(paths, r.Mod.Path)
	}
	mods, err := moduleDirs(ctx, gobin, modDir, paths)
	if err != nil {
		logging.V(5).Infof("GetRequiredPackages: finding module sources: %v", err)
		return nil, nil
	}
	pkgs := []*pulumirpc.PackageDependency{}
	for _, m := range mods {
		pkg, err := m.packageOf()
		if err != nil {
			logging.V(5).Infof("GetRequiredPackages: ignoring %s %s: %v", m.Path, m.Version, err)
			continue
		}
		pkgs = append(pkgs, pkg)
	}
	return pkgs, nil
}

func (h *goHost) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	pkgs, err := requiredPackages(ctx, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: pkgs}, nil
}

// GetRequiredPlugins answers engines older than GetRequiredPackages: the plugins behind the same packages (for a
// parameterized package, its base plugin).
func (h *goHost) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	pkgs, err := requiredPackages(ctx, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	plugins := make([]*pulumirpc.PluginDependency, 0, len(pkgs))
	for _, p := range pkgs {
		plugins = append(plugins, &pulumirpc.PluginDependency{Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// GetProgramDependencies lists the modules go.mod requires (the indirect ones only when asked for transitive
// dependencies). A module replaced by another path has no meaningful version, so none is given.
func (h *goHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	gobin, err := goBinary()
	if err != nil {
		return nil, err
	}
	_, gomod, err := loadGoMod(ctx, gobin, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("load go.mod: %w", err)
	}
	replaced := map[string]bool{}
	for _, r := range gomod.Replace {
		replaced[strings.TrimRight(r.Old.Path, "/")] = true
	}
	deps := []*pulumirpc.DependencyInfo{}
	for _, r := range gomod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		v := r.Mod.Version
		if replaced[strings.TrimRight(r.Mod.Path, "/")] {
			v = ""
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: r.Mod.Path, Version: v})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
