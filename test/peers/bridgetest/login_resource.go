package main

import (
	"context"
	"sort"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.Resource = (*loginResource)(nil)

func pathRoot(name string) path.Path { return path.Root(name) }

// loginResource has write-only attributes inside a nested attribute and inside a block: never stored, and `seen`
// names those the last create or update received, so a test can tell they reached the provider. Kept in state only.
type loginResource struct{}

func (r *loginResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_login"
}

func (r *loginResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A login whose secrets are write-only, nested in an attribute and in a block.",
		Attributes: map[string]schema.Attribute{
			"id":   schema.StringAttribute{Computed: true},
			"name": schema.StringAttribute{Required: true},
			"credentials": schema.SingleNestedAttribute{
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"user":     schema.StringAttribute{Optional: true},
					"password": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true},
				},
			},
			"version": schema.Int64Attribute{Optional: true, Description: "Change it to send the write-only values again."},
			"seen": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				Description: "The write-only values (by path) the last create or update received, sorted.",
			},
		},
		Blocks: map[string]schema.Block{
			"token": schema.ListNestedBlock{
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"label":  schema.StringAttribute{Optional: true},
					"secret": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true},
				}},
			},
		},
	}
}

type loginCredentials struct {
	User     types.String `tfsdk:"user"`
	Password types.String `tfsdk:"password"`
}

type loginToken struct {
	Label  types.String `tfsdk:"label"`
	Secret types.String `tfsdk:"secret"`
}

type loginModel struct {
	ID          types.String      `tfsdk:"id"`
	Name        types.String      `tfsdk:"name"`
	Credentials *loginCredentials `tfsdk:"credentials"`
	Version     types.Int64       `tfsdk:"version"`
	Seen        types.List        `tfsdk:"seen"`
	Token       []loginToken      `tfsdk:"token"`
}

// apply builds the state from the configuration: the id is the name, write-only values are noted and nulled.
func (r *loginResource) apply(ctx context.Context, config tfsdk.Config, state *tfsdk.State) diag.Diagnostics {
	var m loginModel
	if d := config.Get(ctx, &m); d.HasError() {
		return d
	}
	seen := []string{}
	if m.Credentials != nil && !m.Credentials.Password.IsNull() {
		seen = append(seen, "credentials.password")
		m.Credentials.Password = types.StringNull()
	}
	for i := range m.Token {
		if !m.Token[i].Secret.IsNull() {
			seen = append(seen, "token["+strconv.Itoa(i)+"].secret")
			m.Token[i].Secret = types.StringNull()
		}
	}
	sort.Strings(seen)
	list, d := types.ListValueFrom(ctx, types.StringType, seen)
	if d.HasError() {
		return d
	}
	m.ID = m.Name
	m.Seen = list
	return state.Set(ctx, &m)
}

func (r *loginResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	crashAt("create")
	resp.Diagnostics.Append(r.apply(ctx, req.Config, &resp.State)...)
}

func (r *loginResource) Read(_ context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	resp.State.Raw = req.State.Raw
}

func (r *loginResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	crashAt("update")
	resp.Diagnostics.Append(r.apply(ctx, req.Config, &resp.State)...)
}

func (r *loginResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}
