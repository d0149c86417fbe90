// Command terraform-provider-shapefw serves the oracle corpus's shapes (../SHAPES.md) with terraform-plugin-framework, protocol 6.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

func main() {
	factory, err := newProvider()
	if err != nil {
		log.Fatal(err.Error())
	}
	if err := providerserver.Serve(context.Background(), factory, providerserver.ServeOpts{
		Address:         "registry.terraform.io/bridge/shapefw",
		ProtocolVersion: 6,
	}); err != nil {
		log.Fatal(err.Error())
	}
}
