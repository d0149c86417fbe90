// The provider server: the dump's schemas as they are, and the shapes peers' generic behaviour for every resource
// (store the plan, fill unknowns, read back, import by id), data source and ephemeral resource.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type server struct {
	s     *replaySchemas
	store string
}

var _ tfprotov6.ProviderServer = (*server)(nil)

func diag(summary, detail string) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: detail}}
}

func errDiag(err error) []*tfprotov6.Diagnostic { return diag("replay provider error", err.Error()) }

func capabilities() *tfprotov6.ServerCapabilities {
	return &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true, PlanDestroy: true}
}

func (p *server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	r := &tfprotov6.GetMetadataResponse{ServerCapabilities: capabilities()}
	for _, n := range slices.Sorted(maps.Keys(p.s.resources)) {
		r.Resources = append(r.Resources, tfprotov6.ResourceMetadata{TypeName: n})
	}
	for _, n := range slices.Sorted(maps.Keys(p.s.data)) {
		r.DataSources = append(r.DataSources, tfprotov6.DataSourceMetadata{TypeName: n})
	}
	for _, n := range slices.Sorted(maps.Keys(p.s.ephemeral)) {
		r.EphemeralResources = append(r.EphemeralResources, tfprotov6.EphemeralResourceMetadata{TypeName: n})
	}
	return r, nil
}

func (p *server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: capabilities(), Provider: p.s.provider, ResourceSchemas: p.s.resources,
		DataSourceSchemas: p.s.data, EphemeralResourceSchemas: p.s.ephemeral, Functions: map[string]*tfprotov6.Function{},
	}, nil
}

func (p *server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (p *server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (p *server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (p *server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (p *server) resource(name string) (*tfprotov6.Schema, error) {
	if s, ok := p.s.resources[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("the dump has no resource %q", name)
}

func (p *server) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (p *server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	s, err := p.resource(req.TypeName)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag(err)}, nil
	}
	typ := s.ValueType()
	v, err := req.RawState.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag(err)}, nil
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, nil
}

// objectKey is where an object is stored: its `id` when the schema has one, else one object per type.
func objectKey(v tftypes.Value) string {
	var fields map[string]tftypes.Value
	if v.IsNull() || v.As(&fields) != nil {
		return ""
	}
	var id string
	if f, ok := fields["id"]; ok && f.IsKnown() && !f.IsNull() && f.Type().Is(tftypes.String) && f.As(&id) == nil {
		return id
	}
	return "singleton"
}

func (p *server) path(typeName, key string) (string, error) {
	if p.store == "" {
		return "", fmt.Errorf("%s is not set: the replay provider stores objects in that directory, one file per object", envStore)
	}
	if key == "" || key == "." || key == ".." || filepath.Base(key) != key {
		return "", fmt.Errorf("id %q cannot name a stored object (empty, or holds a path separator)", key)
	}
	return filepath.Join(p.store, typeName, key), nil
}

func (p *server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	s, err := p.resource(req.TypeName)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag(err)}, nil
	}
	typ := s.ValueType()
	cur, err := req.CurrentState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag(err)}, nil
	}
	file, err := p.path(req.TypeName, objectKey(cur))
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag(err)}, nil
	}
	raw, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		gone, _ := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
		return &tfprotov6.ReadResourceResponse{NewState: &gone, Private: req.Private}, nil
	}
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.ReadResourceResponse{NewState: &tfprotov6.DynamicValue{MsgPack: raw}, Private: req.Private}, nil
}

func (p *server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	s, err := p.resource(req.TypeName)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	typ := s.ValueType()
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	planned, err := walkBlock(s.Block, proposed, planUnknowns)
	if err == nil {
		// Terraform refuses a plan holding a write-only value; the plugin framework nulls them in every plan.
		planned, err = walkBlock(s.Block, planned, dropWriteOnly)
	}
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	dv, err := tfprotov6.NewDynamicValue(typ, planned)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &dv, PlannedPrivate: req.PriorPrivate}, nil
}

func (p *server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s, err := p.resource(req.TypeName)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	typ := s.ValueType()
	prior, err := req.PriorState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	planned, err := req.PlannedState.Unmarshal(typ)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	if planned.IsNull() {
		file, err := p.path(req.TypeName, objectKey(prior))
		if err == nil {
			err = os.Remove(file)
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
		}
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, nil
	}
	newState, err := p.decide(s, typ, planned)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	dv, err := tfprotov6.NewDynamicValue(typ, newState)
	if err == nil {
		var file string
		if file, err = p.path(req.TypeName, objectKey(newState)); err == nil {
			if err = os.MkdirAll(filepath.Dir(file), 0o755); err == nil {
				err = writeAtomically(file, dv.MsgPack)
			}
		}
	}
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: &dv, Private: req.PlannedPrivate}, nil
}

// decide turns a planned state into the new one: a random id when the plan leaves it unknown, every other unknown
// filled with its fixed value, write-only values dropped.
func (p *server) decide(s *tfprotov6.Schema, typ tftypes.Type, planned tftypes.Value) (tftypes.Value, error) {
	var fields map[string]tftypes.Value
	if err := planned.As(&fields); err != nil {
		return planned, err
	}
	if id, ok := fields["id"]; ok && !id.IsKnown() && id.Type().Is(tftypes.String) {
		b := make([]byte, 8)
		if _, err := rand.Read(b); err != nil {
			return planned, err
		}
		fields["id"] = tftypes.NewValue(tftypes.String, hex.EncodeToString(b))
		planned = tftypes.NewValue(typ, fields)
	}
	filled, err := fillUnknowns(planned)
	if err != nil {
		return planned, err
	}
	return walkBlock(s.Block, filled, dropWriteOnly)
}

func writeAtomically(file string, data []byte) error {
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

func (p *server) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	s, err := p.resource(req.TypeName)
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errDiag(err)}, nil
	}
	typ := s.ValueType().(tftypes.Object)
	fields := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		fields[name] = tftypes.NewValue(at, nil)
	}
	if at, ok := typ.AttributeTypes["id"]; !ok || !at.Is(tftypes.String) {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: diag("import needs an id", fmt.Sprintf("%s has no string attribute id to import by", req.TypeName))}, nil
	}
	fields["id"] = tftypes.NewValue(tftypes.String, req.ID)
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, fields))
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{{TypeName: req.TypeName, State: &dv}}}, nil
}

func (p *server) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: diag("not supported", "the replay provider does not move state between resource types")}, nil
}

func (p *server) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: diag("not supported", "the replay provider has no resource identities")}, nil
}

func (p *server) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: diag("not supported", "the replay provider does not generate configuration")}, nil
}

// read answers a data source or ephemeral resource: the configuration with every unknown and every computed-only
// attribute given its fixed value.
func read(s *tfprotov6.Schema, config *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	typ := s.ValueType()
	v, err := config.Unmarshal(typ)
	if err != nil {
		return nil, err
	}
	if v, err = walkBlock(s.Block, v, fillComputedNulls); err != nil {
		return nil, err
	}
	if v, err = fillUnknowns(v); err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	return &dv, err
}

func (p *server) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (p *server) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	s, ok := p.s.data[req.TypeName]
	if !ok {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errDiag(fmt.Errorf("the dump has no data source %q", req.TypeName))}, nil
	}
	state, err := read(s, req.Config)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.ReadDataSourceResponse{State: state}, nil
}

func (p *server) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (p *server) OpenEphemeralResource(_ context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	s, ok := p.s.ephemeral[req.TypeName]
	if !ok {
		return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: errDiag(fmt.Errorf("the dump has no ephemeral resource %q", req.TypeName))}, nil
	}
	result, err := read(s, req.Config)
	if err != nil {
		return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: errDiag(err)}, nil
	}
	return &tfprotov6.OpenEphemeralResourceResponse{Result: result}, nil
}

func (p *server) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{}, nil
}

func (p *server) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{}, nil
}

func (p *server) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{}}, nil
}

func (p *server) CallFunction(_ context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: fmt.Sprintf("the replay provider serves no functions (%q)", req.Name)}}, nil
}
