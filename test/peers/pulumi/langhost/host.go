// The part every language shares: the handshake, plugin info, cancellation of what a host started, and an answer
// naming the stand-in for every call a language does not serve.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// host holds what the engine told this process and the children it runs. Each language's server embeds it and
// overrides the calls it serves; every other call answers with unsupported().
type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	language      string // "Node.js", "Python" or "Go", for messages
	root          string // -root: the project's root directory
	engineAddress string

	mu       sync.Mutex
	running  map[*exec.Cmd]struct{}
	canceled bool
}

func (h *host) unsupported(call string) error {
	return status.Errorf(codes.Unimplemented, "%s is not supported by this stand-in for Pulumi's %s host", call, h.language)
}

// Handshake records what the engine says of the project: the -root flag is the older way of passing it.
func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	if req.GetRootDirectory() != "" {
		h.root = req.GetRootDirectory()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// Cancel stops every child this host runs (a program, an installer): SIGINT first, as a terminal would, then SIGKILL
// after a grace period, so that nothing outlives the engine's cancellation.
func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancelAll()
	return &emptypb.Empty{}, nil
}

func (h *host) cancelAll() {
	h.mu.Lock()
	h.canceled = true
	cmds := make([]*exec.Cmd, 0, len(h.running))
	for c := range h.running {
		cmds = append(cmds, c)
	}
	h.mu.Unlock()
	for _, c := range cmds {
		interrupt(c)
	}
}

// interrupt signals the child's whole process group (npm and node, python and its threads, a Go program), then kills
// it if it is still there after five seconds.
func interrupt(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	pid := c.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGINT)
	go func() {
		time.Sleep(5 * time.Second)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}()
}

// start starts c in a process group of its own and tracks it until wait; refused once the host is cancelled.
func (h *host) start(c *exec.Cmd) error {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setpgid = true
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.canceled {
		return fmt.Errorf("the %s host was cancelled", h.language)
	}
	if err := c.Start(); err != nil {
		return err
	}
	if h.running == nil {
		h.running = map[*exec.Cmd]struct{}{}
	}
	h.running[c] = struct{}{}
	return nil
}

// wait waits for a command started by start; when ctx ends first (the engine gave up on the call), the command's
// group is interrupted.
func (h *host) wait(ctx context.Context, c *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		interrupt(c)
		err = <-done
	}
	h.mu.Lock()
	delete(h.running, c)
	h.mu.Unlock()
	return err
}

// runCmd starts c and waits for it.
func (h *host) runCmd(ctx context.Context, c *exec.Cmd) error {
	if err := h.start(c); err != nil {
		return err
	}
	return h.wait(ctx, c)
}

// The calls a language does not serve. Each language's server overrides the ones it does.

func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return nil, h.unsupported("GetRequiredPlugins")
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return nil, h.unsupported("GetRequiredPackages")
}

func (h *host) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return nil, h.unsupported("Run")
}

func (h *host) InstallDependencies(*pulumirpc.InstallDependenciesRequest, grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	return h.unsupported("InstallDependencies")
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	// Asked only by `pulumi new`, which takes Unimplemented as "no prompts".
	return nil, h.unsupported("RuntimeOptionsPrompts")
}

func (h *host) Template(context.Context, *pulumirpc.TemplateRequest) (*pulumirpc.TemplateResponse, error) {
	return nil, h.unsupported("Template")
}

func (h *host) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return nil, h.unsupported("About")
}

func (h *host) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return nil, h.unsupported("GetProgramDependencies")
}

func (h *host) RunPlugin(*pulumirpc.RunPluginRequest, grpc.ServerStreamingServer[pulumirpc.RunPluginResponse]) error {
	return h.unsupported("RunPlugin")
}

func (h *host) GenerateProgram(context.Context, *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	return nil, h.unsupported("GenerateProgram")
}

func (h *host) GenerateProject(context.Context, *pulumirpc.GenerateProjectRequest) (*pulumirpc.GenerateProjectResponse, error) {
	return nil, h.unsupported("GenerateProject")
}

func (h *host) GeneratePackage(context.Context, *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	return nil, h.unsupported("GeneratePackage")
}

func (h *host) Pack(context.Context, *pulumirpc.PackRequest) (*pulumirpc.PackResponse, error) {
	return nil, h.unsupported("Pack")
}

func (h *host) Link(context.Context, *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	return nil, h.unsupported("Link")
}

// programEnv is the environment a program runs with: this process's, plus what the engine hands every program
// (Pulumi's SDKs read these variables when no command-line flag gives the value).
func (h *host) programEnv(req *pulumirpc.RunRequest) ([]string, error) {
	env := os.Environ()
	configJSON, secretKeysJSON := "", ""
	if len(req.GetConfig()) > 0 {
		b, err := json.Marshal(req.GetConfig())
		if err != nil {
			return nil, err
		}
		configJSON = string(b)
	}
	if len(req.GetConfigSecretKeys()) > 0 {
		b, err := json.Marshal(req.GetConfigSecretKeys())
		if err != nil {
			return nil, err
		}
		secretKeysJSON = string(b)
	}
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("PULUMI_MONITOR", req.GetMonitorAddress())
	add("PULUMI_ENGINE", h.engineAddress)
	add("PULUMI_ORGANIZATION", req.GetOrganization())
	add("PULUMI_PROJECT", req.GetProject())
	add("PULUMI_STACK", req.GetStack())
	add("PULUMI_DRY_RUN", fmt.Sprint(req.GetDryRun()))
	add("PULUMI_PARALLEL", fmt.Sprint(req.GetParallel()))
	add("PULUMI_CONFIG", configJSON)
	add("PULUMI_CONFIG_SECRET_KEYS", secretKeysJSON)
	if info := req.GetInfo(); info != nil {
		add("PULUMI_ROOT_DIRECTORY", info.GetRootDirectory())
	}
	return env, nil
}
