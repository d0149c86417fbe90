// Command langhost is the project's own stand-in for Pulumi's Node.js, Python and Go language hosts, a test peer
// for machines where no Pulumi install provides them (their modules are served by no registry these machines reach).
//
// One executable serves all three: installed as pulumi-language-nodejs, pulumi-language-python or
// pulumi-language-go, it takes its language from its own name, as the engine starts each host by that name. It speaks
// the published protocol (proto/pulumi/language.proto, through the sdk/v3 Go bindings), generates code with Pulumi's
// own generators (pkg/v3/codegen) and runs programs through each SDK's own runner. It is written here from the
// protocol and from what Pulumi's hosts are seen to do; where it behaves differently, README.md says so.
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
)

// version is what GetPluginInfo reports; set at build time (-X main.version=…) to the Pulumi release whose generators
// this executable links, so `pulumi about` and the SDKs' own version checks see a real Pulumi version.
var version = "3.276.0"

func main() {
	if err := run(os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		os.Exit(1)
	}
}

// params are what the engine passes on the command line: flags of the form -name=value (only -root is used; older
// engines passed runtime options this way too, and they are accepted and ignored) and the engine's address last.
type params struct {
	root          string
	engineAddress string
}

func parseParams(args []string) params {
	var p params
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			k, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if k == "root" {
				p.root = v
			}
			continue
		}
		p.engineAddress = a
	}
	return p
}

func run(args []string) error {
	newServer, err := languageOf(filepath.Base(args[0]))
	if err != nil {
		return err
	}
	for _, a := range args[1:] {
		if a == "-version" || a == "--version" {
			fmt.Println(version)
			return nil
		}
	}
	p := parseParams(args[1:])

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cancel := make(chan bool)
	h := &host{root: p.root, engineAddress: p.engineAddress}
	srv := newServer(h)
	go func() {
		<-ctx.Done()
		h.cancelAll()
		close(cancel)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(gs *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(gs, srv)
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("could not start the language host's gRPC server: %w", err)
	}
	// The engine reads the port from the first line of standard output.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		return err
	}
	h.cancelAll()
	return nil
}

// languageOf maps the executable's name to the server of the language it serves.
func languageOf(name string) (func(*host) pulumirpc.LanguageRuntimeServer, error) {
	name = strings.TrimSuffix(name, ".exe")
	switch strings.TrimPrefix(name, "pulumi-language-") {
	case "nodejs":
		return func(h *host) pulumirpc.LanguageRuntimeServer { h.language = "Node.js"; return &nodejsHost{h} }, nil
	case "python":
		return func(h *host) pulumirpc.LanguageRuntimeServer { h.language = "Python"; return &pythonHost{h} }, nil
	case "go":
		return func(h *host) pulumirpc.LanguageRuntimeServer { h.language = "Go"; return &goHost{h} }, nil
	}
	return nil, fmt.Errorf("started as %q: install this executable as pulumi-language-nodejs, pulumi-language-python or pulumi-language-go", name)
}
