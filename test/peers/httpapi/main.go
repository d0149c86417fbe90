// terraform-provider-httpapi: a real Terraform provider built with terraform-plugin-sdk/v2 (protocol 5) for the httpapi
// test service; `terraform-provider-httpapi serve` runs that service instead (see README.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"example.com/terraform-provider-httpapi/api"
	"github.com/hashicorp/terraform-plugin-sdk/v2/plugin"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serve(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	plugin.Serve(&plugin.ServeOpts{ProviderFunc: New, ProviderAddr: "registry.terraform.io/bridge/httpapi"})
}

// serve runs the API service on a loopback address and prints `httpapi listening on http://<addr>` as its first
// stdout line, so that a test can start it on port 0 and learn the port.
func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "loopback address to listen on")
	token := fs.String("token", os.Getenv("HTTPAPI_SERVER_TOKEN"), "bearer token required on /items (empty: none)")
	watchStdin := fs.Bool("watch-stdin", false, "exit when stdin reaches end of file (the parent went away)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	l, err := api.ListenLoopback(*listen)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	fmt.Printf("httpapi listening on http://%s\n", l.Addr())
	return api.New(*token).Serve(ctx, l)
}
