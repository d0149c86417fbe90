// The shape description (../SHAPES.md) as read from SHAPES_SCHEMA, and the framework schema each shape becomes.
package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/dynamicplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/numberdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/numberplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

type attrDesc struct {
	Type               json.RawMessage `json:"type"`
	Nested             *nestedDesc     `json:"nested"`
	Optional           bool            `json:"optional"`
	Required           bool            `json:"required"`
	Computed           bool            `json:"computed"`
	Default            json.RawMessage `json:"default"`
	ForceNew           bool            `json:"forceNew"`
	UseStateForUnknown bool            `json:"useStateForUnknown"`
	Sensitive          bool            `json:"sensitive"`
	WriteOnly          bool            `json:"writeOnly"`
}

type nestedDesc struct {
	Mode       string              `json:"mode"`
	Attributes map[string]attrDesc `json:"attributes"`
}

type blockDesc struct {
	Mode       string               `json:"mode"`
	MaxItems   int                  `json:"maxItems"`
	MinItems   int                  `json:"minItems"`
	ForceNew   bool                 `json:"forceNew"`
	Attributes map[string]attrDesc  `json:"attributes"`
	Blocks     map[string]blockDesc `json:"blocks"`
}

type planDesc struct {
	Set  string `json:"set"`
	From string `json:"from"`
}

type shapeDesc struct {
	Attributes map[string]attrDesc  `json:"attributes"`
	Blocks     map[string]blockDesc `json:"blocks"`
	Plan       []planDesc           `json:"plan"`
}

// loadShapes reads SHAPES_SCHEMA; no variable means no shapes (the provider still serves its source resource).
func loadShapes() (map[string]shapeDesc, error) {
	file := os.Getenv("SHAPES_SCHEMA")
	if file == "" {
		return map[string]shapeDesc{}, nil
	}
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
	return d.Resources, nil
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// attrType is the framework type of a type description: "string", ["list", "int"], ["object", {...}].
func attrType(raw json.RawMessage, where string) (attr.Type, error) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		switch name {
		case "bool":
			return types.BoolType, nil
		case "int":
			return types.Int64Type, nil
		case "float":
			return types.Float64Type, nil
		case "number":
			return types.NumberType, nil
		case "string":
			return types.StringType, nil
		case "dynamic":
			return types.DynamicType, nil
		}
		return nil, fmt.Errorf("%s: unknown type %q", where, name)
	}
	var pair []json.RawMessage
	if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("%s: a type is a name or [kind, element], not %s", where, string(raw))
	}
	var kind string
	if err := json.Unmarshal(pair[0], &kind); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if kind == "object" {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(pair[1], &fields); err != nil {
			return nil, fmt.Errorf("%s: object fields: %w", where, err)
		}
		types_ := map[string]attr.Type{}
		for _, k := range sortedKeys(fields) {
			t, err := attrType(fields[k], where+"."+k)
			if err != nil {
				return nil, err
			}
			types_[k] = t
		}
		return types.ObjectType{AttrTypes: types_}, nil
	}
	elem, err := attrType(pair[1], where+"[]")
	if err != nil {
		return nil, err
	}
	switch kind {
	case "list":
		return types.ListType{ElemType: elem}, nil
	case "set":
		return types.SetType{ElemType: elem}, nil
	case "map":
		return types.MapType{ElemType: elem}, nil
	}
	return nil, fmt.Errorf("%s: unknown collection kind %q", where, kind)
}

func buildAttributes(attrs map[string]attrDesc, where string) (map[string]schema.Attribute, error) {
	out := map[string]schema.Attribute{}
	for _, name := range sortedKeys(attrs) {
		a, err := buildAttribute(attrs[name], where+"."+name)
		if err != nil {
			return nil, err
		}
		out[name] = a
	}
	return out, nil
}

func buildAttribute(d attrDesc, where string) (schema.Attribute, error) {
	computed := d.Computed || len(d.Default) > 0
	if d.Nested != nil {
		inner, err := buildAttributes(d.Nested.Attributes, where)
		if err != nil {
			return nil, err
		}
		obj := schema.NestedAttributeObject{Attributes: inner}
		switch d.Nested.Mode {
		case "single":
			return schema.SingleNestedAttribute{Attributes: inner, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: objectModifiers(d)}, nil
		case "list":
			return schema.ListNestedAttribute{NestedObject: obj, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: listModifiers(d.ForceNew, d.UseStateForUnknown)}, nil
		case "set":
			return schema.SetNestedAttribute{NestedObject: obj, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, PlanModifiers: setModifiers(d.ForceNew, d.UseStateForUnknown)}, nil
		case "map":
			return schema.MapNestedAttribute{NestedObject: obj, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: mapModifiers(d)}, nil
		}
		return nil, fmt.Errorf("%s: unknown nested mode %q", where, d.Nested.Mode)
	}
	t, err := attrType(d.Type, where)
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case basetypes.BoolType:
		a := schema.BoolAttribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, boolplanmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, boolplanmodifier.UseStateForUnknown())
		}
		if len(d.Default) > 0 {
			var v bool
			if err := json.Unmarshal(d.Default, &v); err != nil {
				return nil, fmt.Errorf("%s: default: %w", where, err)
			}
			a.Default = booldefault.StaticBool(v)
		}
		return a, nil
	case basetypes.Int64Type:
		a := schema.Int64Attribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, int64planmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, int64planmodifier.UseStateForUnknown())
		}
		if len(d.Default) > 0 {
			var v int64
			if err := json.Unmarshal(d.Default, &v); err != nil {
				return nil, fmt.Errorf("%s: default: %w", where, err)
			}
			a.Default = int64default.StaticInt64(v)
		}
		return a, nil
	case basetypes.Float64Type:
		a := schema.Float64Attribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, float64planmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, float64planmodifier.UseStateForUnknown())
		}
		if len(d.Default) > 0 {
			var v float64
			if err := json.Unmarshal(d.Default, &v); err != nil {
				return nil, fmt.Errorf("%s: default: %w", where, err)
			}
			a.Default = float64default.StaticFloat64(v)
		}
		return a, nil
	case basetypes.NumberType:
		a := schema.NumberAttribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, numberplanmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, numberplanmodifier.UseStateForUnknown())
		}
		if len(d.Default) > 0 {
			f, _, err := big.ParseFloat(string(d.Default), 10, 512, big.ToNearestEven)
			if err != nil {
				return nil, fmt.Errorf("%s: default: %w", where, err)
			}
			a.Default = numberdefault.StaticBigFloat(f)
		}
		return a, nil
	case basetypes.StringType:
		a := schema.StringAttribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, stringplanmodifier.UseStateForUnknown())
		}
		if len(d.Default) > 0 {
			var v string
			if err := json.Unmarshal(d.Default, &v); err != nil {
				return nil, fmt.Errorf("%s: default: %w", where, err)
			}
			a.Default = stringdefault.StaticString(v)
		}
		return a, nil
	case basetypes.DynamicType:
		a := schema.DynamicAttribute{Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly}
		if d.ForceNew {
			a.PlanModifiers = append(a.PlanModifiers, dynamicplanmodifier.RequiresReplace())
		}
		if d.UseStateForUnknown {
			a.PlanModifiers = append(a.PlanModifiers, dynamicplanmodifier.UseStateForUnknown())
		}
		return a, nil
	case basetypes.ListType:
		return schema.ListAttribute{ElementType: t.ElemType, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: listModifiers(d.ForceNew, d.UseStateForUnknown)}, nil
	case basetypes.SetType:
		return schema.SetAttribute{ElementType: t.ElemType, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, PlanModifiers: setModifiers(d.ForceNew, d.UseStateForUnknown)}, nil
	case basetypes.MapType:
		return schema.MapAttribute{ElementType: t.ElemType, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: mapModifiers(d)}, nil
	case basetypes.ObjectType:
		return schema.ObjectAttribute{AttributeTypes: t.AttrTypes, Optional: d.Optional, Required: d.Required, Computed: computed, Sensitive: d.Sensitive, WriteOnly: d.WriteOnly, PlanModifiers: objectModifiers(d)}, nil
	}
	return nil, fmt.Errorf("%s: unsupported type %s", where, t)
}

func listModifiers(forceNew, useState bool) []planmodifier.List {
	var m []planmodifier.List
	if forceNew {
		m = append(m, listplanmodifier.RequiresReplace())
	}
	if useState {
		m = append(m, listplanmodifier.UseStateForUnknown())
	}
	return m
}

func setModifiers(forceNew, useState bool) []planmodifier.Set {
	var m []planmodifier.Set
	if forceNew {
		m = append(m, setplanmodifier.RequiresReplace())
	}
	if useState {
		m = append(m, setplanmodifier.UseStateForUnknown())
	}
	return m
}

func mapModifiers(d attrDesc) []planmodifier.Map {
	var m []planmodifier.Map
	if d.ForceNew {
		m = append(m, mapplanmodifier.RequiresReplace())
	}
	if d.UseStateForUnknown {
		m = append(m, mapplanmodifier.UseStateForUnknown())
	}
	return m
}

func objectModifiers(d attrDesc) []planmodifier.Object {
	var m []planmodifier.Object
	if d.ForceNew {
		m = append(m, objectplanmodifier.RequiresReplace())
	}
	if d.UseStateForUnknown {
		m = append(m, objectplanmodifier.UseStateForUnknown())
	}
	return m
}

func buildBlocks(blocks map[string]blockDesc, where string) (map[string]schema.Block, error) {
	out := map[string]schema.Block{}
	for _, name := range sortedKeys(blocks) {
		d := blocks[name]
		w := where + "." + name
		attrs, err := buildAttributes(d.Attributes, w)
		if err != nil {
			return nil, err
		}
		inner, err := buildBlocks(d.Blocks, w)
		if err != nil {
			return nil, err
		}
		obj := schema.NestedBlockObject{Attributes: attrs, Blocks: inner}
		switch d.Mode {
		case "list":
			b := schema.ListNestedBlock{NestedObject: obj, PlanModifiers: listModifiers(d.ForceNew, false)}
			if d.MaxItems > 0 {
				b.Validators = append(b.Validators, listvalidator.SizeAtMost(d.MaxItems))
			}
			if d.MinItems > 0 {
				b.Validators = append(b.Validators, listvalidator.SizeAtLeast(d.MinItems))
			}
			out[name] = b
		case "set":
			b := schema.SetNestedBlock{NestedObject: obj, PlanModifiers: setModifiers(d.ForceNew, false)}
			var v []validator.Set
			if d.MaxItems > 0 {
				v = append(v, setvalidator.SizeAtMost(d.MaxItems))
			}
			if d.MinItems > 0 {
				v = append(v, setvalidator.SizeAtLeast(d.MinItems))
			}
			b.Validators = v
			out[name] = b
		case "single":
			b := schema.SingleNestedBlock{Attributes: attrs, Blocks: inner}
			if d.ForceNew {
				b.PlanModifiers = []planmodifier.Object{objectplanmodifier.RequiresReplace()}
			}
			out[name] = b
		default:
			return nil, fmt.Errorf("%s: unknown block mode %q", w, d.Mode)
		}
	}
	return out, nil
}

// shapeSchema is the resource schema of one shape, with a computed id unless the shape declares one.
func shapeSchema(name string, d shapeDesc) (schema.Schema, error) {
	attrs, err := buildAttributes(d.Attributes, name)
	if err != nil {
		return schema.Schema{}, err
	}
	blocks, err := buildBlocks(d.Blocks, name)
	if err != nil {
		return schema.Schema{}, err
	}
	if _, ok := attrs["id"]; !ok {
		attrs["id"] = schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	for _, p := range d.Plan {
		if _, ok := attrs[p.Set]; !ok {
			return schema.Schema{}, fmt.Errorf("%s: plan sets %q, which is not an attribute", name, p.Set)
		}
		if _, ok := attrs[p.From]; !ok {
			return schema.Schema{}, fmt.Errorf("%s: plan reads %q, which is not an attribute", name, p.From)
		}
	}
	return schema.Schema{Attributes: attrs, Blocks: blocks}, nil
}

// writeOnlyPaths lists the write-only attributes of a shape as name chains ("v", "items.*.sec").
func writeOnlyPaths(attrs map[string]attrDesc, blocks map[string]blockDesc, prefix string, out map[string]bool) {
	for name, a := range attrs {
		p := prefix + name
		if a.WriteOnly {
			out[p] = true
		}
		if a.Nested != nil {
			inner := p + "."
			if a.Nested.Mode != "single" {
				inner = p + ".*."
			}
			writeOnlyPaths(a.Nested.Attributes, nil, inner, out)
		}
	}
	for name, b := range blocks {
		inner := prefix + name + "."
		if b.Mode != "single" {
			inner = prefix + name + ".*."
		}
		writeOnlyPaths(b.Attributes, b.Blocks, inner, out)
	}
}
