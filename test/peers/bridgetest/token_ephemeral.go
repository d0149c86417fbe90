// Ephemeral resource bridgetest_token: a value made at Open and given up at Close, with crash points in both.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ ephemeral.EphemeralResource          = (*tokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithClose = (*tokenEphemeral)(nil)
)

// tokenEphemeral returns `<name>-<12 hex>` as its sensitive value; nothing outlives it.
type tokenEphemeral struct{}

func (tokenEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_token"
}

func (tokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A short-lived token: made at Open, given up at Close.",
		Attributes: map[string]schema.Attribute{
			"name":  schema.StringAttribute{Required: true, Description: "Prefix of the token."},
			"value": schema.StringAttribute{Computed: true, Sensitive: true, Description: "The token."},
		},
	}
}

func (tokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	crashAt("open")
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	resp.Diagnostics.Append(resp.Result.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.Result.SetAttribute(ctx, path.Root("value"), types.StringValue(name.ValueString()+"-"+hex.EncodeToString(b)))...)
}

func (tokenEphemeral) Close(_ context.Context, _ ephemeral.CloseRequest, _ *ephemeral.CloseResponse) {
	crashAt("close")
}
