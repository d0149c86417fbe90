package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// dataSourceItems lists the service's items, optionally those whose name starts with name_prefix.
func dataSourceItems() *schema.Resource {
	return &schema.Resource{
		Description: "The items the httpapi service holds.",
		ReadContext: readItems,
		Schema: map[string]*schema.Schema{
			"name_prefix": {Type: schema.TypeString, Optional: true},
			"ids":         {Type: schema.TypeList, Computed: true, Elem: &schema.Schema{Type: schema.TypeString}},
			"items": {
				Type:     schema.TypeList,
				Computed: true,
				Elem: &schema.Resource{Schema: map[string]*schema.Schema{
					"id":       {Type: schema.TypeString, Computed: true},
					"name":     {Type: schema.TypeString, Computed: true},
					"size":     {Type: schema.TypeInt, Computed: true},
					"tags":     {Type: schema.TypeMap, Computed: true, Elem: &schema.Schema{Type: schema.TypeString}},
					"etag":     {Type: schema.TypeString, Computed: true},
					"revision": {Type: schema.TypeInt, Computed: true},
				}},
			},
		},
	}
}

func readItems(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	prefix := d.Get("name_prefix").(string)
	items, err := meta.(*apiClient).list(ctx, "", prefix)
	if err != nil {
		return diag.FromErr(err)
	}
	ids := make([]any, 0, len(items))
	out := make([]any, 0, len(items))
	for _, it := range items {
		size := 0
		if it.Size != nil {
			size = int(*it.Size)
		}
		tags := map[string]any{}
		for k, v := range it.Tags {
			tags[k] = v
		}
		ids = append(ids, it.ID)
		out = append(out, map[string]any{"id": it.ID, "name": it.Name, "size": size, "tags": tags, "etag": it.Etag, "revision": int(it.Revision)})
	}
	d.SetId("items:" + prefix)
	if err := d.Set("ids", ids); err != nil {
		return diag.FromErr(err)
	}
	if err := d.Set("items", out); err != nil {
		return diag.FromErr(err)
	}
	return nil
}
