package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"example.com/terraform-provider-httpapi/api"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

// itemSchema is httpapi_item's schema at a given version. Version 0 differs only in what it stored: rule protocols
// upper-case ("TCP") and the etag in quotes, as HTTP sends it; upgradeItemV0 rewrites both.
func itemSchema(version int) map[string]*schema.Schema {
	protocol := &schema.Schema{Type: schema.TypeString, Optional: true, Default: "tcp", ValidateFunc: validation.StringInSlice([]string{"tcp", "udp"}, false)}
	if version == 0 {
		protocol = &schema.Schema{Type: schema.TypeString, Optional: true, Default: "TCP"}
	}
	return map[string]*schema.Schema{
		"name": {
			Type:        schema.TypeString,
			Required:    true,
			ForceNew:    true,
			Description: "The item's unique name; changing it replaces the item.",
		},
		"size": {
			Type:         schema.TypeInt,
			Optional:     true,
			ValidateFunc: validation.IntAtLeast(0),
		},
		"description": {Type: schema.TypeString, Optional: true},
		"tags": {
			Type:     schema.TypeMap,
			Optional: true,
			Elem:     &schema.Schema{Type: schema.TypeString},
		},
		"settings": {
			Type:        schema.TypeList,
			Optional:    true,
			MaxItems:    1,
			Description: "The item's one settings object (a block with at most one element).",
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"mode":    {Type: schema.TypeString, Optional: true, Default: "standard", ValidateFunc: validation.StringInSlice([]string{"standard", "fast", "safe"}, false)},
				"enabled": {Type: schema.TypeBool, Optional: true},
				"retries": {Type: schema.TypeInt, Optional: true, ValidateFunc: validation.IntBetween(0, 10)},
			}},
		},
		"rule": {
			Type:     schema.TypeList,
			Optional: true,
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"port":     {Type: schema.TypeInt, Required: true, ValidateFunc: validation.IsPortNumber},
				"protocol": protocol,
				"cidr":     {Type: schema.TypeString, Optional: true},
			}},
		},
		"etag":     {Type: schema.TypeString, Computed: true, Description: "Changes whenever the service stores a change."},
		"revision": {Type: schema.TypeInt, Computed: true, Description: "1 after create, +1 per stored change."},
	}
}

func resourceItem() *schema.Resource {
	return &schema.Resource{
		Description:   "An item stored by the httpapi service.",
		CreateContext: createItem,
		ReadContext:   readWith(flattenItem),
		UpdateContext: updateItem,
		DeleteContext: deleteItem,
		Importer:      &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
		Timeouts: &schema.ResourceTimeout{
			Create: schema.DefaultTimeout(2 * time.Minute),
			Update: schema.DefaultTimeout(2 * time.Minute),
			Delete: schema.DefaultTimeout(2 * time.Minute),
		},
		SchemaVersion: 1,
		StateUpgraders: []schema.StateUpgrader{{
			Version: 0,
			Type:    (&schema.Resource{Schema: itemSchema(0)}).CoreConfigSchema().ImpliedType(),
			Upgrade: upgradeItemV0,
		}},
		Schema: itemSchema(1),
		// A stored change gives the item a new etag and revision: say so in the plan instead of promising the old ones.
		CustomizeDiff: func(_ context.Context, d *schema.ResourceDiff, _ any) error {
			if d.Id() != "" && d.HasChanges("size", "description", "tags", "settings", "rule") {
				if err := d.SetNewComputed("etag"); err != nil {
					return err
				}
				return d.SetNewComputed("revision")
			}
			return nil
		},
	}
}

func upgradeItemV0(_ context.Context, raw map[string]any, _ any) (map[string]any, error) {
	if rules, ok := raw["rule"].([]any); ok {
		for _, r := range rules {
			if m, ok := r.(map[string]any); ok {
				if p, ok := m["protocol"].(string); ok {
					m["protocol"] = strings.ToLower(p)
				}
			}
		}
	}
	if e, ok := raw["etag"].(string); ok {
		raw["etag"] = strings.Trim(e, `"`)
	}
	return raw, nil
}

// expandItem is the desired item from the configuration.
func expandItem(d *schema.ResourceData) api.ItemInput {
	in := api.ItemInput{Name: d.Get("name").(string), Description: d.Get("description").(string)}
	if v, ok := d.GetOk("size"); ok {
		n := int64(v.(int))
		in.Size = &n
	}
	if tags := d.Get("tags").(map[string]any); len(tags) > 0 {
		in.Tags = map[string]string{}
		for k, v := range tags {
			in.Tags[k] = v.(string)
		}
	}
	if s := d.Get("settings").([]any); len(s) == 1 && s[0] != nil {
		m := s[0].(map[string]any)
		in.Settings = &api.Settings{Mode: m["mode"].(string), Enabled: m["enabled"].(bool), Retries: int64(m["retries"].(int))}
	}
	for _, r := range d.Get("rule").([]any) {
		m := r.(map[string]any)
		in.Rules = append(in.Rules, api.Rule{Port: int64(m["port"].(int)), Protocol: m["protocol"].(string), Cidr: m["cidr"].(string)})
	}
	return in
}

// flattenItem sets the state to what the service holds.
func flattenItem(d *schema.ResourceData, it *api.Item) diag.Diagnostics {
	var size any
	if it.Size != nil {
		size = int(*it.Size)
	}
	var settings []any
	if it.Settings != nil {
		settings = []any{map[string]any{"mode": it.Settings.Mode, "enabled": it.Settings.Enabled, "retries": int(it.Settings.Retries)}}
	}
	rules := []any{}
	for _, r := range it.Rules {
		rules = append(rules, map[string]any{"port": int(r.Port), "protocol": r.Protocol, "cidr": r.Cidr})
	}
	tags := map[string]any{}
	for k, v := range it.Tags {
		tags[k] = v
	}
	for k, v := range map[string]any{
		"name": it.Name, "size": size, "description": it.Description, "tags": tags,
		"settings": settings, "rule": rules, "etag": it.Etag, "revision": int(it.Revision),
	} {
		if err := d.Set(k, v); err != nil {
			return diag.Errorf("setting %s: %s", k, err)
		}
	}
	return nil
}

// createItem creates the item bare (just its name), then configures it: two requests, as many real APIs need. A
// failure after the item exists keeps its id and returns the error, so SDKv2 answers with the state and the error
// together (partial state) and the caller knows the item exists.
func createItem(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*apiClient)
	want := expandItem(d)
	created, err := c.create(ctx, api.ItemInput{Name: want.Name})
	if err != nil {
		// The service may have stored the item before the request failed (a 5xx, a lost answer): look for it.
		found, lookupErr := c.findByName(ctx, want.Name)
		if lookupErr != nil || found == nil {
			return diag.Errorf("creating item %q: %s (timeout %s)", want.Name, err, d.Timeout(schema.TimeoutCreate))
		}
		d.SetId(found.ID)
		diags := flattenItem(d, found)
		return append(diags, diag.Diagnostic{
			Severity: diag.Error,
			Summary:  fmt.Sprintf("creating item %q failed after the service stored it as %s", want.Name, found.ID),
			Detail:   fmt.Sprintf("%s. The item exists but is not configured; applying again configures it.", err),
		})
	}
	d.SetId(created.ID)
	configured, err := c.put(ctx, created.ID, want)
	if err != nil {
		diags := flattenItem(d, created)
		return append(diags, diag.Diagnostic{
			Severity: diag.Error,
			Summary:  fmt.Sprintf("configuring the new item %s failed", created.ID),
			Detail:   fmt.Sprintf("%s. The item exists but is not configured; applying again configures it.", err),
		})
	}
	return flattenItem(d, configured)
}

// readWith reads the item by id and sets the state with flatten; a 404 means it is gone.
func readWith(flatten func(*schema.ResourceData, *api.Item) diag.Diagnostics) schema.ReadContextFunc {
	return func(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
		it, err := meta.(*apiClient).get(ctx, d.Id())
		if isNotFound(err) {
			d.SetId("")
			return nil
		}
		if err != nil {
			return diag.FromErr(err)
		}
		return flatten(d, it)
	}
}

// updateItem writes the whole desired item (the service's PUT replaces every field), so an update also finishes an
// item a failed create left unconfigured, even when the plan shows no change.
func updateItem(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	it, err := meta.(*apiClient).put(ctx, d.Id(), expandItem(d))
	if err != nil {
		// Keep the prior state: what the service holds is unknown, the old values are the best guess.
		d.Partial(true)
		return diag.Errorf("updating item %s: %s (timeout %s)", d.Id(), err, d.Timeout(schema.TimeoutUpdate))
	}
	return flattenItem(d, it)
}

func deleteItem(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	err := meta.(*apiClient).delete(ctx, d.Id())
	if err != nil && !isNotFound(err) {
		return diag.Errorf("deleting item %s: %s (timeout %s)", d.Id(), err, d.Timeout(schema.TimeoutDelete))
	}
	return nil
}
