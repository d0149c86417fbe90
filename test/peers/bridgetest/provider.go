package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// StateDirEnv is consulted when the provider configuration has no state_dir.
const StateDirEnv = "BRIDGETEST_STATE_DIR"

var (
	_ provider.Provider                       = (*bridgetestProvider)(nil)
	_ provider.ProviderWithFunctions          = (*bridgetestProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*bridgetestProvider)(nil)
	_ provider.ProviderWithActions            = (*bridgetestProvider)(nil)
	_ provider.ProviderWithListResources      = (*bridgetestProvider)(nil)
)

type bridgetestProvider struct {
	version string
}

// New returns the provider factory handed to providerserver.Serve.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &bridgetestProvider{version: version} }
}

type providerModel struct {
	StateDir types.String `tfsdk:"state_dir"`
	APIToken types.String `tfsdk:"api_token"`
	FailOn   types.String `tfsdk:"fail_on"`
}

// providerData is what Configure hands to resources and data sources.
type providerData struct {
	StateDir string
	APIToken string
	FailOn   string
}

func (p *bridgetestProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "bridgetest"
	resp.Version = p.version
}

func (p *bridgetestProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Test peer provider for the Pulumi/Terraform bridge.",
		Attributes: map[string]schema.Attribute{
			"state_dir": schema.StringAttribute{
				Optional:    true,
				Description: "Directory where resources store their objects as <id>.json. Defaults to $" + StateDirEnv + ".",
			},
			"api_token": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "Unused secret; exercises sensitive provider configuration.",
			},
			"fail_on": schema.StringAttribute{
				Optional:    true,
				Description: "Operation at which bridgetest_failing fails: create, update, read or delete.",
			},
		},
	}
}

func (p *bridgetestProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	crashAt("configure")
	warnAt("configure", &resp.Diagnostics)
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{
		StateDir: cfg.StateDir.ValueString(), // "" when null or unknown
		APIToken: cfg.APIToken.ValueString(),
		FailOn:   cfg.FailOn.ValueString(),
	}
	tflog.Info(ctx, "bridgetest: provider configured", map[string]any{
		"state_dir":     data.StateDir,
		"has_api_token": data.APIToken != "",
		"fail_on":       data.FailOn,
	})
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
}

func (p *bridgetestProvider) Resources(_ context.Context) []func() resource.Resource {
	return append([]func() resource.Resource{
		func() resource.Resource { return &objectResource{} },
		func() resource.Resource { return &failingResource{} },
		func() resource.Resource { return &namedResource{} },
		func() resource.Resource { return &identifiedResource{} },
		func() resource.Resource { return &loginResource{} },
		func() resource.Resource { return &versionedResource{} },
		func() resource.Resource { return &relabeledResource{} },
	}, syntheticResources()...)
}

func (p *bridgetestProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return append([]func() datasource.DataSource{
		func() datasource.DataSource { return &echoDataSource{} },
		func() datasource.DataSource { return &catalogDataSource{} },
	}, syntheticDataSources()...)
}

func (p *bridgetestProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		func() ephemeral.EphemeralResource { return tokenEphemeral{} },
	}
}

func (p *bridgetestProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return &identifiedList{} },
	}
}

func (p *bridgetestProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return reverseFunction{} },
		func() function.Function { return joinFunction{} },
	}
}

// Actions are in progress_action.go.
func (p *bridgetestProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		func() action.Action { return stepsAction{suffix: "progress"} },
		func() action.Action { return stepsAction{suffix: "refuse", fail: true} },
	}
}

// configureData converts the ProviderData passed to a resource or data source.
func configureData(raw any, diags *diag.Diagnostics) *providerData {
	if raw == nil { // provider not configured (yet), e.g. during validation
		return nil
	}
	d, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T", raw))
		return nil
	}
	return d
}

// stateDir resolves where objects live: provider state_dir, else $BRIDGETEST_STATE_DIR.
func stateDir(d *providerData, diags *diag.Diagnostics) string {
	if d != nil && d.StateDir != "" {
		return d.StateDir
	}
	if v := os.Getenv(StateDirEnv); v != "" {
		return v
	}
	diags.AddError("bridgetest: no state directory",
		"Set the provider's state_dir or the environment variable "+StateDirEnv+".")
	return ""
}

func failOn(d *providerData) string {
	if d == nil {
		return ""
	}
	return d.FailOn
}
