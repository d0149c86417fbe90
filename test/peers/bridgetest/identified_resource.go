// bridgetest_identified: a small object with a Terraform resource identity, served at identity schema version 0 or 1.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const identifiedTypeName = "bridgetest_identified"

// IdentityVersionEnv set to "0" serves the old identity schema ({object_id}); anything else serves version 1
// ({id, name}) with an upgrader from version 0, so a client's identity upgrade can be tested across two builds' worth
// of behaviour with one binary.
const IdentityVersionEnv = "BRIDGETEST_IDENTITY_VERSION"

var (
	_ resource.Resource                    = (*identifiedResource)(nil)
	_ resource.ResourceWithConfigure       = (*identifiedResource)(nil)
	_ resource.ResourceWithImportState     = (*identifiedResource)(nil)
	_ resource.ResourceWithIdentity        = (*identifiedResource)(nil)
	_ resource.ResourceWithUpgradeIdentity = (*identifiedResource)(nil)
)

type identifiedResource struct {
	data *providerData
}

type identifiedModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
	Note types.String `tfsdk:"note"`
}

type identityV0 struct {
	ObjectID types.String `tfsdk:"object_id"`
}

type identityV1 struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}

func identityVersion() int64 {
	if os.Getenv(IdentityVersionEnv) == "0" {
		return 0
	}
	return 1
}

var identitySchemaV0 = identityschema.Schema{
	Version: 0,
	Attributes: map[string]identityschema.Attribute{
		"object_id": identityschema.StringAttribute{RequiredForImport: true, Description: "The object's id."},
	},
}

var identitySchemaV1 = identityschema.Schema{
	Version: 1,
	Attributes: map[string]identityschema.Attribute{
		"id":   identityschema.StringAttribute{RequiredForImport: true, Description: "The object's id."},
		"name": identityschema.StringAttribute{OptionalForImport: true, Description: "The object's name; an import that gives it must match."},
	},
}

func (r *identifiedResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_identified"
}

func (r *identifiedResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (r *identifiedResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "An object with a resource identity, stored as <state_dir>/<id>.json.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:      true,
				Description:   "The object's name; changing it replaces the object.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"note": schema.StringAttribute{Optional: true, Description: "Free text, updated in place."},
		},
	}
}

func (r *identifiedResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	if identityVersion() == 0 {
		resp.IdentitySchema = identitySchemaV0
	} else {
		resp.IdentitySchema = identitySchemaV1
	}
}

// UpgradeIdentity renames object_id to id and finds the name in the stored object (null when it is gone).
func (r *identifiedResource) UpgradeIdentity(_ context.Context) map[int64]resource.IdentityUpgrader {
	if identityVersion() == 0 {
		return nil
	}
	return map[int64]resource.IdentityUpgrader{
		0: {
			PriorSchema: &identitySchemaV0,
			IdentityUpgrader: func(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
				var old identityV0
				resp.Diagnostics.Append(req.Identity.Get(ctx, &old)...)
				if resp.Diagnostics.HasError() {
					return
				}
				name := types.StringNull()
				if dir := stateDir(r.data, &resp.Diagnostics); dir != "" {
					if m, found := r.load(ctx, dir, old.ObjectID.ValueString(), &resp.Diagnostics); found {
						name = m.Name
					}
				}
				resp.Diagnostics.Append(resp.Identity.Set(ctx, identityV1{ID: old.ObjectID, Name: name})...)
			},
		},
	}
}

// load reads the stored object id; found is false when it does not exist.
func (r *identifiedResource) load(ctx context.Context, dir, id string, diags *diag.Diagnostics) (identifiedModel, bool) {
	obj, found, err := readObject(dir, id)
	if err != nil {
		diags.AddError("bridgetest: cannot read object", err.Error())
		return identifiedModel{}, false
	}
	if !found {
		return identifiedModel{}, false
	}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	v, err := decodeState(obj.State, sr.Schema.Type().TerraformType(ctx))
	if err != nil {
		diags.AddError("bridgetest: cannot decode object", err.Error())
		return identifiedModel{}, false
	}
	var m identifiedModel
	diags.Append(tfsdk.State{Schema: sr.Schema, Raw: v}.Get(ctx, &m)...)
	return m, !diags.HasError()
}

// setIdentity records the object's identity in whichever version this process serves.
func setIdentity(ctx context.Context, m identifiedModel, identity *tfsdk.ResourceIdentity) diag.Diagnostics {
	if identityVersion() == 0 {
		return identity.Set(ctx, identityV0{ObjectID: m.ID})
	}
	return identity.Set(ctx, identityV1{ID: m.ID, Name: m.Name})
}

func (r *identifiedResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m identifiedModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(newID("identified"))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(setIdentity(ctx, m, resp.Identity)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := writeObject(dir, m.ID.ValueString(), identifiedTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

// Read sets the identity from the stored object: a state without one (imported by id, or written before the resource
// had an identity) gets it here, as Terraform expects.
func (r *identifiedResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if reason, ok := deferAt("read"); ok {
		resp.Deferred = &resource.Deferred{Reason: reason}
		return
	}
	m, found := r.load(ctx, dir, id.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(setIdentity(ctx, m, resp.Identity)...)
}

// Update leaves the identity alone: the framework answers with the planned identity, so a client that does not send
// it back gets "Missing Resource Identity After Update".
func (r *identifiedResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior identifiedModel
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
	if err := writeObject(dir, m.ID.ValueString(), identifiedTypeName, 0, resp.State.Raw.Type(), resp.State.Raw); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
	}
}

// Delete refuses an identity that names another object than the state does.
func (r *identifiedResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.Identity != nil && !req.Identity.Raw.IsNull() {
		var fromIdentity types.String
		attr := "id"
		if identityVersion() == 0 {
			attr = "object_id"
		}
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(attr), &fromIdentity)...)
		if !resp.Diagnostics.HasError() && fromIdentity.ValueString() != id.ValueString() {
			resp.Diagnostics.AddError("bridgetest: identity and state disagree", fmt.Sprintf("the identity names %q, the state %q", fromIdentity.ValueString(), id.ValueString()))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if err := deleteObject(dir, id.ValueString()); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot delete object", err.Error())
	}
}

// ImportState takes an id or an identity; an identity's optional name must match the stored object's.
func (r *identifiedResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if reason, ok := deferAt("import"); ok {
		resp.Deferred = &resource.Deferred{Reason: reason}
	}
	if req.ID != "" || identityVersion() == 0 {
		idPath := path.Root("id")
		if identityVersion() == 0 {
			idPath = path.Root("object_id")
		}
		resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), idPath, req, resp)
		return
	}
	var ident identityV1
	resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m, found := r.load(ctx, dir, ident.ID.ValueString(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !found {
		resp.Diagnostics.AddError("bridgetest: no such object", fmt.Sprintf("there is no object %q to import", ident.ID.ValueString()))
		return
	}
	if !ident.Name.IsNull() && ident.Name.ValueString() != m.Name.ValueString() {
		resp.Diagnostics.AddError("bridgetest: identity does not match", fmt.Sprintf("object %q is named %q, not %q", ident.ID.ValueString(), m.Name.ValueString(), ident.Name.ValueString()))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), ident.ID)...)
}
