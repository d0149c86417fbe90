package main

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

const (
	objectTypeName      = "bridgetest_object"
	objectSchemaVersion = 1
	privateKey          = "created_by"
	panicName           = "panic-now"
)

var (
	_ resource.Resource                   = (*objectResource)(nil)
	_ resource.ResourceWithConfigure      = (*objectResource)(nil)
	_ resource.ResourceWithImportState    = (*objectResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*objectResource)(nil)
	_ resource.ResourceWithValidateConfig = (*objectResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*objectResource)(nil)
)

// objectResource stores every attribute of its state in <state_dir>/<id>.json.
type objectResource struct {
	data *providerData
}

func (r *objectResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_object"
}

func (r *objectResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig and ModifyPlan exist for the crash points (crash.go), the deferral switch (defer.go) and the warning
// points (warn.go) only.
func (r *objectResource) ValidateConfig(_ context.Context, _ resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	crashAt("validate")
	warnAt("validate", &resp.Diagnostics)
}

func (r *objectResource) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() {
		crashAt("plan")
		warnAt("plan", &resp.Diagnostics)
		if reason, ok := deferAt("plan"); ok {
			resp.Deferred = &resource.Deferred{Reason: reason}
		}
	}
}

// innerAttributes is the attribute set of every nested attribute object and of
// list_block: a required key, an optional value and an optional+computed tag
// the provider fills with "auto" when the configuration leaves it out.
func innerAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"key":          schema.StringAttribute{Required: true},
		"value":        schema.StringAttribute{Optional: true},
		"computed_tag": schema.StringAttribute{Optional: true, Computed: true},
	}
}

func objectSchemaV1() schema.Schema {
	return schema.Schema{
		Version:     objectSchemaVersion,
		Description: "An object stored as a JSON file in the provider's state_dir; exercises every schema shape.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Description:   `Changing it replaces the object. "` + panicName + `" makes Create panic.`,
			},
			"number_value": schema.NumberAttribute{Optional: true},
			"int_value":    schema.Int64Attribute{Optional: true},
			"bool_value":   schema.BoolAttribute{Optional: true},
			"list_value":   schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"set_value":    schema.SetAttribute{Optional: true, ElementType: types.StringType},
			"map_value":    schema.MapAttribute{Optional: true, ElementType: types.StringType},
			"object_value": schema.ObjectAttribute{Optional: true, AttributeTypes: map[string]attr.Type{
				"a": types.StringType,
				"b": types.NumberType,
				"c": types.BoolType,
			}},
			"single_nested": schema.SingleNestedAttribute{Optional: true, Attributes: innerAttributes()},
			"list_nested": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: innerAttributes(),
			}},
			"set_nested": schema.SetNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: innerAttributes(),
			}},
			"map_nested": schema.MapNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
				Attributes: innerAttributes(),
			}},
			"dynamic_value": schema.DynamicAttribute{Optional: true},
			"secret":        schema.StringAttribute{Optional: true, Sensitive: true},
			"with_default": schema.StringAttribute{
				Optional: true, Computed: true,
				Default: stringdefault.StaticString("default-value"),
			},
			"optional_computed": schema.StringAttribute{
				Optional: true, Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				Description:   `When not configured the provider sets "provider-chose".`,
			},
			"revision": schema.Int64Attribute{
				Computed:    true,
				Description: "1 after Create, incremented by every Update.",
			},
			"write_only_secret": schema.StringAttribute{
				Optional: true, Sensitive: true, WriteOnly: true,
				Description: "Write-only: never stored in state (needs the client capability write_only_attributes_allowed).",
			},
			"write_only_version": schema.Int64Attribute{
				Optional:    true,
				Description: "The companion of write_only_secret: changing it is what drives an Update, since the secret is never stored to compare.",
			},
			"write_only_seen": schema.BoolAttribute{
				Computed:    true,
				Description: "Whether the last Create/Update saw a non-null write_only_secret in its configuration.",
			},
		},
		Blocks: map[string]schema.Block{
			"list_block": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: innerAttributes(),
				Blocks: map[string]schema.Block{
					"sub": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
						Attributes: map[string]schema.Attribute{"note": schema.StringAttribute{Optional: true}},
					}},
				},
			}},
			"set_block": schema.SetNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"key":   schema.StringAttribute{Required: true},
					"value": schema.StringAttribute{Optional: true},
				},
			}},
			"single_block": schema.SingleNestedBlock{
				Attributes: map[string]schema.Attribute{
					"key":   schema.StringAttribute{Optional: true},
					"value": schema.StringAttribute{Optional: true},
				},
			},
			"max1_block": schema.ListNestedBlock{
				Validators: []validator.List{listvalidator.SizeAtMost(1)},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"key":   schema.StringAttribute{Optional: true},
						"value": schema.StringAttribute{Optional: true},
					},
				},
			},
		},
	}
}

// objectSchemaV0 is the prior schema: `title` instead of `name`, few attributes.
func objectSchemaV0() schema.Schema {
	return schema.Schema{
		Version: 0,
		Attributes: map[string]schema.Attribute{
			"id":           schema.StringAttribute{Computed: true},
			"title":        schema.StringAttribute{Required: true},
			"number_value": schema.NumberAttribute{Optional: true},
			"list_value":   schema.ListAttribute{Optional: true, ElementType: types.StringType},
		},
	}
}

func (r *objectResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = objectSchemaV1()
}

func v1Type(ctx context.Context) tftypes.Object {
	s := objectSchemaV1()
	return s.Type().TerraformType(ctx).(tftypes.Object)
}

func v0Type(ctx context.Context) tftypes.Object {
	s := objectSchemaV0()
	return s.Type().TerraformType(ctx).(tftypes.Object)
}

// upgradeV0 maps a version-0 state to version 1 (title becomes name).
func upgradeV0(v0 tftypes.Value, t1 tftypes.Object) (tftypes.Value, error) {
	var old map[string]tftypes.Value
	if err := v0.As(&old); err != nil {
		return tftypes.Value{}, err
	}
	out := map[string]tftypes.Value{}
	for k, t := range t1.AttributeTypes {
		switch k {
		case "list_block", "set_block", "max1_block": // absent blocks are empty, not null
			out[k] = tftypes.NewValue(t, []tftypes.Value{})
		default:
			out[k] = tftypes.NewValue(t, nil)
		}
	}
	for _, k := range []string{"id", "number_value", "list_value"} {
		if v, ok := old[k]; ok {
			out[k] = v
		}
	}
	if v, ok := old["title"]; ok {
		out["name"] = v
	}
	out["revision"] = tftypes.NewValue(tftypes.Number, big.NewFloat(1))
	out["with_default"] = tftypes.NewValue(tftypes.String, "default-value")
	out["optional_computed"] = tftypes.NewValue(tftypes.String, "provider-chose")
	out["write_only_seen"] = tftypes.NewValue(tftypes.Bool, false)
	return tftypes.NewValue(t1, out), nil
}

func (r *objectResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	prior := objectSchemaV0()
	return map[int64]resource.StateUpgrader{
		0: {
			PriorSchema: &prior,
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				tflog.Info(ctx, "bridgetest: upgrading bridgetest_object state from version 0")
				crashAt("upgrade")
				v, err := upgradeV0(req.State.Raw, v1Type(ctx))
				if err != nil {
					resp.Diagnostics.AddError("bridgetest: state upgrade failed", err.Error())
					return
				}
				resp.State.Raw = v
			},
		},
	}
}

// complete resolves the unknown values of a planned state into the new state,
// and nulls the write-only attribute so it is never stored.
func complete(plan tftypes.Value, id string, revision int64, woSeen bool) (tftypes.Value, error) {
	return tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		name, depth := lastAttributeName(p)
		if depth == 1 && name == "write_only_secret" {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		if v.IsKnown() {
			return v, nil
		}
		switch {
		case depth == 1 && name == "id":
			return tftypes.NewValue(tftypes.String, id), nil
		case depth == 1 && name == "revision":
			return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(revision)), nil
		case depth == 1 && name == "write_only_seen":
			return tftypes.NewValue(tftypes.Bool, woSeen), nil
		case depth == 1 && name == "optional_computed":
			return tftypes.NewValue(tftypes.String, "provider-chose"), nil
		case name == "computed_tag":
			return tftypes.NewValue(tftypes.String, "auto"), nil
		}
		return v, fmt.Errorf("bridgetest: unexpected unknown value in the planned state")
	})
}

// decodeStored turns a stored object (schema version 0 or 1) into a v1 state value.
func decodeStored(ctx context.Context, obj storedObject) (tftypes.Value, error) {
	switch obj.SchemaVersion {
	case 0:
		v0, err := decodeState(obj.State, v0Type(ctx))
		if err != nil {
			return tftypes.Value{}, err
		}
		return upgradeV0(v0, v1Type(ctx))
	case objectSchemaVersion:
		return decodeState(obj.State, v1Type(ctx))
	}
	return tftypes.Value{}, fmt.Errorf("unsupported stored schema_version %d", obj.SchemaVersion)
}

func checkPrivate(ctx context.Context, op string, get func(context.Context, string) ([]byte, diag.Diagnostics), diags *diag.Diagnostics) {
	b, d := get(ctx, privateKey)
	diags.Append(d...)
	if len(b) == 0 {
		diags.AddError("bridgetest: private state missing",
			fmt.Sprintf("%s received no private state key %q, which Create and ImportState always set: the caller dropped the resource's private state.", op, privateKey))
	}
}

func (r *objectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var name, wo types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("write_only_secret"), &wo)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "bridgetest: creating object", map[string]any{"name": name.ValueString()})
	if name.ValueString() == panicName {
		panic("bridgetest: deliberate panic for crash tests")
	}
	crashAt("create")
	warnAt("create", &resp.Diagnostics)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := newID("obj")
	st, err := complete(req.Plan.Raw, id, 1, !wo.IsNull())
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot complete planned state", err.Error())
		return
	}
	tflog.Debug(ctx, "bridgetest: writing object file", map[string]any{"id": id, "state_dir": dir})
	if err := writeObject(dir, id, objectTypeName, objectSchemaVersion, v1Type(ctx), st); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
		return
	}
	// The object exists now, but its id never reaches the caller.
	crashAt("create-after")
	resp.State.Raw = st
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(`"bridgetest"`))...)
	tflog.Info(ctx, "bridgetest: created object", map[string]any{"id": id})
}

func (r *objectResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	crashAt("read")
	warnAt("read", &resp.Diagnostics)
	obj, ok := readStored(ctx, r.data, req, resp)
	if !ok {
		return
	}
	checkPrivate(ctx, "Read", req.Private.GetKey, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	v, err := decodeStored(ctx, obj)
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot decode object", err.Error())
		return
	}
	resp.State.Raw = v
}

func (r *objectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.State.Raw // on any error below, keep the prior state
	crashAt("update")
	warnAt("update", &resp.Diagnostics)
	checkPrivate(ctx, "Update", req.Private.GetKey, &resp.Diagnostics)
	var id types.String
	var rev types.Int64
	var wo types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("revision"), &rev)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("write_only_secret"), &wo)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	st, err := complete(req.Plan.Raw, id.ValueString(), rev.ValueInt64()+1, !wo.IsNull())
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot complete planned state", err.Error())
		return
	}
	tflog.Info(ctx, "bridgetest: updating object", map[string]any{"id": id.ValueString(), "revision": rev.ValueInt64() + 1})
	if err := writeObject(dir, id.ValueString(), objectTypeName, objectSchemaVersion, v1Type(ctx), st); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot write object", err.Error())
		return
	}
	resp.State.Raw = st
}

func (r *objectResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "bridgetest: deleting object", map[string]any{"id": id.ValueString()})
	crashAt("delete")
	warnAt("delete", &resp.Diagnostics)
	if err := deleteObject(dir, id.ValueString()); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot delete object", err.Error())
	}
}

func (r *objectResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	crashAt("import")
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	dir := stateDir(r.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	obj, found, err := readObject(dir, req.ID)
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot read object", err.Error())
		return
	}
	if !found {
		resp.Diagnostics.AddError("bridgetest: cannot import",
			fmt.Sprintf("no object %q in %s", req.ID, dir))
		return
	}
	v, err := decodeStored(ctx, obj)
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot decode object", err.Error())
		return
	}
	resp.State.Raw = v
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(`"import"`))...)
}
