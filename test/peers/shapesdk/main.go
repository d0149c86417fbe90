// Command terraform-provider-shapesdk serves the oracle corpus's shapes (../SHAPES.md) with terraform-plugin-sdk/v2, protocol 5.
package main

import (
	"log"

	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/plugin"
)

func main() {
	p, err := New()
	if err != nil {
		log.Fatal(err.Error())
	}
	plugin.Serve(&plugin.ServeOpts{ProviderFunc: func() *schema.Provider { return p }, ProviderAddr: "registry.terraform.io/bridge/shapesdk"})
}
