// The provider's behaviour: the schema of cblock_server (two computed blocks and a write-only attribute), its plan and
// apply, and the record of what each RPC received.
package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

var (
	addressT = cty.Object(map[string]cty.Type{"address": cty.String})
	ruleT    = cty.Object(map[string]cty.Type{"port": cty.Number, "protocol": cty.String})
	serverT  = cty.Object(map[string]cty.Type{
		"id": cty.String, "name": cty.String, "zone": cty.String, "password_wo": cty.String,
		"addresses": cty.List(addressT), "rules": cty.List(ruleT),
	})
)

// attr is a tfplugin6 Schema.Attribute; type is the JSON-encoded cty type (bytes, so base64 in protojson).
func attr(name string, typ string, flags map[string]bool) map[string]any {
	a := map[string]any{"name": name, "type": []byte(typ)}
	for k, v := range flags {
		a[k] = v
	}
	return a
}

var resourceSchema = map[string]any{
	"version": 0,
	"block": map[string]any{
		"attributes": []any{
			attr("id", `"string"`, map[string]bool{"computed": true}),
			attr("name", `"string"`, map[string]bool{"required": true}),
			attr("zone", `"string"`, map[string]bool{"optional": true}),
			attr("password_wo", `"string"`, map[string]bool{"optional": true, "sensitive": true, "write_only": true}),
		},
		"block_types": []any{
			// computed-only: the provider fills it in; nothing in it can be configured.
			map[string]any{"type_name": "addresses", "nesting": "LIST", "block": map[string]any{
				"computed":   true,
				"attributes": []any{attr("address", `"string"`, map[string]bool{"computed": true})},
			}},
			// optional and computed: configured rules are kept (their protocol computed), none configured are computed.
			map[string]any{"type_name": "rules", "nesting": "LIST", "block": map[string]any{
				"computed": true,
				"attributes": []any{
					attr("port", `"number"`, map[string]bool{"optional": true, "computed": true}),
					attr("protocol", `"string"`, map[string]bool{"computed": true}),
				},
			}},
		},
	},
}

type dynamicValue struct {
	Msgpack []byte `json:"msgpack,omitempty"`
	JSON    []byte `json:"json,omitempty"`
}

type request struct {
	TypeName           string          `json:"type_name"`
	PriorState         *dynamicValue   `json:"prior_state"`
	ProposedNewState   *dynamicValue   `json:"proposed_new_state"`
	PlannedState       *dynamicValue   `json:"planned_state"`
	CurrentState       *dynamicValue   `json:"current_state"`
	Config             *dynamicValue   `json:"config"`
	PriorPrivate       []byte          `json:"prior_private"`
	PlannedPrivate     []byte          `json:"planned_private"`
	Private            []byte          `json:"private"`
	ClientCapabilities json.RawMessage `json:"client_capabilities"`
	RawState           *dynamicValue   `json:"raw_state"`
}

type provider struct {
	mu sync.Mutex
}

func (p *provider) handle(rpc string, reqJSON []byte) (map[string]any, error) {
	var req request
	if err := json.Unmarshal(reqJSON, &req); err != nil {
		return nil, err
	}
	switch rpc {
	case "GetMetadata":
		return map[string]any{"resources": []any{map[string]any{"type_name": "cblock_server"}}}, nil
	case "GetProviderSchema":
		return map[string]any{
			"provider":         map[string]any{"block": map[string]any{}},
			"resource_schemas": map[string]any{"cblock_server": resourceSchema},
		}, nil
	case "ValidateResourceConfig":
		return map[string]any{}, p.record(rpc, req, map[string]any{"config": shown(req.Config)})
	case "UpgradeResourceState":
		v, err := ctyjson.Unmarshal(req.RawState.JSON, serverT)
		if err != nil {
			return nil, err
		}
		return map[string]any{"upgraded_state": packed(v)}, nil
	case "ReadResource":
		return map[string]any{"new_state": req.CurrentState, "private": req.Private}, nil
	case "PlanResourceChange":
		return p.plan(req)
	case "ApplyResourceChange":
		return p.apply(req)
	}
	// Everything else (provider configuration, identities, functions, stop) succeeds with nothing to say.
	return map[string]any{}, nil
}

func (p *provider) plan(req request) (map[string]any, error) {
	prior, proposed, config := value(req.PriorState), value(req.ProposedNewState), value(req.Config)
	planned := proposed
	if !proposed.IsNull() {
		attrs := proposed.AsValueMap()
		attrs["password_wo"] = cty.NullVal(cty.String)
		if prior.IsNull() {
			attrs["id"] = cty.UnknownVal(cty.String)
		}
		renamed := prior.IsNull() || !prior.GetAttr("name").RawEquals(proposed.GetAttr("name"))
		// The addresses follow the name: kept while it stays, computed anew when it changes.
		if renamed {
			attrs["addresses"] = cty.UnknownVal(cty.List(addressT))
		} else {
			attrs["addresses"] = prior.GetAttr("addresses")
		}
		// Rules the configuration leaves out (Terraform sends the emptied block as null) are the prior ones, or computed.
		if attrs["rules"].IsNull() {
			if prior.IsNull() {
				attrs["rules"] = cty.UnknownVal(cty.List(ruleT))
			} else {
				attrs["rules"] = prior.GetAttr("rules")
			}
		} else {
			attrs["rules"] = eachRule(attrs["rules"], cty.UnknownVal(cty.Number), cty.UnknownVal(cty.String))
		}
		planned = cty.ObjectVal(attrs)
	}
	name := "?"
	if !proposed.IsNull() && proposed.GetAttr("name").IsKnown() {
		name = proposed.GetAttr("name").AsString()
	}
	// A new zone is a new server.
	var replace []any
	if !prior.IsNull() && !proposed.IsNull() && !prior.GetAttr("zone").RawEquals(proposed.GetAttr("zone")) {
		replace = append(replace, map[string]any{"steps": []any{map[string]any{"attribute_name": "zone"}}})
	}
	private := fmt.Sprintf(`{"planned":%q,"received":%q}`, name, req.PlannedPrivate)
	if proposed.IsNull() {
		private = string(req.PriorPrivate)
	}
	err := p.record("PlanResourceChange", req, map[string]any{
		"prior": shown(req.PriorState), "proposed": shown(req.ProposedNewState), "config": shown(req.Config), "planned": view(planned),
		"config_rules_null": !config.IsNull() && config.GetAttr("rules").IsNull(), "config_addresses_null": !config.IsNull() && config.GetAttr("addresses").IsNull(),
	})
	return map[string]any{"planned_state": packed(planned), "planned_private": []byte(private), "requires_replace": replace}, err
}

func (p *provider) apply(req request) (map[string]any, error) {
	planned := value(req.PlannedState)
	state := planned
	if !planned.IsNull() {
		attrs := planned.AsValueMap()
		name := attrs["name"].AsString()
		if !attrs["id"].IsKnown() {
			attrs["id"] = cty.StringVal("srv-" + name)
		}
		if !attrs["addresses"].IsKnown() {
			attrs["addresses"] = cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"address": cty.StringVal(name + ".1.example")}),
				cty.ObjectVal(map[string]cty.Value{"address": cty.StringVal(name + ".2.example")}),
			})
		}
		if !attrs["rules"].IsKnown() {
			attrs["rules"] = cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "protocol": cty.StringVal("tcp")})})
		} else {
			attrs["rules"] = eachRule(attrs["rules"], cty.NumberIntVal(443), cty.StringVal("tcp"))
		}
		state = cty.ObjectVal(attrs)
	}
	err := p.record("ApplyResourceChange", req, map[string]any{"planned": shown(req.PlannedState), "new": view(state)})
	private := fmt.Sprintf(`{"applied":true,"received":%q}`, req.PlannedPrivate)
	return map[string]any{"new_state": packed(state), "private": []byte(private)}, err
}

// eachRule fills the rules' unknown or null port and protocol with the given values.
func eachRule(rules cty.Value, port, protocol cty.Value) cty.Value {
	if rules.IsNull() || !rules.IsKnown() || rules.LengthInt() == 0 {
		return rules
	}
	var out []cty.Value
	for _, r := range rules.AsValueSlice() {
		m := r.AsValueMap()
		if m["port"].IsNull() || !m["port"].IsKnown() {
			m["port"] = port
		}
		if m["protocol"].IsNull() || !m["protocol"].IsKnown() {
			m["protocol"] = protocol
		}
		out = append(out, cty.ObjectVal(m))
	}
	return cty.ListVal(out)
}

func value(d *dynamicValue) cty.Value {
	if d == nil || len(d.Msgpack) == 0 {
		return cty.NullVal(serverT)
	}
	v, err := msgpack.Unmarshal(d.Msgpack, serverT)
	if err != nil {
		panic(err)
	}
	return v
}

func packed(v cty.Value) *dynamicValue {
	b, err := msgpack.Marshal(v, serverT)
	if err != nil {
		panic(err)
	}
	return &dynamicValue{Msgpack: b}
}

func shown(d *dynamicValue) any { return view(value(d)) }

// view is a value as JSON, an unknown as {"unknown": true}.
func view(v cty.Value) any {
	switch {
	case !v.IsKnown():
		return map[string]any{"unknown": true}
	case v.IsNull():
		return nil
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if v.AsBigFloat().IsInt() {
			i, _ := v.AsBigFloat().Int(new(big.Int))
			return i.Int64()
		}
		return f
	case v.Type() == cty.Bool:
		return v.True()
	case v.Type().IsListType() || v.Type().IsSetType():
		out := []any{}
		for _, e := range v.AsValueSlice() {
			out = append(out, view(e))
		}
		return out
	default:
		out := map[string]any{}
		for k, e := range v.AsValueMap() {
			out[k] = view(e)
		}
		return out
	}
}

// record appends one line to CBLOCK_RECORD (when set): the RPC, the client capabilities and private data it got, and extra.
func (p *provider) record(rpc string, req request, extra map[string]any) error {
	path := os.Getenv("CBLOCK_RECORD")
	if path == "" {
		return nil
	}
	line := map[string]any{"rpc": rpc, "capabilities": req.ClientCapabilities, "prior_private": string(req.PriorPrivate), "planned_private": string(req.PlannedPrivate)}
	for k, v := range extra {
		line[k] = v
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(b, '\n'))
	return err
}
