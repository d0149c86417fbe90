// One generic resource per shape: stores what the plan gives (unknowns filled with fixed values), reads it back as stored.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type shapeResource struct {
	typeName  string
	desc      shapeDesc
	schema    schema.Schema
	writeOnly map[string]bool
}

var (
	_ resource.ResourceWithImportState = (*shapeResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*shapeResource)(nil)
)

func (r *shapeResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.typeName
}

func (r *shapeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}

// ModifyPlan plans each `plan` entry's computed value from its source, as a provider's ModifyPlan derives one.
func (r *shapeResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	for _, p := range r.desc.Plan {
		var from types.String
		resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root(p.From), &from)...)
		switch {
		case from.IsUnknown():
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(p.Set), types.StringUnknown())...)
		case !from.IsNull():
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(p.Set), types.StringValue("derived-"+from.ValueString()))...)
		}
	}
}

func (r *shapeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	v, err := r.save(ctx, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("creating "+r.typeName, err.Error())
		return
	}
	resp.State.Raw = v
}

func (r *shapeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	v, err := r.save(ctx, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("updating "+r.typeName, err.Error())
		return
	}
	resp.State.Raw = v
}

// save settles a plan and stores the object: what Create and Update both return as the new state.
func (r *shapeResource) save(ctx context.Context, plan tftypes.Value) (tftypes.Value, error) {
	v, err := r.settle(plan)
	if err != nil {
		return v, err
	}
	return v, r.store(ctx, v)
}

func (r *shapeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	id, err := idOf(req.State.Raw)
	if err != nil {
		resp.Diagnostics.AddError("reading "+r.typeName, err.Error())
		return
	}
	file, err := objectFile(r.typeName, id)
	if err != nil {
		resp.Diagnostics.AddError("reading "+r.typeName, err.Error())
		return
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("reading "+r.typeName, err.Error())
		return
	}
	v, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(r.schema.Type().TerraformType(ctx))
	if err != nil {
		resp.Diagnostics.AddError("reading "+r.typeName, fmt.Sprintf("stored object %s: %s", file, err))
		return
	}
	resp.State.Raw = v
}

func (r *shapeResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	id, err := idOf(req.State.Raw)
	if err == nil {
		var file string
		if file, err = objectFile(r.typeName, id); err == nil {
			if err = os.Remove(file); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
	}
	if err != nil {
		resp.Diagnostics.AddError("deleting "+r.typeName, err.Error())
	}
}

func (r *shapeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// settle turns a plan into the object to store: a new id, every unknown a fixed value, write-only values null.
func (r *shapeResource) settle(plan tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		name := pathName(p)
		if r.writeOnly[name] {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		if v.IsKnown() {
			return v, nil
		}
		if name == "id" {
			return tftypes.NewValue(tftypes.String, newID()), nil
		}
		return fixed(v.Type()), nil
	})
}

func (r *shapeResource) store(ctx context.Context, v tftypes.Value) error {
	id, err := idOf(v)
	if err != nil {
		return err
	}
	file, err := objectFile(r.typeName, id)
	if err != nil {
		return err
	}
	dv, err := tfprotov6.NewDynamicValue(r.schema.Type().TerraformType(ctx), v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, dv.MsgPack, 0o644)
}

// pathName is an attribute path as a name chain, any element as "*": "items.*.sec".
func pathName(p *tftypes.AttributePath) string {
	parts := make([]string, 0, len(p.Steps()))
	for _, s := range p.Steps() {
		if a, ok := s.(tftypes.AttributeName); ok {
			parts = append(parts, string(a))
		} else {
			parts = append(parts, "*")
		}
	}
	return strings.Join(parts, ".")
}

// fixed is the value a provider fills an unknown with: the same for every type, so plans can be predicted.
func fixed(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String), t.Is(tftypes.DynamicPseudoType):
		if t.Is(tftypes.DynamicPseudoType) {
			return tftypes.NewValue(tftypes.String, "computed")
		}
		return tftypes.NewValue(t, "computed")
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(7))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, true)
	case t.Is(tftypes.List{}):
		return tftypes.NewValue(t, []tftypes.Value{fixed(t.(tftypes.List).ElementType)})
	case t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{fixed(t.(tftypes.Set).ElementType)})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": fixed(t.(tftypes.Map).ElementType)})
	case t.Is(tftypes.Object{}):
		vals := map[string]tftypes.Value{}
		for k, at := range t.(tftypes.Object).AttributeTypes {
			vals[k] = fixed(at)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(t, nil)
}

func idOf(v tftypes.Value) (string, error) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return "", err
	}
	var id string
	if err := attrs["id"].As(&id); err != nil || id == "" {
		return "", fmt.Errorf("the object has no id")
	}
	return id, nil
}

func objectFile(typeName, id string) (string, error) {
	dir := os.Getenv("SHAPES_STORE")
	if dir == "" {
		return "", fmt.Errorf("SHAPES_STORE is not set: set it to the directory where objects are stored")
	}
	if strings.ContainsAny(id, "/\\") || id == "." || id == ".." {
		return "", fmt.Errorf("invalid id %q", id)
	}
	return filepath.Join(dir, typeName, id), nil
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
