package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Schema-only resources and data sources for benchmarks: BRIDGETEST_SYNTHETIC_RESOURCES=N and
// BRIDGETEST_SYNTHETIC_DATA_SOURCES=M add bridgetest_synthetic_<i> and bridgetest_synthetic_ds_<i>, each with about
// forty attributes of every kind, a nested block and documentation-sized descriptions, so that a real provider
// process can serve a schema the size of the largest providers (AWS: about 1,600 resources, 650 data sources). They
// cannot be created or read: every operation fails with a message saying so.

// syntheticCount reads a non-negative count from the environment (0 when unset or invalid).
func syntheticCount(name string) int {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

const syntheticAttrs = 36

func syntheticDescription(kind string, i, j int) string {
	return fmt.Sprintf("The %s setting number %d of synthetic object %d. Changing it may replace the object; see the "+
		"provider documentation for the accepted values, defaults and the interactions with the other settings.", kind, j, i)
}

type syntheticResource struct{ index int }

var _ resource.Resource = (*syntheticResource)(nil)

func (r *syntheticResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = fmt.Sprintf("%s_synthetic_%04d", req.ProviderTypeName, r.index)
}

func (r *syntheticResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]rschema.Attribute{"id": rschema.StringAttribute{Computed: true}}
	for j := 0; j < syntheticAttrs; j++ {
		name := fmt.Sprintf("setting_%02d", j)
		switch j % 6 {
		case 0:
			attrs[name] = rschema.StringAttribute{Optional: true, Description: syntheticDescription("string", r.index, j)}
		case 1:
			attrs[name] = rschema.Int64Attribute{Optional: true, Computed: true, Description: syntheticDescription("integer", r.index, j)}
		case 2:
			attrs[name] = rschema.BoolAttribute{Optional: true, Description: syntheticDescription("flag", r.index, j)}
		case 3:
			attrs[name] = rschema.ListAttribute{ElementType: types.StringType, Optional: true, Description: syntheticDescription("list", r.index, j)}
		case 4:
			attrs[name] = rschema.MapAttribute{ElementType: types.StringType, Optional: true, Description: syntheticDescription("map", r.index, j)}
		default:
			attrs[name] = rschema.StringAttribute{Computed: true, Description: syntheticDescription("computed", r.index, j)}
		}
	}
	resp.Schema = rschema.Schema{
		Description: fmt.Sprintf("Synthetic resource %d: schema only, for benchmarks.", r.index),
		Attributes:  attrs,
		Blocks: map[string]rschema.Block{
			"rule": rschema.ListNestedBlock{
				Description: syntheticDescription("rule", r.index, 0),
				NestedObject: rschema.NestedBlockObject{Attributes: map[string]rschema.Attribute{
					"port":     rschema.Int64Attribute{Required: true},
					"protocol": rschema.StringAttribute{Optional: true},
					"cidrs":    rschema.ListAttribute{ElementType: types.StringType, Optional: true},
				}},
			},
		},
	}
}

func syntheticUnsupported(index int) (string, string) {
	return "bridgetest: synthetic resources are schema-only", fmt.Sprintf("bridgetest_synthetic_%04d exists for schema benchmarks and cannot be managed", index)
}

func (r *syntheticResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError(syntheticUnsupported(r.index))
}

func (r *syntheticResource) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	resp.Diagnostics.AddError(syntheticUnsupported(r.index))
}

func (r *syntheticResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError(syntheticUnsupported(r.index))
}

func (r *syntheticResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError(syntheticUnsupported(r.index))
}

type syntheticDataSource struct{ index int }

var _ datasource.DataSource = (*syntheticDataSource)(nil)

func (d *syntheticDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = fmt.Sprintf("%s_synthetic_ds_%04d", req.ProviderTypeName, d.index)
}

func (d *syntheticDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]dschema.Attribute{"id": dschema.StringAttribute{Required: true}}
	for j := 0; j < syntheticAttrs/2; j++ {
		name := fmt.Sprintf("result_%02d", j)
		if j%2 == 0 {
			attrs[name] = dschema.StringAttribute{Computed: true, Description: syntheticDescription("result", d.index, j)}
		} else {
			attrs[name] = dschema.MapAttribute{ElementType: types.StringType, Computed: true, Description: syntheticDescription("result map", d.index, j)}
		}
	}
	resp.Schema = dschema.Schema{Description: fmt.Sprintf("Synthetic data source %d: schema only, for benchmarks.", d.index), Attributes: attrs}
}

func (d *syntheticDataSource) Read(_ context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	resp.Diagnostics.AddError(syntheticUnsupported(d.index))
}

// syntheticResources and syntheticDataSources are appended to the provider's own lists.
func syntheticResources() []func() resource.Resource {
	var out []func() resource.Resource
	for i := 0; i < syntheticCount("BRIDGETEST_SYNTHETIC_RESOURCES"); i++ {
		index := i
		out = append(out, func() resource.Resource { return &syntheticResource{index: index} })
	}
	return out
}

func syntheticDataSources() []func() datasource.DataSource {
	var out []func() datasource.DataSource
	for i := 0; i < syntheticCount("BRIDGETEST_SYNTHETIC_DATA_SOURCES"); i++ {
		index := i
		out = append(out, func() datasource.DataSource { return &syntheticDataSource{index: index} })
	}
	return out
}
