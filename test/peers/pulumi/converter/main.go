// Command converter is a stand-in for Pulumi's Terraform converter (pulumi-converter-terraform) that replays recorded
// conversions: it runs no conversion of its own.
//
// Pulumi's converter is served by no registry these machines reach, so it cannot be built or installed here. What it
// wrote for the Terraform projects of docs/moving-from-terraform.md is recorded in ../shared/converter-recordings (one
// folder per run: input/, pcl/, converter.log, RECORDING.json; that folder's README.md says how). Installed as
// pulumi-converter-terraform where Pulumi's own is absent, it serves Pulumi's Converter service: ConvertProgram compares
// the source directory with each recording's input/ byte for byte and, on a match, writes that recording's pcl/ into
// the target directory with the diagnostics its log shows; any other input is refused, naming the first difference from
// the closest recording, because a replay may not guess. Before replaying it imitates the real converter's requests,
// learnt from its source: each required provider's version asked of its registry (registry.go), failing as the real
// one fails when no answer comes ("could not resolve provider version"), and refusing an answer other than the
// recording's.
//
// What a replay may claim: the PCL is the real converter's (version in RECORDING.json) for exactly these inputs, and
// nothing about the converter itself. A test that runs it tests what comes after the converter (retargeting the
// package blocks, code generation, the program running); that the converter still writes this PCL is for a run with
// Pulumi's converter to show (scripts/build-converter.sh prefers it wherever it is installed).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// defaultRecordings is where the recordings are when neither --recordings nor PULUMI_CONVERTER_RECORDINGS says:
// scripts/build-converter.sh sets it (-X main.defaultRecordings=…) to ../shared/converter-recordings beside the
// repository the binary was built from, as the binary, cached outside the repository, cannot find that itself.
var defaultRecordings = ""

const recordingsEnv = "PULUMI_CONVERTER_RECORDINGS"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		os.Exit(1)
	}
}

// recordingsDir picks the recordings folder: --recordings DIR (or =DIR) first, then the environment, then the default
// built in. Every other argument is the engine's (--logtostderr, -v=N, --tracing ADDR) and is ignored.
func recordingsDir(args []string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--recordings="); ok {
			return v
		}
		if a == "--recordings" && i+1 < len(args) {
			return args[i+1]
		}
	}
	if v := os.Getenv(recordingsEnv); v != "" {
		return v
	}
	return defaultRecordings
}

func run(args []string) error {
	srv := &server{recordings: recordingsDir(args)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cancel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancel)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(gs *grpc.Server) error {
			pulumirpc.RegisterConverterServer(gs, srv)
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("could not start the converter's gRPC server: %w", err)
	}
	// The CLI reads the port from the first line of standard output.
	fmt.Printf("%d\n", handle.Port)
	return <-handle.Done
}

type server struct {
	pulumirpc.UnimplementedConverterServer
	recordings string
}

func unsupported(call string) error {
	return status.Errorf(codes.Unimplemented, "%s is not supported by this stand-in for Pulumi's Terraform converter", call)
}

func (s *server) ConvertState(context.Context, *pulumirpc.ConvertStateRequest) (*pulumirpc.ConvertStateResponse, error) {
	return nil, unsupported("ConvertState")
}

func (s *server) ConvertSnippet(context.Context, *pulumirpc.ConvertSnippetRequest) (*pulumirpc.ConvertSnippetResponse, error) {
	return nil, unsupported("ConvertSnippet")
}

func (s *server) ConvertProgram(ctx context.Context, req *pulumirpc.ConvertProgramRequest) (*pulumirpc.ConvertProgramResponse, error) {
	// The recordings were made without converter arguments; with any, the real converter may write something else.
	if len(req.GetArgs()) > 0 {
		return nil, status.Errorf(codes.InvalidArgument,
			"converter arguments %q: this stand-in for Pulumi's Terraform converter replays recordings made without any, so it cannot say what they would change",
			req.GetArgs())
	}
	rec, err := s.match(req.GetSourceDirectory())
	if err != nil {
		return nil, err
	}
	// Before it writes anything the real converter asks the registry for each provider's version (registry.go); a
	// replay asks the same, fails as it fails, and cannot stand for an answer other than the recording's.
	src, err := readTree(req.GetSourceDirectory())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "reading the Terraform project %s: %v", req.GetSourceDirectory(), err)
	}
	resolved, diags, err := resolveVersions(ctx, src)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "reading the required providers of %s: %v", req.GetSourceDirectory(), err)
	}
	if len(diags) > 0 {
		return &pulumirpc.ConvertProgramResponse{Diagnostics: diags}, nil
	}
	if mismatch := rec.versionMismatch(resolved); mismatch != "" {
		return nil, status.Errorf(codes.FailedPrecondition,
			"the registry's answer differs from recording %s's (%s): the real converter would write that version, which this stand-in cannot replay",
			rec.name, mismatch)
	}
	if err := rec.writePCL(req.GetTargetDirectory()); err != nil {
		return nil, status.Errorf(codes.Internal, "writing the PCL of recording %s: %v", rec.name, err)
	}
	// Shown by the CLI (a converter's standard error is), so a log says the PCL was replayed, not converted.
	same := ""
	if len(rec.twins) > 0 {
		same = fmt.Sprintf("; the same input and PCL as %s", strings.Join(rec.twins, ", "))
	}
	fmt.Fprintf(os.Stderr, "stand-in for Pulumi's Terraform converter: replayed recording %s (%s, recorded with Pulumi CLI %s%s) from %s\n",
		rec.name, rec.meta.Converter, rec.meta.CLI, same, s.recordings)
	return &pulumirpc.ConvertProgramResponse{Diagnostics: rec.diagnostics}, nil
}

// match finds the recording whose input/ equals dir; the refusal names the first difference from the closest one.
func (s *server) match(dir string) (*recording, error) {
	if s.recordings == "" {
		return nil, status.Errorf(codes.FailedPrecondition,
			"this stand-in for Pulumi's Terraform converter knows no recordings folder: set %s (or pass --recordings DIR)", recordingsEnv)
	}
	recs, err := loadRecordings(s.recordings)
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "this stand-in for Pulumi's Terraform converter cannot read its recordings: %v", err)
	}
	src, err := readTree(dir)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "reading the Terraform project %s: %v", dir, err)
	}
	rec, err := pick(recs, src)
	if err != nil {
		return nil, status.Errorf(codes.FailedPrecondition,
			"this stand-in for Pulumi's Terraform converter replays only the Terraform projects recorded in %s, and %s is none of them: %v",
			s.recordings, dir, err)
	}
	return rec, nil
}
