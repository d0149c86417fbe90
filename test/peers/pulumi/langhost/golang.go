// The Go host: what pulumi-language-go serves to run a program (build, run, install, about); the packages a program
// needs are in golang_modules.go, code generation and linking in golang_codegen.go.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/executable"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type goHost struct{ *host }

// goRunOptions are the `runtime.options` of a Go project's Pulumi.yaml that change how it is run.
type goRunOptions struct {
	binary      string // a prebuilt program, run instead of building one
	buildTarget string // where `go build` writes the program, kept after the run
}

func goRunOptionsOf(options map[string]any) (goRunOptions, error) {
	var o goRunOptions
	for key, dst := range map[string]*string{"binary": &o.binary, "buildTarget": &o.buildTarget} {
		v, ok := options[key]
		if !ok {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return o, fmt.Errorf("%s option must be a string", key)
		}
		*dst = s
	}
	if o.binary != "" && o.buildTarget != "" {
		return o, errors.New("binary and buildTarget cannot both be specified")
	}
	return o, nil
}

func goBinary() (string, error) {
	gobin, err := executable.FindExecutable("go")
	if err != nil {
		return "", fmt.Errorf("unable to find 'go' executable: %w", err)
	}
	return gobin, nil
}

// logEphemeral shows a passing status line in the CLI's progress display, as Pulumi's host does while it compiles;
// a failure to reach the engine only loses that line.
func (h *goHost) logEphemeral(ctx context.Context, message string) {
	if h.engineAddress == "" {
		return
	}
	conn, err := grpc.NewClient(h.engineAddress, grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		return
	}
	defer conn.Close()
	_, _ = pulumirpc.NewEngineClient(conn).Log(ctx, &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_INFO, Message: message, Ephemeral: true})
}

// Run builds the program (unless the project names a prebuilt binary) and runs it with what the engine hands every
// program in its environment; the Go SDK (sdk/v3/go/pulumi, run.go) reads it from there.
func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if h.engineAddress == "" {
		return nil, errors.New("the engine's address is unknown: Handshake must come before Run")
	}
	if req.GetAttachDebugger() {
		return nil, h.unsupported("Run with a debugger attached")
	}
	info := req.GetInfo()
	opts, err := goRunOptionsOf(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	env, err := h.programEnv(req)
	if err != nil {
		return nil, fmt.Errorf("failed to prepare environment: %w", err)
	}

	program := ""
	if opts.binary != "" {
		if program, err = executable.FindExecutable(opts.binary); err != nil {
			return nil, fmt.Errorf("unable to find '%s' executable: %w", opts.binary, err)
		}
	} else {
		program, err = h.build(ctx, info.GetProgramDirectory(), opts.buildTarget)
		if err != nil {
			return nil, err
		}
		if opts.buildTarget == "" {
			defer os.Remove(program)
		}
	}

	cmd := exec.Command(program)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return runResponse(h.runCmd(ctx, cmd)), nil
}

// runResponse turns how the program ended into the engine's answer. The Go SDK exits with ExitStatusLoggedError
// after it has sent its error to the engine, which then must not report it a second time (Bail).
func runResponse(err error) *pulumirpc.RunResponse {
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return &pulumirpc.RunResponse{Error: err.Error()}
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	if !ok {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited unexpectedly: %v", err)}
	}
	switch {
	case ws.Signaled():
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited unexpectedly: %v", err)}
	case ws.ExitStatus() == constant.ExitStatusLoggedError:
		return &pulumirpc.RunResponse{Bail: true}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", ws.ExitStatus())}
	}
}

// build compiles the program in dir with `go build` into out, or into a temporary file when out is empty, and
// returns its path. The compiler's output goes where the program's would, so the CLI shows it.
func (h *goHost) build(ctx context.Context, dir, out string) (_ string, err error) {
	h.logEphemeral(ctx, "Compiling the program ...")
	pattern := filepath.Join(dir, "*.go")
	if files, _ := filepath.Glob(pattern); len(files) == 0 {
		return "", fmt.Errorf("Failed to find go files for 'go build' matching %s", pattern)
	}
	gobin, err := goBinary()
	if err != nil {
		return "", err
	}
	if out == "" {
		f, cerr := os.CreateTemp("", "pulumi-go.*")
		if cerr != nil {
			return "", fmt.Errorf("unable to create go program temp file: %w", cerr)
		}
		out = f.Name()
		_ = f.Close()
		// A failed build leaves no empty file behind (the caller removes only a program it got).
		defer func() {
			if err != nil {
				_ = os.Remove(out)
			}
		}()
	}
	// -buildvcs=false: a program in a repository with no VCS tool installed would fail to build otherwise.
	cmd := exec.Command(gobin, "build", "-buildvcs=false", "-o", out, "-trimpath", "-ldflags", "-w -s")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := h.runCmd(ctx, cmd); err != nil {
		return "", fmt.Errorf("error in compiling Go: unable to run `go build`: %w", err)
	}
	if ok, err := executable.IsExecutable(out); err != nil || !ok {
		return "", errors.New("go program is not executable, does your program have a 'main' package?")
	}
	h.logEphemeral(ctx, "Finished compiling")
	return out, nil
}

// InstallDependencies is `go mod tidy` in the program's directory, its output streamed to the engine.
func (h *goHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprint(stdout, "Installing dependencies...\n\n")
	gobin, err := goBinary()
	if err != nil {
		return err
	}
	// -compat=1.18 as Pulumi's host asks: go.sum keeps the checksums an older toolchain would want too.
	cmd := exec.Command(gobin, "mod", "tidy", "-compat=1.18")
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := h.runCmd(server.Context(), cmd); err != nil {
		return fmt.Errorf("`go mod tidy` failed to install dependencies: %w", err)
	}
	fmt.Fprint(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// Template has nothing to do for Go: `pulumi new` copies the template's files as they are.
func (h *goHost) Template(context.Context, *pulumirpc.TemplateRequest) (*pulumirpc.TemplateResponse, error) {
	return &pulumirpc.TemplateResponse{}, nil
}

// About names the Go toolchain programs are built with.
func (h *goHost) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	gobin, err := executable.FindExecutable("go")
	if err != nil {
		return nil, fmt.Errorf("could not find executable 'go': %w", err)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, gobin, "version")
	cmd.Dir = h.root
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("failed to execute '%s version'", gobin)
	}
	return &pulumirpc.AboutResponse{Executable: gobin, Version: strings.TrimSpace(out.String())}, nil
}
