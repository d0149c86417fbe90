// The shapefw provider: a resource per shape of SHAPES_SCHEMA, and shapefw_source, whose outputs are unknown until applied.
package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type shapeProvider struct {
	resources []func() resource.Resource
}

// newProvider reads the shapes once; a description that cannot be served stops the provider with the reason.
func newProvider() (func() provider.Provider, error) {
	shapes, err := loadShapes()
	if err != nil {
		return nil, err
	}
	var factories []func() resource.Resource
	for _, name := range sortedKeys(shapes) {
		s, err := shapeSchema(name, shapes[name])
		if err != nil {
			return nil, err
		}
		wo := map[string]bool{}
		writeOnlyPaths(shapes[name].Attributes, shapes[name].Blocks, "", wo)
		r := &shapeResource{typeName: "shapefw_" + name, desc: shapes[name], schema: s, writeOnly: wo}
		factories = append(factories, func() resource.Resource { return r })
	}
	factories = append(factories, func() resource.Resource { return &sourceResource{} })
	return func() provider.Provider { return &shapeProvider{resources: factories} }, nil
}

func (p *shapeProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "shapefw"
}

func (p *shapeProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {}

func (p *shapeProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {}

func (p *shapeProvider) Resources(_ context.Context) []func() resource.Resource { return p.resources }

func (p *shapeProvider) DataSources(_ context.Context) []func() datasource.DataSource { return nil }

// sourceResource turns its input into outputs known only after apply, for configurations that need an unknown value.
type sourceResource struct{}

type sourceModel struct {
	ID           types.String  `tfsdk:"id"`
	Input        types.String  `tfsdk:"input"`
	ResultString types.String  `tfsdk:"result_string"`
	ResultInt    types.Int64   `tfsdk:"result_int"`
	ResultFloat  types.Float64 `tfsdk:"result_float"`
	ResultBool   types.Bool    `tfsdk:"result_bool"`
	ResultList   types.List    `tfsdk:"result_list"`
	ResultMap    types.Map     `tfsdk:"result_map"`
}

func (s *sourceResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "shapefw_source"
}

func (s *sourceResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":            schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input":         schema.StringAttribute{Optional: true},
		"result_string": schema.StringAttribute{Computed: true},
		"result_int":    schema.Int64Attribute{Computed: true},
		"result_float":  schema.Float64Attribute{Computed: true},
		"result_bool":   schema.BoolAttribute{Computed: true},
		"result_list":   schema.ListAttribute{Computed: true, ElementType: types.StringType},
		"result_map":    schema.MapAttribute{Computed: true, ElementType: types.StringType},
	}}
}

func (s *sourceResource) results(ctx context.Context, m *sourceModel) {
	in := m.Input.ValueString()
	m.ResultString = types.StringValue("src-" + in)
	m.ResultInt = types.Int64Value(int64(len(in)))
	m.ResultFloat = types.Float64Value(float64(len(in)) + 0.5)
	m.ResultBool = types.BoolValue(len(in)%2 == 0)
	m.ResultList, _ = types.ListValueFrom(ctx, types.StringType, []string{"src-" + in})
	m.ResultMap, _ = types.MapValueFrom(ctx, types.StringType, map[string]string{"k": "src-" + in})
}

func (s *sourceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m sourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = types.StringValue(newID())
	s.results(ctx, &m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (s *sourceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m sourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	s.results(ctx, &m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read keeps the state: a source's results are a function of its input.
func (s *sourceResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {}

func (s *sourceResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {}
