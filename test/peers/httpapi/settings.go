package main

// Provider settings of every kind Terraform has — int, float, bool, map, set, list, a MaxItems-1 block and a list
// block with a sensitive attribute — which the service ignores and httpapi_settings echoes back as Configure received
// them, so tests can see what reached the provider from each way Pulumi sets a provider's configuration.

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

func settingsSchema() map[string]*schema.Schema {
	return map[string]*schema.Schema{
		"max_retries":     {Type: schema.TypeInt, Optional: true, Description: "Echoed by httpapi_settings (an int setting)."},
		"backoff_seconds": {Type: schema.TypeFloat, Optional: true, Description: "Echoed by httpapi_settings (a float setting)."},
		"trace":           {Type: schema.TypeBool, Optional: true, Description: "Echoed by httpapi_settings (a bool setting)."},
		"default_headers": {Type: schema.TypeMap, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}, Description: "Echoed by httpapi_settings (a map setting)."},
		"allowed_ids":     {Type: schema.TypeSet, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}, Description: "Echoed by httpapi_settings (a set setting)."},
		"fallback_urls":   {Type: schema.TypeList, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}, Description: "Echoed by httpapi_settings (a list setting)."},
		"client": {
			Type: schema.TypeList, Optional: true, MaxItems: 1,
			Description: "Echoed by httpapi_settings (a MaxItems-1 block, one object in Pulumi).",
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"name":   {Type: schema.TypeString, Optional: true},
				"weight": {Type: schema.TypeInt, Optional: true},
			}},
		},
		"route": {
			Type: schema.TypeList, Optional: true,
			Description: "Echoed by httpapi_settings, each secret as its length (a list block with a sensitive attribute).",
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"path":   {Type: schema.TypeString, Optional: true},
				"secret": {Type: schema.TypeString, Optional: true, Sensitive: true},
			}},
		},
	}
}

func withSettings(base, settings map[string]*schema.Schema) map[string]*schema.Schema {
	for k, v := range settings {
		base[k] = v
	}
	return base
}

// configuredSettings reads the settings that were set; a route's secret is kept as its length only, so that an echo
// never carries a secret.
func configuredSettings(d *schema.ResourceData) map[string]any {
	out := map[string]any{}
	for k := range settingsSchema() {
		v, ok := d.GetOk(k)
		if !ok {
			continue
		}
		if set, isSet := v.(*schema.Set); isSet {
			v = set.List()
		}
		if k == "route" {
			routes := []any{}
			for _, r := range v.([]any) {
				m := r.(map[string]any)
				routes = append(routes, map[string]any{"path": m["path"], "secret_length": len(m["secret"].(string))})
			}
			v = routes
		}
		out[k] = v
	}
	return out
}

func dataSourceSettings() *schema.Resource {
	return &schema.Resource{
		Description: "The provider settings as Configure received them, as JSON.",
		ReadContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			b, err := json.Marshal(meta.(*apiClient).settings)
			if err != nil {
				return diag.FromErr(err)
			}
			d.SetId("settings")
			if err := d.Set("json", string(b)); err != nil {
				return diag.FromErr(err)
			}
			return nil
		},
		Schema: map[string]*schema.Schema{
			"json": {Type: schema.TypeString, Computed: true},
		},
	}
}
