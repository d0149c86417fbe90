package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// storedObject is the on-disk form of <state_dir>/<id>.json.
// State is the resource state in Terraform's JSON state encoding for the
// schema of SchemaVersion (dynamic values as {"type":..., "value":...}).
type storedObject struct {
	Resource      string          `json:"resource"`
	SchemaVersion int64           `json:"schema_version"`
	State         json.RawMessage `json:"state"`
}

func objectPath(dir, id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return "", fmt.Errorf("invalid object id %q", id)
	}
	return filepath.Join(dir, id+".json"), nil
}

func newID(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// writeObject stores val (of schema type typ) as the object id.
func writeObject(dir, id, resourceType string, version int64, typ tftypes.Type, val tftypes.Value) error {
	enc, err := encodeValue(typ, val)
	if err != nil {
		return err
	}
	state, err := json.Marshal(enc)
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(storedObject{Resource: resourceType, SchemaVersion: version, State: state}, "", "  ")
	if err != nil {
		return err
	}
	p, err := objectPath(dir, id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(body, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// readObject loads the object id. found is false when the file does not exist.
func readObject(dir, id string) (obj storedObject, found bool, err error) {
	p, err := objectPath(dir, id)
	if err != nil {
		return obj, false, err
	}
	body, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return obj, false, nil
	}
	if err != nil {
		return obj, false, err
	}
	if err := json.Unmarshal(body, &obj); err != nil {
		return obj, true, fmt.Errorf("%s: %w", p, err)
	}
	return obj, true, nil
}

// deleteObject removes the object id; a missing file is not an error.
func deleteObject(dir, id string) error {
	p, err := objectPath(dir, id)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// listObjects returns the ids of the objects in dir, sorted.
func listObjects(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			ids = append(ids, strings.TrimSuffix(e.Name(), ".json"))
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// encodeValue turns val into the JSON shape tftypes.ValueFromJSON reads back
// for schema type typ. Unknown values cannot be stored.
func encodeValue(typ tftypes.Type, val tftypes.Value) (any, error) {
	if !val.IsKnown() {
		return nil, fmt.Errorf("cannot store an unknown value of type %s", val.Type())
	}
	if val.IsNull() {
		return nil, nil
	}
	if typ.Is(tftypes.DynamicPseudoType) {
		t, err := json.Marshal(val.Type())
		if err != nil {
			return nil, err
		}
		inner, err := encodeValue(val.Type(), val)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": json.RawMessage(t), "value": inner}, nil
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		err := val.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := val.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		f := new(big.Float)
		if err := val.As(&f); err != nil {
			return nil, err
		}
		return json.Number(f.Text('g', -1)), nil
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, err
		}
		var et tftypes.Type
		if l, ok := typ.(tftypes.List); ok {
			et = l.ElementType
		} else {
			et = typ.(tftypes.Set).ElementType
		}
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			v, err := encodeValue(et, e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case typ.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, err
		}
		ets := typ.(tftypes.Tuple).ElementTypes
		out := make([]any, 0, len(elems))
		for i, e := range elems {
			v, err := encodeValue(ets[i], e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case typ.Is(tftypes.Map{}):
		var elems map[string]tftypes.Value
		if err := val.As(&elems); err != nil {
			return nil, err
		}
		out := map[string]any{}
		for k, e := range elems {
			v, err := encodeValue(typ.(tftypes.Map).ElementType, e)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case typ.Is(tftypes.Object{}):
		var attrs map[string]tftypes.Value
		if err := val.As(&attrs); err != nil {
			return nil, err
		}
		out := map[string]any{}
		for k, at := range typ.(tftypes.Object).AttributeTypes {
			a, ok := attrs[k]
			if !ok {
				out[k] = nil
				continue
			}
			v, err := encodeValue(at, a)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot store a value of type %s", typ)
}

// decodeState reads a stored state back as a value of schema type typ.
func decodeState(state json.RawMessage, typ tftypes.Type) (tftypes.Value, error) {
	return tftypes.ValueFromJSON(state, typ)
}

// lastAttributeName is the name of the innermost attribute on p ("" if none).
func lastAttributeName(p *tftypes.AttributePath) (name string, depth int) {
	steps := p.Steps()
	for i := len(steps) - 1; i >= 0; i-- {
		if n, ok := steps[i].(tftypes.AttributeName); ok {
			return string(n), len(steps)
		}
	}
	return "", len(steps)
}
