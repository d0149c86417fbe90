// Command terraform-provider-bridgetest is a small but real Terraform provider
// (terraform-plugin-framework, plugin protocol 6) used as a test peer for the
// bridge. See README.md.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

// Address is the provider source address the server announces.
const Address = "registry.terraform.io/bridge/bridgetest"

var version = "0.1.0"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "start the provider in debug mode (reattach config printed to stdout)")
	flag.Parse()

	err := providerserver.Serve(context.Background(), New(version), providerserver.ServeOpts{
		Address:         Address,
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
