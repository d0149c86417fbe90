// Deliberate deferrals for tests of a client that does not allow them: BRIDGETEST_DEFER names the calls that defer.
package main

import (
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// DeferEnv lists deferral points, comma-separated, each optionally with a reason: `plan` (bridgetest_object's
// create/update plans; reason resource_config_unknown) or `plan:provider_config_unknown`, `plan:absent_prereq`;
// `read` and `import` (bridgetest_identified's ReadResource and ImportResourceState) take the same reasons.
const DeferEnv = "BRIDGETEST_DEFER"

// deferAt reports whether point is listed in BRIDGETEST_DEFER, and with which reason. The framework passes a
// resource's deferral through even when the client said deferral_allowed: false, as a careless provider would.
func deferAt(point string) (resource.DeferredReason, bool) {
	for _, p := range strings.Split(os.Getenv(DeferEnv), ",") {
		name, reason, _ := strings.Cut(strings.TrimSpace(p), ":")
		if name != point {
			continue
		}
		switch reason {
		case "provider_config_unknown":
			return resource.DeferredReasonProviderConfigUnknown, true
		case "absent_prereq":
			return resource.DeferredReasonAbsentPrereq, true
		default:
			return resource.DeferredReasonResourceConfigUnknown, true
		}
	}
	return resource.DeferredReasonUnknown, false
}
