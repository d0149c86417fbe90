package main

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ resource.Resource                 = (*versionedResource)(nil)
	_ resource.ResourceWithUpgradeState = (*versionedResource)(nil)
)

// versionedResource is the same resource as two releases of a provider ship it: BRIDGETEST_VERSIONED_SCHEMA=0 serves
// schema version 0 (`title`), anything else version 1, where `title` is renamed `name` and an upgrader moves stored
// state across, so one binary stands in for an old and a new release. Kept in state only.
type versionedResource struct{}

func versionedV0() bool { return os.Getenv("BRIDGETEST_VERSIONED_SCHEMA") == "0" }

func (r *versionedResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_versioned"
}

func versionedSchema(v0 bool) schema.Schema {
	label := "name"
	version := int64(1)
	if v0 {
		label, version = "title", 0
	}
	return schema.Schema{
		Version:     version,
		Description: "A resource whose schema moves from version 0 (`title`) to 1 (`name`) between releases.",
		Attributes: map[string]schema.Attribute{
			"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			label:  schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"size": schema.Int64Attribute{Optional: true},
		},
	}
}

func (r *versionedResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = versionedSchema(versionedV0())
}

func (r *versionedResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	if versionedV0() {
		return nil
	}
	prior := versionedSchema(true)
	return map[int64]resource.StateUpgrader{
		0: {
			PriorSchema: &prior,
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				crashAt("upgrade")
				var old map[string]tftypes.Value
				if err := req.State.Raw.As(&old); err != nil {
					resp.Diagnostics.AddError("bridgetest: versioned state upgrade failed", err.Error())
					return
				}
				t := versionedSchema(false).Type().TerraformType(ctx).(tftypes.Object)
				resp.State.Raw = tftypes.NewValue(t, map[string]tftypes.Value{"id": old["id"], "name": old["title"], "size": old["size"]})
			},
		},
	}
}

func (r *versionedResource) label() string {
	if versionedV0() {
		return "title"
	}
	return "name"
}

func (r *versionedResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	crashAt("create")
	var label types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathRoot(r.label()), &label)...)
	resp.State.Raw = req.Plan.Raw
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathRoot("id"), types.StringValue("versioned-"+label.ValueString()))...)
}

func (r *versionedResource) Read(_ context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	resp.State.Raw = req.State.Raw
}

func (r *versionedResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	crashAt("update")
	resp.State.Raw = req.Plan.Raw
}

func (r *versionedResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}
