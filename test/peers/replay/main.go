// Command terraform-provider-replay serves any `terraform providers schema -json` dump as a provider, over plugin
// protocol 5 or 6, with the shapes peers' generic behaviour. See README.md.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-mux/tf6to5server"
)

const (
	envSchema   = "REPLAY_SCHEMA"
	envProvider = "REPLAY_PROVIDER"
	envProtocol = "REPLAY_PROTOCOL"
	envStore    = "REPLAY_STORE"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "terraform-provider-replay:", err)
		os.Exit(1)
	}
}

func run() error {
	path := os.Getenv(envSchema)
	if path == "" {
		return fmt.Errorf("%s is not set: name the `terraform providers schema -json` dump (.json or .json.gz) to serve", envSchema)
	}
	s, err := loadDump(path, os.Getenv(envProvider))
	if err != nil {
		return err
	}
	protocol := os.Getenv(envProtocol)
	if protocol == "" {
		// Nested attributes exist in protocol 6 only; a dump without them is served as SDKv2 providers are.
		protocol = "5"
		if s.hasNesting {
			protocol = "6"
		}
	}
	p := &server{s: s, store: os.Getenv(envStore)}
	v6 := func() tfprotov6.ProviderServer { return p }
	switch protocol {
	case "6":
		return tf6server.Serve(s.address, v6)
	case "5":
		if s.hasNesting {
			return fmt.Errorf("%s=5: the dump has nested attributes, which protocol 5 cannot carry; use 6", envProtocol)
		}
		v5, err := tf6to5server.DowngradeServer(context.Background(), v6)
		if err != nil {
			return err
		}
		return tf5server.Serve(s.address, func() tfprotov5.ProviderServer { return v5 })
	}
	return fmt.Errorf("%s=%q: the protocol is 5 or 6", envProtocol, protocol)
}
