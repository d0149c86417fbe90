package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const namedTypeName = "bridgetest_named"

var (
	_ resource.Resource                = (*namedResource)(nil)
	_ resource.ResourceWithConfigure   = (*namedResource)(nil)
	_ resource.ResourceWithImportState = (*namedResource)(nil)
)

// namedSchema is bridgetest_named's schema, which bridgetest_relabeled shares and moves from.
func namedSchema(ctx context.Context) schema.Schema {
	var resp resource.SchemaResponse
	(&namedResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	return resp.Schema
}

// namedResource has an optional name, as many cloud resources do: the provider picks one when the
// configuration leaves it out, and a bridge may fill it in first (Pulumi's autonaming).
type namedResource struct {
	data *providerData
}

type namedModel struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	NamePrefix types.String `tfsdk:"name_prefix"`
	Note       types.String `tfsdk:"note"`
}

func (r *namedResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_named"
}

func (r *namedResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (r *namedResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "An object with an optional name (the provider picks one if none is given), stored as <state_dir>/<id>.json.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Description: "The object's name; changing it replaces the object. Defaults to one the provider generates.",
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.RequiresReplaceIfConfigured(),
					stringplanmodifier.UseStateForUnknown(),
				},
			},
			"name_prefix": schema.StringAttribute{
				Optional:      true,
				Description:   "Makes the provider name the object <name_prefix><id>; conflicts with name, as in many real providers.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"note": schema.StringAttribute{Optional: true, Description: "Free text, updated in place."},
		},
	}
}

func (r *namedResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m namedModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(newID("named"))
	if !m.NamePrefix.IsNull() && !m.Name.IsNull() && !m.Name.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("name_prefix"), "Conflicting configuration arguments", "\"name_prefix\": conflicts with name")
		return
	}
	if !m.NamePrefix.IsNull() {
		m.Name = types.StringValue(m.NamePrefix.ValueString() + m.ID.ValueString())
	} else if m.Name.IsNull() || m.Name.IsUnknown() {
		m.Name = types.StringValue("provider-chose-" + m.ID.ValueString())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), namedTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

func (r *namedResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	obj, ok := readStored(ctx, r.data, req, resp)
	if !ok {
		return
	}
	v, err := decodeState(obj.State, req.State.Raw.Type())
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot decode object", err.Error())
		return
	}
	resp.State.Raw = v
}

func (r *namedResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior namedModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = prior.ID
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), namedTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

func (r *namedResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteStored(ctx, r.data, req, resp)
}

func (r *namedResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
