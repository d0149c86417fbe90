// bridgetest_identified as a Terraform 1.14 list resource: streams the stored identified objects, filtered by name
// prefix, with their identity and (when asked) the whole object, stopping at the caller's limit.
package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ list.ListResource              = (*identifiedList)(nil)
	_ list.ListResourceWithConfigure = (*identifiedList)(nil)
)

// identifiedList shares the managed resource's Metadata (the same type name, as core requires), Configure and loader.
type identifiedList struct {
	identifiedResource
}

type identifiedListConfig struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
	NoteEquals types.String `tfsdk:"note"`
}

func (l *identifiedList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		Description: "Lists the stored bridgetest_identified objects.",
		Attributes: map[string]listschema.Attribute{
			"name_prefix": listschema.StringAttribute{Optional: true, Description: "Only objects whose name starts with this."},
			"note":        listschema.StringAttribute{Optional: true, Description: "Only objects whose note is exactly this."},
		},
	}
}

// List walks the state directory in id order; the framework asks for the next result only while the caller reads,
// and this stops at the limit itself too, as core's contract says a provider may.
func (l *identifiedList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg identifiedListConfig
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	dir := stateDir(l.data, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	ids, err := listObjects(dir)
	if err != nil {
		diags.AddError("bridgetest: cannot list objects", err.Error())
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		sent := int64(0)
		for _, id := range ids {
			if req.Limit > 0 && sent >= req.Limit {
				return
			}
			obj, found, err := readObject(dir, id)
			if err != nil || !found || obj.Resource != identifiedTypeName {
				continue
			}
			var loadDiags diag.Diagnostics
			m, found := l.load(ctx, dir, id, &loadDiags)
			if !found {
				continue
			}
			if !cfg.NamePrefix.IsNull() && !strings.HasPrefix(m.Name.ValueString(), cfg.NamePrefix.ValueString()) {
				continue
			}
			if !cfg.NoteEquals.IsNull() && m.Note.ValueString() != cfg.NoteEquals.ValueString() {
				continue
			}
			result := req.NewListResult(ctx)
			result.DisplayName = m.Name.ValueString()
			result.Diagnostics.Append(setIdentity(ctx, m, result.Identity)...)
			if req.IncludeResource {
				result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
			}
			sent++
			if !push(result) {
				return
			}
		}
	}
}
