package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const relabeledTypeName = "bridgetest_relabeled"

// movedPrivateKey is the private state key a move sets: proof that the mover's private state reached the next call.
const movedPrivateKey = "moved_from"

var (
	_ resource.Resource                = (*relabeledResource)(nil)
	_ resource.ResourceWithConfigure   = (*relabeledResource)(nil)
	_ resource.ResourceWithImportState = (*relabeledResource)(nil)
	_ resource.ResourceWithMoveState   = (*relabeledResource)(nil)
)

// relabeledResource is bridgetest_named as a provider's next release might rename it: the same object, whose `note` is
// now `label` and without `name_prefix`. It takes over a bridgetest_named's state through MoveResourceState (a Terraform
// `moved` block from bridgetest_named, a Pulumi alias from its type), and reads the object file the named resource wrote.
type relabeledResource struct {
	data *providerData
}

type relabeledModel struct {
	ID    types.String `tfsdk:"id"`
	Name  types.String `tfsdk:"name"`
	Label types.String `tfsdk:"label"`
}

func (r *relabeledResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_relabeled"
}

func (r *relabeledResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (r *relabeledResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// id and name are bridgetest_named's own: the object stays the same one.
	named := namedSchema(ctx)
	resp.Schema = schema.Schema{
		Description: "bridgetest_named renamed, its `note` now `label`: takes over a bridgetest_named's state when moved from one.",
		Attributes: map[string]schema.Attribute{
			"id":    named.Attributes["id"],
			"name":  named.Attributes["name"],
			"label": schema.StringAttribute{Optional: true, Description: "Free text, updated in place (bridgetest_named's `note`)."},
		},
	}
}

// MoveState accepts a bridgetest_named of schema version 0 from this provider (any host and namespace: a local build
// has none of its own). Any other source is left unhandled, so the framework answers "Unable to Move Resource State".
func (r *relabeledResource) MoveState(_ context.Context) []resource.StateMover {
	named := namedSchema(context.Background())
	return []resource.StateMover{{
		SourceSchema: &named,
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			if req.SourceTypeName != namedTypeName || req.SourceSchemaVersion != 0 || !strings.HasSuffix(req.SourceProviderAddress, "/bridgetest") {
				return
			}
			if req.SourceState == nil {
				resp.Diagnostics.AddError("bridgetest: cannot read the moved state", "the source state does not match bridgetest_named's schema")
				return
			}
			var src namedModel
			resp.Diagnostics.Append(req.SourceState.Get(ctx, &src)...)
			if resp.Diagnostics.HasError() {
				return
			}
			tflog.Info(ctx, "bridgetest: moving object", map[string]any{"from": req.SourceTypeName, "provider": req.SourceProviderAddress, "id": src.ID.ValueString()})
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, &relabeledModel{ID: src.ID, Name: src.Name, Label: src.Note})...)
			resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, movedPrivateKey, []byte(`"`+namedTypeName+`"`))...)
		},
	}}
}

func (r *relabeledResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m relabeledModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(newID("relabeled"))
	if m.Name.IsNull() || m.Name.IsUnknown() {
		m.Name = types.StringValue("provider-chose-" + m.ID.ValueString())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), relabeledTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

// Read returns the stored object, translating one a bridgetest_named wrote (before the move) as the move does.
func (r *relabeledResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	obj, ok := readStored(ctx, r.data, req, resp)
	if !ok {
		return
	}
	if obj.Resource != namedTypeName {
		v, err := decodeState(obj.State, req.State.Raw.Type())
		if err != nil {
			resp.Diagnostics.AddError("bridgetest: cannot decode object", err.Error())
			return
		}
		resp.State.Raw = v
		return
	}
	named := namedSchema(ctx)
	v, err := decodeState(obj.State, named.Type().TerraformType(ctx))
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot decode object", err.Error())
		return
	}
	var src namedModel
	old := resp.State
	old.Schema, old.Raw = named, v
	resp.Diagnostics.Append(old.Get(ctx, &src)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &relabeledModel{ID: src.ID, Name: src.Name, Label: src.Note})...)
}

func (r *relabeledResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior relabeledModel
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
	if err := writeObject(dir, m.ID.ValueString(), relabeledTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

func (r *relabeledResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteStored(ctx, r.data, req, resp)
}

func (r *relabeledResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
