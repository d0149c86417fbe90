// The generic behaviour over values of any schema: unknowns planned for computed attributes, unknowns filled with fixed
// values of their type, write-only values dropped before storing.
package main

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// attrOp decides an attribute's new value from its current one; nil keeps it.
type attrOp func(a *tfprotov6.SchemaAttribute, v tftypes.Value) (tftypes.Value, error)

// walkBlock rebuilds an object value of block b, applying op to every attribute at any depth (nested attributes and
// blocks of every nesting mode). Null and unknown objects are kept as they are.
func walkBlock(b *tfprotov6.SchemaBlock, v tftypes.Value, op attrOp) (tftypes.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return v, nil
	}
	var fields map[string]tftypes.Value
	if err := v.As(&fields); err != nil {
		return v, err
	}
	for _, a := range b.Attributes {
		nv, err := walkAttribute(a, fields[a.Name], op)
		if err != nil {
			return v, err
		}
		fields[a.Name] = nv
	}
	for _, nb := range b.BlockTypes {
		nv, err := walkElements(fields[nb.TypeName], func(e tftypes.Value) (tftypes.Value, error) { return walkBlock(nb.Block, e, op) })
		if err != nil {
			return v, err
		}
		fields[nb.TypeName] = nv
	}
	return tftypes.NewValue(v.Type(), fields), nil
}

func walkAttribute(a *tfprotov6.SchemaAttribute, v tftypes.Value, op attrOp) (tftypes.Value, error) {
	nv, err := op(a, v)
	if err != nil || a.NestedType == nil {
		return nv, err
	}
	obj := &tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes}
	return walkElements(nv, func(e tftypes.Value) (tftypes.Value, error) { return walkBlock(obj, e, op) })
}

// walkElements applies f to an object, or to each element of a list, set or map of objects.
func walkElements(v tftypes.Value, f func(tftypes.Value) (tftypes.Value, error)) (tftypes.Value, error) {
	if v.IsNull() || !v.IsKnown() {
		return v, nil
	}
	t := v.Type()
	switch {
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}), t.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return v, err
		}
		for i := range elems {
			e, err := f(elems[i])
			if err != nil {
				return v, err
			}
			elems[i] = e
		}
		return tftypes.NewValue(t, elems), nil
	case t.Is(tftypes.Map{}):
		var elems map[string]tftypes.Value
		if err := v.As(&elems); err != nil {
			return v, err
		}
		for k, e := range elems {
			ne, err := f(e)
			if err != nil {
				return v, err
			}
			elems[k] = ne
		}
		return tftypes.NewValue(t, elems), nil
	default:
		return f(v)
	}
}

// planUnknowns marks every computed attribute the proposed state leaves null as unknown: the provider will decide it.
func planUnknowns(a *tfprotov6.SchemaAttribute, v tftypes.Value) (tftypes.Value, error) {
	if a.Computed && v.IsNull() {
		return tftypes.NewValue(v.Type(), tftypes.UnknownValue), nil
	}
	return v, nil
}

// dropWriteOnly nulls write-only values: they are never stored nor returned.
func dropWriteOnly(a *tfprotov6.SchemaAttribute, v tftypes.Value) (tftypes.Value, error) {
	if a.WriteOnly {
		return tftypes.NewValue(v.Type(), nil), nil
	}
	return v, nil
}

// fillComputedNulls gives a computed attribute left null its fixed value, as a data source read decides them.
func fillComputedNulls(a *tfprotov6.SchemaAttribute, v tftypes.Value) (tftypes.Value, error) {
	if a.Computed && !a.Optional && !a.Required && v.IsNull() {
		return fixedValue(v.Type())
	}
	return v, nil
}

// fillUnknowns replaces every unknown value, at any depth, with the fixed value of its type.
func fillUnknowns(v tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(_ *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
		if !x.IsKnown() {
			return fixedValue(x.Type())
		}
		return x, nil
	})
}

// fixedValue is the value the provider decides for an unknown of type t: "computed", 7, true, one element of a
// collection, the key "k" of a map, each attribute of an object; a dynamic value becomes the string "computed".
func fixedValue(t tftypes.Type) (tftypes.Value, error) {
	switch {
	case t.Is(tftypes.String), t.Is(tftypes.DynamicPseudoType):
		if t.Is(tftypes.DynamicPseudoType) {
			return tftypes.NewValue(tftypes.String, "computed"), nil
		}
		return tftypes.NewValue(t, "computed"), nil
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(7)), nil
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, true), nil
	case t.Is(tftypes.List{}):
		e, err := fixedValue(t.(tftypes.List).ElementType)
		return tftypes.NewValue(t, []tftypes.Value{e}), err
	case t.Is(tftypes.Set{}):
		e, err := fixedValue(t.(tftypes.Set).ElementType)
		return tftypes.NewValue(t, []tftypes.Value{e}), err
	case t.Is(tftypes.Map{}):
		e, err := fixedValue(t.(tftypes.Map).ElementType)
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": e}), err
	case t.Is(tftypes.Tuple{}):
		elems := []tftypes.Value{}
		for _, et := range t.(tftypes.Tuple).ElementTypes {
			e, err := fixedValue(et)
			if err != nil {
				return tftypes.Value{}, err
			}
			elems = append(elems, e)
		}
		return tftypes.NewValue(t, elems), nil
	case t.Is(tftypes.Object{}):
		fields := map[string]tftypes.Value{}
		for name, at := range t.(tftypes.Object).AttributeTypes {
			e, err := fixedValue(at)
			if err != nil {
				return tftypes.Value{}, err
			}
			fields[name] = e
		}
		return tftypes.NewValue(t, fields), nil
	}
	return tftypes.Value{}, fmt.Errorf("no fixed value for type %s", t)
}
