package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// New is the provider: configuration `endpoint` (or $HTTPAPI_ENDPOINT) and a sensitive `token` (or $HTTPAPI_TOKEN).
func New() *schema.Provider {
	return &schema.Provider{
		Schema: withSettings(map[string]*schema.Schema{
			"endpoint": {
				Type: schema.TypeString,
				// Optional with an environment default, checked in configure: a Required+DefaultFunc attribute would make the
				// schema itself depend on the environment of whoever asks for it.
				Optional:    true,
				DefaultFunc: schema.EnvDefaultFunc("HTTPAPI_ENDPOINT", nil),
				Description: "Base URL of the httpapi service, e.g. http://127.0.0.1:8080 (loopback only). Defaults to $HTTPAPI_ENDPOINT.",
			},
			"token": {
				Type:        schema.TypeString,
				Optional:    true,
				Sensitive:   true,
				DefaultFunc: schema.EnvDefaultFunc("HTTPAPI_TOKEN", nil),
				Description: "Bearer token sent with every request. Defaults to $HTTPAPI_TOKEN.",
			},
		}, settingsSchema()),
		ResourcesMap:         map[string]*schema.Resource{"httpapi_item": resourceItem(), "httpapi_record": resourceRecord()},
		DataSourcesMap:       map[string]*schema.Resource{"httpapi_items": dataSourceItems(), "httpapi_settings": dataSourceSettings()},
		ConfigureContextFunc: configure,
	}
}

func configure(_ context.Context, d *schema.ResourceData) (any, diag.Diagnostics) {
	endpoint, _ := d.Get("endpoint").(string)
	if endpoint == "" {
		return nil, diag.Diagnostics{{
			Severity:      diag.Error,
			Summary:       "Missing endpoint",
			Detail:        "Set the provider's endpoint, or the environment variable HTTPAPI_ENDPOINT, to the httpapi service's URL.",
			AttributePath: nil,
		}}
	}
	token, _ := d.Get("token").(string)
	c, err := newAPIClient(endpoint, token)
	if err != nil {
		return nil, diag.FromErr(err)
	}
	c.settings = configuredSettings(d)
	return c, nil
}
