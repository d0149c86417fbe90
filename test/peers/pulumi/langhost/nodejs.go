// The Node.js host's runtime side: its project options, installing a program's dependencies, running a program
// through @pulumi/pulumi's own runner, and what `pulumi about` and `pulumi about --transitive` ask of it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

type nodejsHost struct{ *host }

// nodejsRunner is the module, resolved from the program's own folder, that every Pulumi Node.js program is started
// through: it connects to the engine, loads ts-node when asked, and runs the program.
const nodejsRunner = "@pulumi/pulumi/cmd/run"

// nodejsBailCode is the exit code with which @pulumi/pulumi's runner says it has already reported the failure to the
// engine; the host then asks the engine to stop without a message of its own, so that the user sees the error once.
const nodejsBailCode = 32

// nodejsOptions are the `runtime.options` of a Pulumi.yaml with `runtime: nodejs`.
type nodejsOptions struct {
	typescript     bool   // run .ts through the SDK's ts-node (true unless the project says otherwise)
	tsconfig       string // a tsconfig.json other than the program's own
	nodeargs       string // extra arguments for node, split as a shell would
	packagemanager npm.PackageManagerType
	production     bool // install without devDependencies
}

func nodejsOptionsOf(info *pulumirpc.ProgramInfo) (nodejsOptions, error) {
	opts := nodejsOptions{typescript: true, packagemanager: npm.AutoPackageManager}
	if info == nil || info.GetOptions() == nil {
		return opts, nil
	}
	m := info.GetOptions().AsMap()
	boolOpt := func(key string, into *bool) error {
		if v, ok := m[key]; ok {
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("the nodejs runtime option %q must be a boolean, got %v", key, v)
			}
			*into = b
		}
		return nil
	}
	stringOpt := func(key string, into *string) error {
		if v, ok := m[key]; ok {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("the nodejs runtime option %q must be a string, got %v", key, v)
			}
			*into = s
		}
		return nil
	}
	var pm string
	for _, err := range []error{
		boolOpt("typescript", &opts.typescript),
		boolOpt("production", &opts.production),
		stringOpt("tsconfig", &opts.tsconfig),
		stringOpt("nodeargs", &opts.nodeargs),
		stringOpt("packagemanager", &pm),
	} {
		if err != nil {
			return opts, err
		}
	}
	switch pm {
	case "", "auto":
	case "npm", "yarn", "pnpm", "bun":
		opts.packagemanager = npm.PackageManagerType(pm)
	default:
		return opts, fmt.Errorf("the nodejs runtime option packagemanager must be one of auto, npm, yarn, pnpm or bun, got %q", pm)
	}
	return opts, nil
}

// programDir is the program's folder, from ProgramInfo or, for an engine that sends none, from the older fields.
func programDir(info *pulumirpc.ProgramInfo, pwd string) string {
	if info.GetProgramDirectory() != "" {
		return info.GetProgramDirectory()
	}
	return pwd
}

// InstallDependencies installs the program's packages with its package manager (`pulumi install`, and after
// `pulumi package add`), from the root of the npm/yarn/pnpm workspace the program is in if it is in one. The
// installer's output streams back to the engine as it comes.
func (h *nodejsHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	dir := programDir(req.GetInfo(), req.GetDirectory())
	opts, err := nodejsOptionsOf(req.GetInfo())
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, "Installing dependencies...\n\n")
	root := dir
	if ws, err := npm.FindWorkspaceRoot(dir); err == nil {
		fmt.Fprintf(stdout, "Detected workspace root at %s\n", ws)
		root = ws
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("looking for the workspace %s is in: %w", dir, err)
	}
	if err := h.installPackages(server.Context(), opts, root, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprint(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// installPackages runs the package manager's install in dir. It is run here, rather than through the npm module's
// own Install, so that the installer and the scripts it starts (a local SDK's postinstall compiles it with tsc) are
// one process group that Cancel stops.
func (h *nodejsHost) installPackages(ctx context.Context, opts nodejsOptions, dir string, stdout, stderr io.Writer) error {
	pm, err := npm.ResolvePackageManager(opts.packagemanager, dir)
	if err != nil {
		return err
	}
	var args []string
	switch pm.Name() {
	case "npm":
		// --loglevel=error: npm's warnings about a program's package.json (no license, no repository) are noise here.
		args = []string{"install", "--loglevel=error"}
	case "pnpm":
		args = []string{"install", "--use-stderr"}
	default:
		args = []string{"install"}
	}
	// bun's --production also freezes the lockfile, which a program being installed the first time has not got.
	if opts.production && pm.Name() != "bun" {
		args = append(args, "--production")
	}
	bin, err := exec.LookPath(pm.Name())
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := h.runCmd(ctx, cmd); err != nil {
		return fmt.Errorf("%s %s in %s: %w", pm.Name(), strings.Join(args, " "), dir, err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "node_modules")); err == nil && fi.IsDir() {
			return nil
		}
		if filepath.Dir(d) == d {
			return fmt.Errorf("%s install reported success, but node_modules directory is missing", pm.Name())
		}
	}
}

// Run runs the program: node [nodeargs] <@pulumi/pulumi/cmd/run> <flags> <entry point> [args], in the program's
// folder, with the stack's configuration in the environment. The runner reports the program's own errors to the
// engine and then exits with nodejsBailCode.
func (h *nodejsHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "attaching a debugger is not supported by this stand-in for Pulumi's Node.js host"}, nil
	}
	dir := programDir(req.GetInfo(), req.GetPwd())
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = req.GetProgram()
	}
	if entry == "" {
		entry = "."
	}
	opts, err := nodejsOptionsOf(req.GetInfo())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not find node on the $PATH: %v", err)}, nil
	}
	runnerModule := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if runnerModule == "" {
		runnerModule = nodejsRunner
	}
	runner, err := resolveNodeModule(ctx, node, dir, runnerModule)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the nodejs runtime option nodeargs: %v", err)}, nil
	}
	args = append(args, runner)
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("root-directory", req.GetInfo().GetRootDirectory())
	flag("stack", req.GetStack())
	flag("pwd", dir)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	env, err := nodejsProgramEnv(req, opts)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	cmd.Env = env
	// Node may put the descriptors it is handed into non-blocking mode, after which this process's own writes to them
	// can fail with EAGAIN; wrapping them makes exec copy through pipes of its own instead.
	cmd.Stdout = struct{ io.Writer }{os.Stdout}
	cmd.Stderr = struct{ io.Writer }{os.Stderr}
	if err := h.start(cmd); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	err = h.wait(ctx, cmd)
	if err == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	switch code := exit.ExitCode(); code {
	case nodejsBailCode:
		return &pulumirpc.RunResponse{Bail: true}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
	}
}

// nodejsProgramEnv is this process's environment plus the stack's configuration, as the runner reads it, and the
// switches for ts-node.
func nodejsProgramEnv(req *pulumirpc.RunRequest, opts nodejsOptions) ([]string, error) {
	// Keys go to the program as <namespace>:config:<name>, the form every @pulumi/pulumi reads; current releases
	// also read <namespace>:<name>, older ones only the long form.
	cfg := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, fmt.Errorf("the configuration key %q: %w", k, err)
		}
		cfg[key.Namespace()+":config:"+key.Name()] = v
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	secrets := req.GetConfigSecretKeys()
	if secrets == nil {
		secrets = []string{}
	}
	secretsJSON, err := json.Marshal(secrets)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "PULUMI_CONFIG="+string(cfgJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretsJSON))
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}
	return env, nil
}

// resolveNodeModule asks node where `require` finds module from dir: the runner must be the program's own
// @pulumi/pulumi (a workspace's hoisted one, pnpm's linked one), never a copy of the host's choosing.
func resolveNodeModule(ctx context.Context, node, dir, module string) (string, error) {
	quoted, err := json.Marshal(module)
	if err != nil {
		return "", err
	}
	script := fmt.Sprintf(`try { console.log(require.resolve(%s)); } catch (e) { `+
		`console.error(e.code === "MODULE_NOT_FOUND" ? "It looks like the Pulumi SDK has not been installed. Have you run pulumi install?" : e.message); `+
		`process.exit(1); }`, quoted)
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && len(exit.Stderr) > 0 {
			return "", errors.New(strings.TrimSpace(string(exit.Stderr)))
		}
		return "", fmt.Errorf("resolving %s from %s: %w", module, dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// GetProgramDependencies lists the program's packages from its lock file, as `pulumi about` shows them.
func (h *nodejsHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := nodejsOptionsOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	dir := programDir(req.GetInfo(), req.GetPwd())
	pm, err := npm.ResolvePackageManager(opts.packagemanager, dir)
	if err != nil {
		return nil, err
	}
	pkgs, err := pm.ListPackages(ctx, dir, req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("listing the program's Node.js packages: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, 0, len(pkgs))
	for _, p := range pkgs {
		deps = append(deps, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// About names node, its version, the package manager and the TypeScript the program would load. A version that
// cannot be had is left out rather than failing `pulumi about`.
func (h *nodejsHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := nodejsOptionsOf(req.GetInfo())
	if err != nil {
		return nil, err
	}
	dir := req.GetInfo().GetProgramDirectory()
	pm, err := npm.ResolvePackageManager(opts.packagemanager, dir)
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find node on the $PATH: %w", err)
	}
	output := func(args ...string) string {
		cmd := exec.CommandContext(ctx, node, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	meta := map[string]string{"packagemanager": pm.Name()}
	if v, err := pm.Version(); err == nil {
		meta["packagemanagerVersion"] = v.String()
	}
	// The program's own TypeScript, found as node finds it, rather than whichever tsc is on PATH.
	if v := output("-e", `console.log(require("typescript/package.json").version)`); v != "" {
		meta["typescriptVersion"] = v
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: output("--version"), Metadata: meta}, nil
}
