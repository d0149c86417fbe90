// Deliberate crashes for fault tests: BRIDGETEST_PANIC names the calls in which the provider panics.
package main

import (
	"os"
	"strings"
)

// CrashEnv lists crash points, comma-separated: configure, validate, plan, create, create-after, update, delete,
// read, import, upgrade, function, datasource, open, close (the ephemeral bridgetest_token), action (InvokeAction of
// either action, after its first progress event).
const CrashEnv = "BRIDGETEST_PANIC"

// crashAt panics when point is listed in BRIDGETEST_PANIC. A panic in a gRPC handler ends the whole provider process,
// as a real provider bug does; the text is what Terraform shows its users from the provider's stderr.
func crashAt(point string) {
	for _, p := range strings.Split(os.Getenv(CrashEnv), ",") {
		if strings.TrimSpace(p) == point {
			panic("bridgetest: deliberate panic in " + point)
		}
	}
}
