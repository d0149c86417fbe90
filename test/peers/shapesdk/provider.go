// The shapesdk provider: SDKv2 resources built from SHAPES_SCHEMA (../SHAPES.md), storing what the plan gives.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-cty/cty"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

type attrDesc struct {
	Type      json.RawMessage `json:"type"`
	Nested    json.RawMessage `json:"nested"`
	Optional  bool            `json:"optional"`
	Required  bool            `json:"required"`
	Computed  bool            `json:"computed"`
	Default   json.RawMessage `json:"default"`
	ForceNew  bool            `json:"forceNew"`
	Sensitive bool            `json:"sensitive"`
	WriteOnly bool            `json:"writeOnly"`
	UseState  bool            `json:"useStateForUnknown"`
}

type blockDesc struct {
	Mode       string               `json:"mode"`
	MaxItems   int                  `json:"maxItems"`
	MinItems   int                  `json:"minItems"`
	ForceNew   bool                 `json:"forceNew"`
	Optional   bool                 `json:"optional"`
	Computed   bool                 `json:"computed"`
	Attributes map[string]attrDesc  `json:"attributes"`
	Blocks     map[string]blockDesc `json:"blocks"`
}

type shapeDesc struct {
	Attributes map[string]attrDesc  `json:"attributes"`
	Blocks     map[string]blockDesc `json:"blocks"`
	Plan       []struct {
		Set  string `json:"set"`
		From string `json:"from"`
	} `json:"plan"`
}

// New builds the provider from SHAPES_SCHEMA; a description SDKv2 cannot serve is an error naming where.
func New() (*schema.Provider, error) {
	shapes := map[string]shapeDesc{}
	if file := os.Getenv("SHAPES_SCHEMA"); file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("SHAPES_SCHEMA: %w", err)
		}
		var d struct {
			Resources map[string]shapeDesc `json:"resources"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("SHAPES_SCHEMA %s: %w", file, err)
		}
		shapes = d.Resources
	}
	resources := map[string]*schema.Resource{"shapesdk_source": sourceResource()}
	for name, d := range shapes {
		r, err := shapeResource("shapesdk_"+name, d)
		if err != nil {
			return nil, err
		}
		resources["shapesdk_"+name] = r
	}
	return &schema.Provider{ResourcesMap: resources}, nil
}

func primType(raw json.RawMessage, where string) (schema.ValueType, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return 0, fmt.Errorf("%s: SDKv2 collections hold primitives only, not %s", where, string(raw))
	}
	switch name {
	case "bool":
		return schema.TypeBool, nil
	case "int":
		return schema.TypeInt, nil
	case "float":
		return schema.TypeFloat, nil
	case "string":
		return schema.TypeString, nil
	}
	return 0, fmt.Errorf("%s: type %q has no SDKv2 equivalent", where, name)
}

func attribute(d attrDesc, where string) (*schema.Schema, error) {
	if len(d.Nested) > 0 {
		return nil, fmt.Errorf("%s: nested attributes have no SDKv2 equivalent", where)
	}
	s := &schema.Schema{Optional: d.Optional, Required: d.Required, Computed: d.Computed, ForceNew: d.ForceNew, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
	var pair []json.RawMessage
	if json.Unmarshal(d.Type, &pair) == nil {
		if len(pair) != 2 {
			return nil, fmt.Errorf("%s: a collection type is [kind, element]", where)
		}
		var kind string
		_ = json.Unmarshal(pair[0], &kind)
		elem, err := primType(pair[1], where)
		if err != nil {
			return nil, err
		}
		switch kind {
		case "list":
			s.Type = schema.TypeList
		case "set":
			s.Type = schema.TypeSet
		case "map":
			s.Type = schema.TypeMap
		default:
			return nil, fmt.Errorf("%s: collection kind %q has no SDKv2 equivalent", where, kind)
		}
		s.Elem = &schema.Schema{Type: elem}
	} else {
		t, err := primType(d.Type, where)
		if err != nil {
			return nil, err
		}
		s.Type = t
	}
	if len(d.Default) > 0 {
		var v interface{}
		if err := json.Unmarshal(d.Default, &v); err != nil {
			return nil, fmt.Errorf("%s: default: %w", where, err)
		}
		if f, ok := v.(float64); ok && s.Type == schema.TypeInt {
			v = int(f)
		}
		s.Default = v
	}
	return s, nil
}

func fields(attrs map[string]attrDesc, blocks map[string]blockDesc, where string) (map[string]*schema.Schema, error) {
	out := map[string]*schema.Schema{}
	for name, a := range attrs {
		s, err := attribute(a, where+"."+name)
		if err != nil {
			return nil, err
		}
		out[name] = s
	}
	for name, b := range blocks {
		inner, err := fields(b.Attributes, b.Blocks, where+"."+name)
		if err != nil {
			return nil, err
		}
		s := &schema.Schema{Elem: &schema.Resource{Schema: inner}, MaxItems: b.MaxItems, MinItems: b.MinItems, ForceNew: b.ForceNew, Computed: b.Computed}
		s.Optional = b.MinItems == 0
		s.Required = b.MinItems > 0
		switch b.Mode {
		case "list":
			s.Type = schema.TypeList
		case "set":
			s.Type = schema.TypeSet
		case "single":
			s.Type = schema.TypeList
			s.MaxItems = 1
		default:
			return nil, fmt.Errorf("%s.%s: unknown block mode %q", where, name, b.Mode)
		}
		out[name] = s
	}
	return out, nil
}

func shapeResource(typeName string, d shapeDesc) (*schema.Resource, error) {
	sm, err := fields(d.Attributes, d.Blocks, typeName)
	if err != nil {
		return nil, err
	}
	r := &schema.Resource{
		Schema:        sm,
		Importer:      &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
		ReadContext:   func(ctx context.Context, rd *schema.ResourceData, _ interface{}) diag.Diagnostics { return load(typeName, sm, rd) },
		DeleteContext: func(ctx context.Context, rd *schema.ResourceData, _ interface{}) diag.Diagnostics { return remove(typeName, rd) },
	}
	save := func(ctx context.Context, rd *schema.ResourceData, _ interface{}) diag.Diagnostics {
		if rd.Id() == "" {
			rd.SetId(newID())
		}
		if err := fill(sm, rd); err != nil {
			return diag.FromErr(err)
		}
		if err := store(typeName, sm, rd); err != nil {
			return diag.FromErr(err)
		}
		return load(typeName, sm, rd)
	}
	r.CreateContext = save
	r.UpdateContext = save
	for _, p := range d.Plan {
		if sm[p.Set] == nil || sm[p.From] == nil {
			return nil, fmt.Errorf("%s: plan names %q and %q, which must both be attributes", typeName, p.Set, p.From)
		}
	}
	if len(d.Plan) > 0 {
		plans := d.Plan
		r.CustomizeDiff = func(ctx context.Context, rd *schema.ResourceDiff, _ interface{}) error {
			for _, p := range plans {
				if !rd.NewValueKnown(p.From) {
					if err := rd.SetNewComputed(p.Set); err != nil {
						return err
					}
					continue
				}
				if rd.GetRawConfig().GetAttr(p.From).IsNull() {
					continue
				}
				if err := rd.SetNew(p.Set, "derived-"+rd.Get(p.From).(string)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return r, nil
}

// fill sets every value the plan leaves unknown (computed attributes at any depth) to a fixed value of its type.
func fill(sm map[string]*schema.Schema, rd *schema.ResourceData) error {
	plan := rd.GetRawPlan()
	if plan.IsNull() || !plan.IsKnown() {
		return nil
	}
	filled, err := cty.Transform(plan, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return fixed(v.Type()), nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys(sm) {
		s := sm[k]
		if s.WriteOnly || !filled.Type().HasAttribute(k) {
			continue
		}
		if !containsUnknown(plan.GetAttr(k)) {
			continue
		}
		if err := rd.Set(k, toGo(s, filled.GetAttr(k))); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

func containsUnknown(v cty.Value) bool {
	found := false
	_ = cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if !x.IsKnown() {
			found = true
		}
		return !found, nil
	})
	return found
}

func fixed(t cty.Type) cty.Value {
	switch {
	case t == cty.String:
		return cty.StringVal("computed")
	case t == cty.Number:
		return cty.NumberIntVal(7)
	case t == cty.Bool:
		return cty.True
	case t.IsListType():
		return cty.ListVal([]cty.Value{fixed(t.ElementType())})
	case t.IsSetType():
		return cty.SetVal([]cty.Value{fixed(t.ElementType())})
	case t.IsMapType():
		return cty.MapVal(map[string]cty.Value{"k": fixed(t.ElementType())})
	case t.IsObjectType():
		vals := map[string]cty.Value{}
		for k, at := range t.AttributeTypes() {
			vals[k] = fixed(at)
		}
		return cty.ObjectVal(vals)
	}
	return cty.NullVal(t)
}

// toGo is a cty value in the form ResourceData.Set takes for the field's schema.
func toGo(s *schema.Schema, v cty.Value) interface{} {
	if v.IsNull() {
		return nil
	}
	switch s.Type {
	case schema.TypeString:
		return v.AsString()
	case schema.TypeBool:
		return v.True()
	case schema.TypeInt:
		i, _ := v.AsBigFloat().Int64()
		return int(i)
	case schema.TypeFloat:
		f, _ := v.AsBigFloat().Float64()
		return f
	case schema.TypeList, schema.TypeSet:
		var out []interface{}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			out = append(out, elemToGo(s, ev))
		}
		return out
	case schema.TypeMap:
		out := map[string]interface{}{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			out[k.AsString()] = elemToGo(s, ev)
		}
		return out
	}
	return nil
}

func elemToGo(s *schema.Schema, v cty.Value) interface{} {
	switch e := s.Elem.(type) {
	case *schema.Schema:
		return toGo(e, v)
	case *schema.Resource:
		if v.IsNull() {
			return nil
		}
		out := map[string]interface{}{}
		for k, fs := range e.Schema {
			if v.Type().HasAttribute(k) && !fs.WriteOnly {
				out[k] = toGo(fs, v.GetAttr(k))
			}
		}
		return out
	}
	return nil
}

// plain is a ResourceData value as JSON can hold it: sets as lists.
func plain(v interface{}) interface{} {
	switch x := v.(type) {
	case *schema.Set:
		return plain(x.List())
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	}
	return v
}

func keys(sm map[string]*schema.Schema) []string {
	out := make([]string, 0, len(sm))
	for k := range sm {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func objectFile(typeName, id string) (string, error) {
	dir := os.Getenv("SHAPES_STORE")
	if dir == "" {
		return "", errors.New("SHAPES_STORE is not set: set it to the directory where objects are stored")
	}
	if id == "" || strings.ContainsAny(id, "/\\") || id == "." || id == ".." {
		return "", fmt.Errorf("invalid id %q", id)
	}
	return filepath.Join(dir, typeName, id+".json"), nil
}

func store(typeName string, sm map[string]*schema.Schema, rd *schema.ResourceData) error {
	obj := map[string]interface{}{}
	for _, k := range keys(sm) {
		if !sm[k].WriteOnly {
			obj[k] = plain(rd.Get(k))
		}
	}
	file, err := objectFile(typeName, rd.Id())
	if err != nil {
		return err
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o644)
}

func load(typeName string, sm map[string]*schema.Schema, rd *schema.ResourceData) diag.Diagnostics {
	file, err := objectFile(typeName, rd.Id())
	if err != nil {
		return diag.FromErr(err)
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		rd.SetId("")
		return nil
	}
	if err != nil {
		return diag.FromErr(err)
	}
	var obj map[string]interface{}
	if err := json.Unmarshal(b, &obj); err != nil {
		return diag.Errorf("stored object %s: %s", file, err)
	}
	for _, k := range keys(sm) {
		if v, ok := obj[k]; ok && !sm[k].WriteOnly {
			if err := rd.Set(k, v); err != nil {
				return diag.Errorf("%s: %s", k, err)
			}
		}
	}
	return nil
}

func remove(typeName string, rd *schema.ResourceData) diag.Diagnostics {
	file, err := objectFile(typeName, rd.Id())
	if err == nil {
		if err = os.Remove(file); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	}
	return diag.FromErr(err)
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// sourceResource turns its input into outputs known only after apply, for configurations that need an unknown value.
func sourceResource() *schema.Resource {
	computed := func(t schema.ValueType, elem interface{}) *schema.Schema {
		return &schema.Schema{Type: t, Computed: true, Elem: elem}
	}
	set := func(ctx context.Context, rd *schema.ResourceData, _ interface{}) diag.Diagnostics {
		if rd.Id() == "" {
			rd.SetId(newID())
		}
		in := rd.Get("input").(string)
		for k, v := range map[string]interface{}{
			"result_string": "src-" + in,
			"result_int":    len(in),
			"result_float":  float64(len(in)) + 0.5,
			"result_bool":   len(in)%2 == 0,
			"result_list":   []interface{}{"src-" + in},
			"result_map":    map[string]interface{}{"k": "src-" + in},
		} {
			if err := rd.Set(k, v); err != nil {
				return diag.FromErr(err)
			}
		}
		return nil
	}
	results := []string{"result_string", "result_int", "result_float", "result_bool", "result_list", "result_map"}
	return &schema.Resource{
		Schema: map[string]*schema.Schema{
			"input":         {Type: schema.TypeString, Optional: true},
			"result_string": computed(schema.TypeString, nil),
			"result_int":    computed(schema.TypeInt, nil),
			"result_float":  computed(schema.TypeFloat, nil),
			"result_bool":   computed(schema.TypeBool, nil),
			"result_list":   computed(schema.TypeList, &schema.Schema{Type: schema.TypeString}),
			"result_map":    computed(schema.TypeMap, &schema.Schema{Type: schema.TypeString}),
		},
		CreateContext: set,
		UpdateContext: set,
		ReadContext:   func(context.Context, *schema.ResourceData, interface{}) diag.Diagnostics { return nil },
		DeleteContext: func(context.Context, *schema.ResourceData, interface{}) diag.Diagnostics { return nil },
		CustomizeDiff: func(ctx context.Context, rd *schema.ResourceDiff, _ interface{}) error {
			if rd.HasChange("input") && rd.Id() != "" {
				for _, k := range results {
					if err := rd.SetNewComputed(k); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

