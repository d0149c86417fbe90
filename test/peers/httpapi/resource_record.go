package main

// httpapi_record is an item of the service seen through the schema shapes that make generated import configuration
// interesting: computed-only attributes (also inside a block), optional+computed ones the provider fills in, pairs
// it reads back both halves of although ConflictsWith/ExactlyOneOf allow only one in configuration, a sensitive and
// a deprecated attribute, an optional string SDKv2 stores as "", and a list block.

import (
	"context"
	"fmt"

	"example.com/terraform-provider-httpapi/api"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

func resourceRecord() *schema.Resource {
	return &schema.Resource{
		Description:   "An item of the httpapi service, with size and mode each settable one way or another.",
		CreateContext: createRecord,
		ReadContext:   readWith(flattenRecord),
		UpdateContext: updateRecord,
		DeleteContext: deleteItem,
		Importer:      &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
		Schema: map[string]*schema.Schema{
			"name": {Type: schema.TypeString, Required: true, ForceNew: true},
			"description": {
				Type: schema.TypeString, Optional: true, Computed: true,
				Description: `Defaults to "record <name>".`,
			},
			"size": {
				Type: schema.TypeInt, Optional: true, Computed: true, ConflictsWith: []string{"size_kb"},
				ValidateFunc: validation.IntAtLeast(0),
				Description:  "Size in bytes; or set size_kb. Both are read back.",
			},
			"size_kb": {
				Type: schema.TypeInt, Optional: true, Computed: true, ConflictsWith: []string{"size"},
				ValidateFunc: validation.IntAtLeast(0),
				Description:  "Size in KiB; or set size.",
			},
			"mode": {
				Type: schema.TypeString, Optional: true, Computed: true, ExactlyOneOf: []string{"mode", "fast"},
				ValidateFunc: validation.StringInSlice([]string{"standard", "fast", "safe"}, false),
			},
			"fast": {
				Type: schema.TypeBool, Optional: true, Computed: true, ExactlyOneOf: []string{"mode", "fast"},
				Description: `true is mode "fast", false mode "standard".`,
			},
			"secret": {Type: schema.TypeString, Optional: true, Sensitive: true},
			"label":  {Type: schema.TypeString, Optional: true},
			"legacy_label": {
				Type: schema.TypeString, Optional: true,
				Deprecated: "Use label.",
			},
			"port": {
				Type:     schema.TypeList,
				Optional: true,
				Elem: &schema.Resource{Schema: map[string]*schema.Schema{
					"number":   {Type: schema.TypeInt, Required: true, ValidateFunc: validation.IsPortNumber},
					"protocol": {Type: schema.TypeString, Optional: true, Default: "tcp", ValidateFunc: validation.StringInSlice([]string{"tcp", "udp"}, false)},
					"cidr":     {Type: schema.TypeString, Optional: true},
					"summary":  {Type: schema.TypeString, Computed: true, Description: "<protocol>/<number>."},
				}},
			},
			"etag":     {Type: schema.TypeString, Computed: true},
			"revision": {Type: schema.TypeInt, Computed: true},
		},
		// A stored change gives a new etag and revision; one half of a pair changing changes the other.
		CustomizeDiff: func(_ context.Context, d *schema.ResourceDiff, _ any) error {
			pairs := [][2]string{{"size", "size_kb"}, {"size_kb", "size"}, {"mode", "fast"}, {"fast", "mode"}}
			for _, p := range pairs {
				if d.HasChange(p[0]) && d.GetRawConfig().GetAttr(p[1]).IsNull() {
					if err := d.SetNewComputed(p[1]); err != nil {
						return err
					}
				}
			}
			if d.Id() != "" && d.HasChanges("description", "size", "size_kb", "mode", "fast", "secret", "label", "legacy_label", "port") {
				if err := d.SetNewComputed("etag"); err != nil {
					return err
				}
				return d.SetNewComputed("revision")
			}
			return nil
		},
	}
}

// expandRecord is the item the configuration describes: size_kb and fast are other spellings of size and mode.
func expandRecord(d *schema.ResourceData) api.ItemInput {
	name := d.Get("name").(string)
	in := api.ItemInput{Name: name, Description: d.Get("description").(string), Tags: map[string]string{}}
	raw := d.GetRawConfig()
	if in.Description == "" {
		in.Description = "record " + name
	}
	if v := raw.GetAttr("size"); !v.IsNull() {
		n := int64(d.Get("size").(int))
		in.Size = &n
	} else if v := raw.GetAttr("size_kb"); !v.IsNull() {
		n := int64(d.Get("size_kb").(int)) * 1024
		in.Size = &n
	}
	mode := "standard"
	if v := raw.GetAttr("mode"); !v.IsNull() {
		mode = v.AsString()
	} else if v := raw.GetAttr("fast"); !v.IsNull() && v.True() {
		mode = "fast"
	}
	in.Settings = &api.Settings{Mode: mode}
	for _, k := range []string{"secret", "label", "legacy_label"} {
		if v := d.Get(k).(string); v != "" {
			in.Tags[k] = v
		}
	}
	for _, r := range d.Get("port").([]any) {
		m := r.(map[string]any)
		in.Rules = append(in.Rules, api.Rule{Port: int64(m["number"].(int)), Protocol: m["protocol"].(string), Cidr: m["cidr"].(string)})
	}
	return in
}

// flattenRecord sets every attribute from the item, both halves of each pair included, as many real providers do.
func flattenRecord(d *schema.ResourceData, it *api.Item) diag.Diagnostics {
	var size int64
	if it.Size != nil {
		size = *it.Size
	}
	mode := "standard"
	if it.Settings != nil && it.Settings.Mode != "" {
		mode = it.Settings.Mode
	}
	ports := []any{}
	for _, r := range it.Rules {
		ports = append(ports, map[string]any{"number": int(r.Port), "protocol": r.Protocol, "cidr": r.Cidr, "summary": fmt.Sprintf("%s/%d", r.Protocol, r.Port)})
	}
	for k, v := range map[string]any{
		"name": it.Name, "description": it.Description, "size": int(size), "size_kb": int(size / 1024),
		"mode": mode, "fast": mode == "fast", "secret": it.Tags["secret"], "label": it.Tags["label"],
		"legacy_label": it.Tags["legacy_label"], "port": ports, "etag": it.Etag, "revision": int(it.Revision),
	} {
		if err := d.Set(k, v); err != nil {
			return diag.Errorf("setting %s: %s", k, err)
		}
	}
	return nil
}

func createRecord(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	it, err := meta.(*apiClient).create(ctx, expandRecord(d))
	if err != nil {
		return diag.Errorf("creating record %q: %s", d.Get("name").(string), err)
	}
	d.SetId(it.ID)
	return flattenRecord(d, it)
}

func updateRecord(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	it, err := meta.(*apiClient).put(ctx, d.Id(), expandRecord(d))
	if err != nil {
		return diag.Errorf("updating record %s: %s", d.Id(), err)
	}
	return flattenRecord(d, it)
}
