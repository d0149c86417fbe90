// The Python host: what pulumi-language-python serves, from the project's runtime options to running a program.
package main

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

type pythonHost struct{ *host }

// pythonRunner runs a program inside the `pulumi` package's runtime; pythonPackages lists an environment's Pulumi
// packages. Both are written to disk once per content (python_script below) since Python runs files.
var (
	//go:embed python_runner.py
	pythonRunner []byte
	//go:embed python_packages.py
	pythonPackages []byte
)

// pyReportedExit is the runner's exit code for "the program's error was already reported to the engine".
const pyReportedExit = 32

// pythonScript writes an embedded script to the temporary folder under a name derived from its contents (so hosts of
// different builds never share one), once, and returns its path.
func pythonScript(name string, body []byte) (string, error) {
	sum := sha256.Sum256(body)
	dir := filepath.Join(os.TempDir(), "pulumi-language-python-own-"+hex.EncodeToString(sum[:6]))
	path := filepath.Join(dir, name)
	if b, err := os.ReadFile(path); err == nil && string(b) == string(body) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Written beside and renamed, so that a host running concurrently never sees half a script.
	tmp, err := os.CreateTemp(dir, name+".tmp-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// pythonOptions reads the project's `runtime.options` as Pulumi's Python host does: `virtualenv`, `toolchain` (pip,
// poetry or uv) and `typechecker` (mypy or pyright). A program with no `virtualenv` runs with the Python on PATH; a
// plugin using pip gets `venv`.
func pythonOptions(info *pulumirpc.ProgramInfo, isPlugin bool) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	raw := info.GetOptions().AsMap()
	str := func(key string) (string, error) {
		v, ok := raw[key]
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("the %s option must be a string", key)
		}
		return s, nil
	}
	var err error
	if opts.Virtualenv, err = str("virtualenv"); err != nil {
		return opts, err
	}
	tc, err := str("toolchain")
	if err != nil {
		return opts, err
	}
	switch tc {
	case "":
	case "pip":
		opts.Toolchain = toolchain.Pip
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	case "uv":
		opts.Toolchain = toolchain.Uv
	default:
		return opts, fmt.Errorf("unsupported toolchain option: %s", tc)
	}
	checker, err := str("typechecker")
	if err != nil {
		return opts, err
	}
	switch checker {
	case "":
	case "mypy":
		opts.Typechecker = toolchain.TypeCheckerMypy
	case "pyright":
		opts.Typechecker = toolchain.TypeCheckerPyright
	default:
		return opts, fmt.Errorf("unsupported typechecker option: %s", checker)
	}
	if isPlugin && opts.Virtualenv == "" && (opts.Toolchain == toolchain.Pip || opts.Toolchain == toolchain.Auto) {
		opts.Virtualenv = "venv"
	}
	return opts, nil
}

// pyUsesPip says whether the options resolve to pip, the toolchain this host drives itself (poetry and uv are left to
// the toolchain package): explicitly, or by default when no uv.lock or poetry.lock is found up from the program.
func pyUsesPip(opts toolchain.PythonOptions) bool {
	switch opts.Toolchain {
	case toolchain.Pip:
		return true
	case toolchain.Auto:
		for dir := opts.ProgramDir; dir != ""; {
			for _, lock := range []string{"uv.lock", "poetry.lock"} {
				if _, err := os.Stat(filepath.Join(dir, lock)); err == nil {
					return false
				}
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		return true
	}
	return false
}

// pyVenvPath is the pip virtualenv's absolute path ("" for the Python on PATH).
func pyVenvPath(opts toolchain.PythonOptions) string {
	if opts.Virtualenv == "" || filepath.IsAbs(opts.Virtualenv) {
		return opts.Virtualenv
	}
	return filepath.Join(opts.Root, opts.Virtualenv)
}

// pythonEnv is env with the toolchain's virtualenv activated, if it has one.
func pythonEnv(ctx context.Context, tc toolchain.Toolchain, env []string) []string {
	if venv, err := tc.VirtualEnvPath(ctx); err == nil && venv != "" {
		return toolchain.ActivateVirtualEnv(env, venv)
	}
	return env
}

func (p *pythonHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		// Engines before ProgramInfo passed the program and its folder alone.
		info = &pulumirpc.ProgramInfo{RootDirectory: p.root, ProgramDirectory: req.GetPwd(), EntryPoint: req.GetProgram()}
	}
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "attaching a debugger is not supported by this stand-in for Pulumi's Python host"}, nil
	}
	opts, err := pythonOptions(info, false)
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	if err := p.typecheck(ctx, tc, opts, info); err != nil {
		return nil, err
	}
	runner, err := pythonScript("runner.py", pythonRunner)
	if err != nil {
		return nil, fmt.Errorf("could not write the program runner: %w", err)
	}
	program := info.GetEntryPoint()
	if program == "" {
		program = "."
	}
	if !filepath.IsAbs(program) {
		program = filepath.Join(info.GetProgramDirectory(), program)
	}
	// The command is not tied to ctx: h.wait interrupts the process group instead, so that the program's children stop
	// with it and Python gets its KeyboardInterrupt rather than a SIGKILL.
	cmd, err := tc.Command(context.Background(), append([]string{runner, program}, req.GetArgs()...)...)
	if err != nil {
		return nil, err
	}
	env, err := p.programEnv(req)
	if err != nil {
		return nil, err
	}
	cmd.Env = pythonEnv(ctx, tc, env)
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = info.GetProgramDirectory()
	}
	// The engine shows what the host's own standard output and error carry.
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err = p.runCmd(ctx, cmd)
	if err == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	if p.stopped(ctx) {
		// The engine cancelled the run and says so itself; the program's exit adds nothing.
		return &pulumirpc.RunResponse{Bail: true}, nil
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run the Python program: %v", err)}, nil
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Exited() {
		if ws.ExitStatus() == pyReportedExit {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", ws.ExitStatus())}, nil
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited unexpectedly: %v", exit)}, nil
}

// stopped says whether the program was interrupted by the host: Cancel, or the engine ending the call.
func (p *pythonHost) stopped(ctx context.Context) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.canceled || ctx.Err() != nil
}

// typecheck runs the project's `typechecker` (mypy or pyright, from its environment) over the program before it runs,
// failing the run with the checker's output.
func (p *pythonHost) typecheck(ctx context.Context, tc toolchain.Toolchain, opts toolchain.PythonOptions, info *pulumirpc.ProgramInfo) error {
	var checker string
	switch opts.Typechecker {
	case toolchain.TypeCheckerMypy:
		checker = "mypy"
	case toolchain.TypeCheckerPyright:
		checker = "pyright"
	default:
		return nil
	}
	args := []string{}
	if checker == "mypy" {
		// The virtualenv inside the project is not the program.
		if venv, err := tc.VirtualEnvPath(ctx); err == nil && venv != "" {
			if rel, err := filepath.Rel(info.GetProgramDirectory(), venv); err == nil {
				args = append(args, "--exclude", rel)
			}
		}
	}
	args = append(args, info.GetProgramDirectory())
	cmd, err := tc.ModuleCommand(context.Background(), checker, args...)
	if err != nil {
		return err
	}
	cmd.Dir = info.GetProgramDirectory()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := p.runCmd(ctx, cmd); err != nil {
		if strings.Contains(out.String(), "No module named "+checker) {
			return fmt.Errorf("the typechecker option is %s, but %s is not installed in the project's Python environment: add it to requirements.txt and run `pulumi install`", checker, checker)
		}
		return fmt.Errorf("%s failed: %w\n%s", checker, err, out.String())
	}
	return nil
}

// pythonPackage is one entry of python_packages.py's listing.
type pythonPackage struct {
	Name    string                   `json:"name"`
	Version string                   `json:"version"`
	Plugin  *plugin.PulumiPluginJSON `json:"plugin"`
}

// pyPulumiPackages lists the Pulumi packages installed in the program's Python environment.
func pyPulumiPackages(ctx context.Context, tc toolchain.Toolchain) ([]pythonPackage, error) {
	script, err := pythonScript("packages.py", pythonPackages)
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, script)
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the Python environment's packages (%s): %w\n%s", cmd.Path, err, stderr.String())
	}
	var pkgs []pythonPackage
	if err := json.Unmarshal(out, &pkgs); err != nil {
		return nil, fmt.Errorf("reading the Python environment's packages: %w", err)
	}
	return pkgs, nil
}

// pyPackagesWithoutPlugin are packages named pulumi-* that have no resource plugin (and, in older releases, no
// pulumi-plugin.json saying so).
var pyPackagesWithoutPlugin = map[string]bool{"pulumi-policy": true, "pulumi-esc-sdk": true}

// pyPackageDependency is what an installed package asks of the engine: the plugin its pulumi-plugin.json names (or its
// name without "pulumi-"), at the version the file gives (or the package's own, as semver), with any
// parameterization. nil for a package with no plugin, or whose plugin version cannot be told.
func pyPackageDependency(pkg pythonPackage) *pulumirpc.PackageDependency {
	if pyPackagesWithoutPlugin[pkg.Name] {
		return nil
	}
	dep := &pulumirpc.PackageDependency{Kind: "resource"}
	if pj := pkg.Plugin; pj != nil {
		if !pj.Resource {
			return nil
		}
		dep.Name, dep.Version, dep.Server = pj.Name, pj.Version, pj.Server
		dep.Parameterization = rpcParameterization(pj.Parameterization)
		dep.Extension = rpcParameterization(pj.ExtensionParameterization)
	}
	if dep.Name == "" {
		dep.Name = strings.TrimPrefix(pkg.Name, "pulumi-")
	}
	if dep.Version == "" {
		v, ok := pep440ToSemver(pkg.Version)
		if !ok {
			return nil
		}
		dep.Version = v
	}
	if !strings.HasPrefix(dep.Version, "v") {
		dep.Version = "v" + dep.Version
	}
	return dep
}

var pyPEP440 = regexp.MustCompile(`^(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?$`)

// pep440ToSemver turns the PEP 440 versions Pulumi publishes packages under into the plugin's semver: at least three
// numbers, a1 → -alpha.1, b1 → -beta.1, rc1 → -rc.1, .postN and .devN as build metadata. Epochs and local versions
// have no plugin version.
func pep440ToSemver(v string) (string, bool) {
	m := pyPEP440.FindStringSubmatch(v)
	if m == nil {
		return "", false
	}
	nums := strings.Split(m[1], ".")
	for len(nums) < 3 {
		nums = append(nums, "0")
	}
	out := strings.Join(nums, ".")
	if m[2] != "" {
		out += "-" + map[string]string{"a": "alpha", "b": "beta", "rc": "rc"}[m[2]] + "." + m[3]
	}
	build := ""
	if m[4] != "" {
		build += "post" + m[4]
	}
	if m[5] != "" {
		build += "dev" + m[5]
	}
	if build != "" {
		out += "+" + build
	}
	return out, true
}

// requiredPackages makes sure the program's environment exists (creating a missing virtualenv, its output sent to the
// engine's log, as `pulumi install` would) and lists what its packages need.
func (p *pythonHost) requiredPackages(ctx context.Context, info *pulumirpc.ProgramInfo) ([]*pulumirpc.PackageDependency, error) {
	opts, err := pythonOptions(info, false)
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	if err := p.ensureEnvironment(ctx, tc, opts, info); err != nil {
		return nil, err
	}
	pkgs, err := pyPulumiPackages(ctx, tc)
	if err != nil {
		return nil, err
	}
	deps := []*pulumirpc.PackageDependency{}
	for _, pkg := range pkgs {
		if dep := pyPackageDependency(pkg); dep != nil {
			deps = append(deps, dep)
		}
	}
	return deps, nil
}

func (p *pythonHost) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	deps, err := p.requiredPackages(ctx, req.GetInfo())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: deps}, nil
}

// GetRequiredPlugins answers engines that do not ask for packages: the plugins alone, without parameterization (a
// parameterized package's plugin is its base provider).
func (p *pythonHost) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	info := req.GetInfo()
	if info == nil {
		info = &pulumirpc.ProgramInfo{RootDirectory: p.root, ProgramDirectory: req.GetPwd(), EntryPoint: req.GetProgram()}
	}
	deps, err := p.requiredPackages(ctx, info)
	if err != nil {
		return nil, err
	}
	plugins := make([]*pulumirpc.PluginDependency, 0, len(deps))
	for _, d := range deps {
		plugins = append(plugins, &pulumirpc.PluginDependency{Name: d.Name, Kind: d.Kind, Version: d.Version, Server: d.Server})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

func (p *pythonHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	info := req.GetInfo()
	if info == nil {
		info = &pulumirpc.ProgramInfo{RootDirectory: p.root, ProgramDirectory: req.GetPwd(), EntryPoint: req.GetProgram()}
	}
	opts, err := pythonOptions(info, false)
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	listed, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("failed to get python dependencies: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, 0, len(listed))
	for _, d := range listed {
		deps = append(deps, &pulumirpc.DependencyInfo{Name: d.Name, Version: d.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// About describes the Python the project runs with (the virtualenv's, else the one on PATH) and its toolchain.
func (p *pythonHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts := toolchain.PythonOptions{Toolchain: toolchain.Pip}
	if req.GetInfo() != nil {
		var err error
		if opts, err = pythonOptions(req.GetInfo(), false); err != nil {
			return nil, err
		}
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	about, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{
		Executable: about.PythonExecutable,
		Version:    about.PythonVersion.String(),
		Metadata: map[string]string{
			"toolchain":        toolchain.Name(opts.Toolchain),
			"toolchainVersion": about.ToolchainVersion.String(),
			"typechecker":      toolchain.TypeCheckerName(opts.Typechecker),
		},
	}, nil
}
