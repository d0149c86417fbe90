package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ datasource.DataSource              = (*echoDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*echoDataSource)(nil)
)

// echoDataSource returns its dynamic input unchanged plus the object ids in state_dir.
type echoDataSource struct {
	data *providerData
}

type echoModel struct {
	Input  types.Dynamic `tfsdk:"input"`
	Output types.Dynamic `tfsdk:"output"`
	Files  types.List    `tfsdk:"files"`
}

func (d *echoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_echo"
}

func (d *echoDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (d *echoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Echoes input as output and lists the object ids in state_dir.",
		Attributes: map[string]schema.Attribute{
			"input":  schema.DynamicAttribute{Required: true, Description: "Any value."},
			"output": schema.DynamicAttribute{Computed: true, Description: "input, unchanged."},
			"files": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				Description: "Ids of the objects (<id>.json files) currently in state_dir, sorted.",
			},
		},
	}
}

func (d *echoDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	crashAt("datasource")
	var m echoModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	dir := stateDir(d.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ids, err := listObjects(dir)
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot list state_dir", err.Error())
		return
	}
	tflog.Debug(ctx, "bridgetest: echo", map[string]any{"files": len(ids)})
	files, diags := types.ListValueFrom(ctx, types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	m.Output = m.Input
	m.Files = files
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
