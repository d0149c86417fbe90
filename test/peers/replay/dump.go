// Reading a `terraform providers schema -json` dump and turning it into plugin-protocol 6 schemas, unchanged.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The JSON shapes Terraform prints (internal/command/jsonprovider), read field by field.
type dumpFile struct {
	FormatVersion   string                     `json:"format_version"`
	ProviderSchemas map[string]*providerSchema `json:"provider_schemas"`
}

type providerSchema struct {
	Provider                 *schemaJSON            `json:"provider"`
	ResourceSchemas          map[string]*schemaJSON `json:"resource_schemas"`
	DataSourceSchemas        map[string]*schemaJSON `json:"data_source_schemas"`
	EphemeralResourceSchemas map[string]*schemaJSON `json:"ephemeral_resource_schemas"`
}

type schemaJSON struct {
	Version int64      `json:"version"`
	Block   *blockJSON `json:"block"`
}

type blockJSON struct {
	Attributes      map[string]*attributeJSON `json:"attributes"`
	BlockTypes      map[string]*blockTypeJSON `json:"block_types"`
	Description     string                    `json:"description"`
	DescriptionKind string                    `json:"description_kind"`
	Deprecated      bool                      `json:"deprecated"`
}

type attributeJSON struct {
	Type            json.RawMessage `json:"type"`
	NestedType      *nestedTypeJSON `json:"nested_type"`
	Description     string          `json:"description"`
	DescriptionKind string          `json:"description_kind"`
	Deprecated      bool            `json:"deprecated"`
	Required        bool            `json:"required"`
	Optional        bool            `json:"optional"`
	Computed        bool            `json:"computed"`
	Sensitive       bool            `json:"sensitive"`
	WriteOnly       bool            `json:"write_only"`
}

type nestedTypeJSON struct {
	Attributes  map[string]*attributeJSON `json:"attributes"`
	NestingMode string                    `json:"nesting_mode"`
}

type blockTypeJSON struct {
	NestingMode string     `json:"nesting_mode"`
	Block       *blockJSON `json:"block"`
	MinItems    int64      `json:"min_items"`
	MaxItems    int64      `json:"max_items"`
}

// replaySchemas is one provider of a dump, converted.
type replaySchemas struct {
	address    string
	provider   *tfprotov6.Schema
	resources  map[string]*tfprotov6.Schema
	data       map[string]*tfprotov6.Schema
	ephemeral  map[string]*tfprotov6.Schema
	hasNesting bool
}

// loadDump reads a dump (gzip or plain JSON) and picks the provider named `want`, or the only one when want is "".
func loadDump(path, want string) (*replaySchemas, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var d dumpFile
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("%s is not a `terraform providers schema -json` dump: %w", path, err)
	}
	addrs := slices.Sorted(maps.Keys(d.ProviderSchemas))
	var addr string
	switch {
	case want != "":
		for _, a := range addrs {
			if a == want || strings.HasSuffix(a, "/"+want) {
				addr = a
			}
		}
		if addr == "" {
			return nil, fmt.Errorf("%s has no provider %q; it has %s (set %s to one of them)", path, want, strings.Join(addrs, ", "), envProvider)
		}
	case len(addrs) == 1:
		addr = addrs[0]
	default:
		return nil, fmt.Errorf("%s holds %d providers (%s); set %s to the one to serve", path, len(addrs), strings.Join(addrs, ", "), envProvider)
	}
	ps := d.ProviderSchemas[addr]
	c := &converter{}
	out := &replaySchemas{address: addr, resources: map[string]*tfprotov6.Schema{}, data: map[string]*tfprotov6.Schema{}, ephemeral: map[string]*tfprotov6.Schema{}}
	if out.provider, err = c.schema("provider", ps.Provider); err != nil {
		return nil, err
	}
	for _, group := range []struct {
		in  map[string]*schemaJSON
		out map[string]*tfprotov6.Schema
	}{{ps.ResourceSchemas, out.resources}, {ps.DataSourceSchemas, out.data}, {ps.EphemeralResourceSchemas, out.ephemeral}} {
		for name, s := range group.in {
			if group.out[name], err = c.schema(name, s); err != nil {
				return nil, err
			}
		}
	}
	out.hasNesting = c.nested
	return out, nil
}

type converter struct{ nested bool }

func (c *converter) schema(name string, s *schemaJSON) (*tfprotov6.Schema, error) {
	if s == nil || s.Block == nil {
		// A dump may leave out a schema (the kubernetes provider's config): an empty block stands in.
		return &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}}, nil
	}
	b, err := c.block(name, s.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.Schema{Version: s.Version, Block: b}, nil
}

func kind(k string) tfprotov6.StringKind {
	if k == "markdown" {
		return tfprotov6.StringKindMarkdown
	}
	return tfprotov6.StringKindPlain
}

func (c *converter) block(at string, b *blockJSON) (*tfprotov6.SchemaBlock, error) {
	attrs, err := c.attributes(at, b.Attributes)
	if err != nil {
		return nil, err
	}
	out := &tfprotov6.SchemaBlock{Attributes: attrs, Description: b.Description, DescriptionKind: kind(b.DescriptionKind), Deprecated: b.Deprecated}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		bt := b.BlockTypes[name]
		mode, ok := map[string]tfprotov6.SchemaNestedBlockNestingMode{
			"single": tfprotov6.SchemaNestedBlockNestingModeSingle, "list": tfprotov6.SchemaNestedBlockNestingModeList,
			"set": tfprotov6.SchemaNestedBlockNestingModeSet, "map": tfprotov6.SchemaNestedBlockNestingModeMap,
			"group": tfprotov6.SchemaNestedBlockNestingModeGroup,
		}[bt.NestingMode]
		if !ok || bt.Block == nil {
			return nil, fmt.Errorf("%s.%s: block nesting mode %q (or its block) is not one Terraform prints", at, name, bt.NestingMode)
		}
		inner, err := c.block(at+"."+name, bt.Block)
		if err != nil {
			return nil, err
		}
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{TypeName: name, Block: inner, Nesting: mode, MinItems: bt.MinItems, MaxItems: bt.MaxItems})
	}
	return out, nil
}

func (c *converter) attributes(at string, in map[string]*attributeJSON) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, name := range slices.Sorted(maps.Keys(in)) {
		a := in[name]
		sa := &tfprotov6.SchemaAttribute{
			Name: name, Description: a.Description, DescriptionKind: kind(a.DescriptionKind), Deprecated: a.Deprecated,
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, WriteOnly: a.WriteOnly,
		}
		switch {
		case a.NestedType != nil:
			c.nested = true
			mode, ok := map[string]tfprotov6.SchemaObjectNestingMode{
				"single": tfprotov6.SchemaObjectNestingModeSingle, "list": tfprotov6.SchemaObjectNestingModeList,
				"set": tfprotov6.SchemaObjectNestingModeSet, "map": tfprotov6.SchemaObjectNestingModeMap,
			}[a.NestedType.NestingMode]
			if !ok {
				return nil, fmt.Errorf("%s.%s: nested attribute nesting mode %q is not one Terraform prints", at, name, a.NestedType.NestingMode)
			}
			inner, err := c.attributes(at+"."+name, a.NestedType.Attributes)
			if err != nil {
				return nil, err
			}
			sa.NestedType = &tfprotov6.SchemaObject{Attributes: inner, Nesting: mode}
		case len(a.Type) > 0:
			t, err := tftypes.ParseJSONType(a.Type) //nolint:staticcheck // the one parser of Terraform's JSON type syntax
			if err != nil {
				return nil, fmt.Errorf("%s.%s: type %s: %w", at, name, a.Type, err)
			}
			sa.Type = t
		default:
			return nil, fmt.Errorf("%s.%s: an attribute has neither type nor nested_type", at, name)
		}
		out = append(out, sa)
	}
	return out, nil
}
