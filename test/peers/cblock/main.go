// Command terraform-provider-cblock is a Terraform provider that speaks plugin protocol 6 itself, from the tfplugin6
// descriptor Terraform v1.16.4 publishes (descriptor.go), because no SDK served here emits Terraform 1.16's computed
// blocks or reads planned_private. It serves one resource with computed blocks and records what every RPC receives to
// the file named by CBLOCK_RECORD (one JSON object a line). See README.md.
package main

import (
	"context"
	"errors"
	"net/rpc"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

type providerPlugin struct{}

func (providerPlugin) Server(*plugin.MuxBroker) (interface{}, error) {
	return nil, errors.New("cblock serves gRPC only")
}

func (providerPlugin) Client(*plugin.MuxBroker, *rpc.Client) (interface{}, error) {
	return nil, errors.New("cblock serves gRPC only")
}

func (providerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("cblock serves gRPC only")
}

func (providerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	return register(s)
}

func main() {
	plugin.Serve(&plugin.ServeConfig{
		// Terraform's handshake for protocol 6 (terraform-plugin-go's tf6server uses the same).
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		Plugins:    plugin.PluginSet{"provider": providerPlugin{}},
		GRPCServer: plugin.DefaultGRPCServer,
	})
}
