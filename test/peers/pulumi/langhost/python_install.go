// The Python host's installs: the project's virtualenv and `pip install -r requirements.txt` into it, for `pulumi
// install`, after `pulumi package add`, and when a program's environment is missing.
package main

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func (p *pythonHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	info := req.GetInfo()
	if info == nil {
		info = &pulumirpc.ProgramInfo{RootDirectory: req.GetDirectory(), ProgramDirectory: req.GetDirectory(), EntryPoint: "."}
	}
	opts, err := pythonOptions(info, req.GetIsPlugin())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	ctx := server.Context()
	fmt.Fprint(stdout, "Installing dependencies...\n\n")
	if pyUsesPip(opts) {
		err = p.pipInstall(ctx, opts, info.GetProgramDirectory(), req.GetIsPlugin(), stdout, stderr)
	} else {
		err = pyOtherToolchainInstall(ctx, opts, info.GetProgramDirectory(), req, stdout, stderr)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// pyOtherToolchainInstall leaves poetry and uv to the toolchain package, which drives them as Pulumi does.
func pyOtherToolchainInstall(ctx context.Context, opts toolchain.PythonOptions, dir string, req *pulumirpc.InstallDependenciesRequest, stdout, stderr io.Writer) error {
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	if req.GetIsPlugin() {
		if buildable, err := toolchain.IsBuildablePackage(dir); err != nil {
			return err
		} else if buildable {
			if err := tc.InstallPackage(ctx, dir, req.GetUseLanguageVersionTools(), true, stdout, stderr); err != nil {
				return err
			}
		}
	}
	return tc.InstallDependencies(ctx, dir, req.GetUseLanguageVersionTools(), true, stdout, stderr)
}

// pipInstall makes the virtualenv if it is missing, brings pip, setuptools and wheel up to date in it, installs a
// plugin's own package, then requirements.txt, as Pulumi's host does for pip. Every step runs through the host's
// process tracking, so Cancel stops it.
func (p *pythonHost) pipInstall(ctx context.Context, opts toolchain.PythonOptions, dir string, isPlugin bool, stdout, stderr io.Writer) error {
	venv := pyVenvPath(opts)
	if venv != "" && !toolchain.IsVirtualEnv(venv) {
		if fi, err := os.Stat(venv); err == nil && !fi.IsDir() {
			return fmt.Errorf("the 'virtualenv' option in Pulumi.yaml is set to %q, which is not a directory", venv)
		}
		python, _, err := toolchain.CommandPath()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, "Creating virtual environment...")
		cmd := exec.Command(python, "-m", "venv", venv)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, stderr
		if err := p.runCmd(ctx, cmd); err != nil {
			return fmt.Errorf("creating virtual environment at %s: %w", venv, err)
		}
		fmt.Fprintln(stdout, "Finished creating virtual environment")
	}
	pip := func(what string, args ...string) error {
		var cmd *exec.Cmd
		if venv != "" {
			cmd = exec.Command(filepath.Join(venv, "bin", "python"), append([]string{"-m", "pip", "install"}, args...)...)
			cmd.Env = toolchain.ActivateVirtualEnv(os.Environ(), venv)
		} else {
			python, _, err := toolchain.CommandPath()
			if err != nil {
				return err
			}
			cmd = exec.Command(python, append([]string{"-m", "pip", "install"}, args...)...)
		}
		var errs strings.Builder
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, io.MultiWriter(stderr, &errs)
		if err := p.runCmd(ctx, cmd); err != nil {
			return fmt.Errorf("%s via '%s': %w: %s", what, strings.Join(cmd.Args, " "), err, strings.TrimSpace(errs.String()))
		}
		return nil
	}
	fmt.Fprintln(stdout, "Updating pip, setuptools, and wheel in virtual environment...")
	if err := pip("updating pip, setuptools, and wheel", "--upgrade", "pip", "setuptools", "wheel"); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Finished updating")
	if isPlugin {
		if buildable, err := toolchain.IsBuildablePackage(dir); err != nil {
			return err
		} else if buildable {
			if err := pip("installing the plugin's package", dir); err != nil {
				return err
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "requirements.txt")); err != nil {
		return nil
	}
	fmt.Fprintln(stdout, "Installing dependencies in virtual environment...")
	if err := pip("installing dependencies", "-r", "requirements.txt"); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Finished installing dependencies")
	return nil
}

// ensureEnvironment installs the program's dependencies when its virtualenv does not exist yet (a project fresh from
// a clone), as Pulumi's host does before listing the packages a program needs; the install's output goes to the
// engine's log, since these calls have no stream of their own.
func (p *pythonHost) ensureEnvironment(ctx context.Context, tc toolchain.Toolchain, opts toolchain.PythonOptions, info *pulumirpc.ProgramInfo) error {
	stdout, stderr, done := p.engineLog(ctx)
	defer done()
	if !pyUsesPip(opts) {
		return tc.EnsureVenv(ctx, info.GetProgramDirectory(), false, true, stdout, stderr)
	}
	venv := pyVenvPath(opts)
	if venv == "" || toolchain.IsVirtualEnv(venv) {
		return nil
	}
	return p.pipInstall(ctx, opts, info.GetProgramDirectory(), false, stdout, stderr)
}

// engineLog returns writers that send what is written to the engine as ephemeral log messages (info and error), and
// a function closing the connection; with no engine, the host's standard error.
func (p *pythonHost) engineLog(ctx context.Context) (io.Writer, io.Writer, func()) {
	if p.engineAddress == "" {
		return os.Stderr, os.Stderr, func() {}
	}
	conn, err := grpc.NewClient(p.engineAddress, grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		return os.Stderr, os.Stderr, func() {}
	}
	client := pulumirpc.NewEngineClient(conn)
	stream := rand.Int31() //nolint:gosec // a stream id, not a secret
	w := func(sev pulumirpc.LogSeverity) io.Writer {
		return &pyEngineLogWriter{ctx: ctx, client: client, stream: stream, severity: sev}
	}
	return w(pulumirpc.LogSeverity_INFO), w(pulumirpc.LogSeverity_ERROR), func() { conn.Close() }
}

type pyEngineLogWriter struct {
	ctx      context.Context
	client   pulumirpc.EngineClient
	stream   int32
	severity pulumirpc.LogSeverity
}

func (w *pyEngineLogWriter) Write(b []byte) (int, error) {
	_, err := w.client.Log(w.ctx, &pulumirpc.LogRequest{
		Severity:  w.severity,
		Message:   strings.ToValidUTF8(string(b), "\uFFFD"),
		Ephemeral: true,
		StreamId:  w.stream,
	})
	if err != nil {
		return 0, err
	}
	return len(b), nil
}
