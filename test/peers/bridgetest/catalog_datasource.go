package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSource = (*catalogDataSource)(nil)

// catalogDataSource returns nested results whose attributes are computed, optional and computed, or only optional: the
// shapes whose Pulumi output types mark required what the provider always fills in (output-position rules).
type catalogDataSource struct{}

func (d *catalogDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_catalog"
}

var catalogEntryAttrs = map[string]attr.Type{"id": types.StringType, "label": types.StringType, "note": types.StringType, "size": types.Int64Type}
var catalogSummaryAttrs = map[string]attr.Type{"count": types.Int64Type, "owner": types.StringType}
var catalogDetailAttrs = map[string]attr.Type{"kind": types.StringType, "level": types.Int64Type}

func (d *catalogDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A fixed catalog of entries named after `prefix`, for nested results with computed and optional attributes.",
		Attributes: map[string]schema.Attribute{
			"prefix": schema.StringAttribute{Optional: true, Description: "Prefix of every entry id."},
			"entries": schema.ListNestedAttribute{
				Computed:    true,
				Description: "The entries.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":    schema.StringAttribute{Computed: true, Description: "Always set."},
					"label": schema.StringAttribute{Optional: true, Computed: true, Description: "Set by the provider."},
					"note":  schema.StringAttribute{Optional: true, Description: "Never set by the provider."},
					"size":  schema.Int64Attribute{Computed: true, Description: "Always set."},
				}},
			},
			"summary": schema.SingleNestedAttribute{
				Computed:    true,
				Description: "Counts.",
				Attributes: map[string]schema.Attribute{
					"count": schema.Int64Attribute{Computed: true},
					"owner": schema.StringAttribute{Optional: true, Computed: true},
				},
			},
		},
		Blocks: map[string]schema.Block{
			"detail": schema.ListNestedBlock{
				Description: "Details, one per entry.",
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"kind":  schema.StringAttribute{Optional: true, Computed: true},
					"level": schema.Int64Attribute{Computed: true},
				}},
			},
		},
	}
}

func (d *catalogDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	crashAt("datasource")
	var prefix types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathRoot("prefix"), &prefix)...)
	p := prefix.ValueString()
	var entries, details []attr.Value
	for i, name := range []string{"a", "b"} {
		e, diags := types.ObjectValue(catalogEntryAttrs, map[string]attr.Value{
			"id": types.StringValue(p + name), "label": types.StringValue("entry " + name), "note": types.StringNull(), "size": types.Int64Value(int64(i + 1)),
		})
		resp.Diagnostics.Append(diags...)
		entries = append(entries, e)
		dt, diags := types.ObjectValue(catalogDetailAttrs, map[string]attr.Value{"kind": types.StringValue("plain"), "level": types.Int64Value(int64(i))})
		resp.Diagnostics.Append(diags...)
		details = append(details, dt)
	}
	list, diags := types.ListValue(types.ObjectType{AttrTypes: catalogEntryAttrs}, entries)
	resp.Diagnostics.Append(diags...)
	detail, diags := types.ListValue(types.ObjectType{AttrTypes: catalogDetailAttrs}, details)
	resp.Diagnostics.Append(diags...)
	summary, diags := types.ObjectValue(catalogSummaryAttrs, map[string]attr.Value{"count": types.Int64Value(int64(len(entries))), "owner": types.StringValue("bridgetest")})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathRoot("prefix"), prefix)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathRoot("entries"), list)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathRoot("summary"), summary)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathRoot("detail"), detail)...)
}
