package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const failingTypeName = "bridgetest_failing"

var (
	_ resource.Resource              = (*failingResource)(nil)
	_ resource.ResourceWithConfigure = (*failingResource)(nil)
)

// failingResource writes its file and then fails on demand, returning the
// partial state it had set together with the error.
type failingResource struct {
	data *providerData
}

type failingModel struct {
	ID       types.String   `tfsdk:"id"`
	Name     types.String   `tfsdk:"name"`
	Value    types.String   `tfsdk:"value"`
	Fail     types.Bool     `tfsdk:"fail"`
	Status   types.String   `tfsdk:"status"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

// defaultDeleteTimeout is what Delete reports when the state sets no timeouts.delete.
const defaultDeleteTimeout = 20 * time.Minute

func (r *failingResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_failing"
}

func (r *failingResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (r *failingResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Writes <state_dir>/<id>.json, then fails when the provider's fail_on names the operation or `fail` is true.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name":  schema.StringAttribute{Required: true},
			"value": schema.StringAttribute{Optional: true},
			"fail": schema.BoolAttribute{
				Optional:    true,
				Description: "Fail Create and Update (after writing the file) like fail_on = create/update.",
			},
			"status": schema.StringAttribute{
				Computed:    true,
				Description: `"created" or "updated" on success, "partial" in the state returned with a failure.`,
			},
			// The plugin framework's standard timeouts attribute; Delete reads timeouts.delete from the prior state.
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Delete: true}),
		},
	}
}

func (r *failingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m failingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	failing := failOn(r.data) == "create" || m.Fail.ValueBool()
	m.ID = types.StringValue(newID("fail"))
	m.Status = types.StringValue("created")
	if failing {
		m.Status = types.StringValue("partial")
	}
	tflog.Info(ctx, "bridgetest: creating failing resource", map[string]any{"id": m.ID.ValueString(), "will_fail": failing})
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), failingTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
		return
	}
	if failing {
		resp.Diagnostics.AddError("bridgetest: deliberate create failure",
			fmt.Sprintf("Object %s was created, then Create failed on purpose; its partial state is returned with this error.", m.ID.ValueString()))
	}
}

func (r *failingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if failOn(r.data) == "read" {
		resp.Diagnostics.AddError("bridgetest: deliberate read failure", "fail_on = read")
		return
	}
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

func (r *failingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.State.Raw
	var m failingModel
	var prior failingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	failing := failOn(r.data) == "update" || m.Fail.ValueBool()
	m.ID = prior.ID
	m.Status = types.StringValue("updated")
	if failing {
		m.Status = types.StringValue("partial")
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), failingTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
		return
	}
	if failing {
		resp.Diagnostics.AddError("bridgetest: deliberate update failure",
			fmt.Sprintf("Object %s was rewritten, then Update failed on purpose; its partial state is returned with this error.", m.ID.ValueString()))
	}
}

func (r *failingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if failOn(r.data) == "delete" {
		// The deadline Delete would have run under, read as providers read it: from the prior state's timeouts.
		var t timeouts.Value
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &t)...)
		deadline, diags := t.Delete(ctx, defaultDeleteTimeout)
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.AddError("bridgetest: deliberate delete failure", fmt.Sprintf("fail_on = delete; the object file is kept (delete timeout %s)", deadline))
		return
	}
	deleteStored(ctx, r.data, req, resp)
}
