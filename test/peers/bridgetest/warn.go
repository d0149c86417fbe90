// Warnings on demand: BRIDGETEST_WARN names the calls that answer with a warning diagnostic and log a line of their own.
package main

import (
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// WarnEnv lists warning points, comma-separated: configure (the provider's ConfigureProvider), and bridgetest_object's
// validate, plan (its create/update plans), create, update, read, delete.
const WarnEnv = "BRIDGETEST_WARN"

// warnAt adds the warning diagnostic "bridgetest: warning in <point>" when point is listed in BRIDGETEST_WARN, and logs
// a line through Go's log package as providers do ("[WARN] … "): a line on stderr, beside the framework's own log of
// the diagnostic. Terraform shows the diagnostic once, with the resource, and neither log line without TF_LOG.
func warnAt(point string, diags *diag.Diagnostics) {
	for _, p := range strings.Split(os.Getenv(WarnEnv), ",") {
		if strings.TrimSpace(p) == point {
			log.Printf("[WARN] bridgetest: logged in %s", point)
			diags.AddWarning("bridgetest: warning in "+point, "asked for by "+WarnEnv)
		}
	}
}
