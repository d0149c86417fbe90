// Messages made from a provider's diagnostics name the Pulumi properties users write beside the Terraform names the
// provider says: attribute paths as property paths, quoted attribute names followed by their property names.
import { describe, expect, it } from "vitest";
import { ModelNames, diagnosticNames } from "../../src/bridge/diagnostic-names.js";
import { failuresFromDiagnostics } from "../../src/bridge/caller.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { failureMessage, warningMessage } from "../../src/terraform/diagnostics.js";
import type { Diagnostic } from "../../src/terraform/types.js";
import { B, N, S, block, nested, opt, provider, req } from "../support/tf-schema.js";

const model = buildProviderModel(
  provider({
    config: block([opt("state_dir", S), opt("region", S)]),
    resources: {
      acme_thing: block(
        [req("min_upper", N), opt("min_upper_case", B), opt("name", S), opt("keep_on_destroy", B)],
        [nested("rule", "list", block([opt("from_port", N), opt("to_port", N)])), nested("network_config", "list", block([opt("subnet_id", S)]), 0, 1)],
      ),
    },
  }),
  { packageName: "acme", packageVersion: "1.0.0" },
);
const thing = model.resources.get("acme_thing")!;
const names = diagnosticNames(thing.properties, model.config);

const error = (summary: string, detail: string, attribute?: Diagnostic["attribute"]): Diagnostic => ({ severity: "error", summary, detail, ...(attribute ? { attribute } : {}) });

describe("the Pulumi names in a diagnostic's text", () => {
  it("follow each quoted Terraform name once, quoted or not, nested and the provider configuration's too", () => {
    expect(names.text('"min_upper" must be at least 1; min_upper is 0')).toBe('"min_upper" (minUpper) must be at least 1; min_upper is 0');
    expect(names.text("from_port must be below to_port")).toBe("from_port (fromPort) must be below to_port (toPort)");
    expect(names.text("subnet_id of network_config is not known")).toBe("subnet_id (subnetId) of network_config (networkConfig) is not known");
    expect(names.text("Set the provider's state_dir or the environment variable ACME_STATE_DIR.")).toBe(
      "Set the provider's state_dir (stateDir) or the environment variable ACME_STATE_DIR.",
    );
    expect(names.text("`keep_on_destroy` is deprecated")).toBe("`keep_on_destroy` (keepOnDestroy) is deprecated");
  });

  it("leave ordinary words, names inside longer words and names already told alone", () => {
    // `rule` is the block `rules`, `name` and `region` are their own names: words a message may use for anything.
    expect(names.text("the rule has no name in this region")).toBe("the rule has no name in this region");
    // Parts of a longer identifier, or of an environment variable, are not the attribute.
    expect(names.text("min_upper_case_x and ACME_min_upper and min_upper2")).toBe("min_upper_case_x and ACME_min_upper and min_upper2");
    expect(names.text("min_upper_case is set")).toBe("min_upper_case (minUpperCase) is set");
    expect(names.text("min_upper (minUpper) is told already")).toBe("min_upper (minUpper) is told already");
  });

  it("give a path as the property path when it is written otherwise", () => {
    expect(names.path([{ attribute: "rule" }, { index: 1 }, { attribute: "from_port" }])).toBe("rules[1].fromPort");
    // A block of at most one element is the object itself in Pulumi.
    expect(names.path([{ attribute: "network_config" }, { index: 0 }, { attribute: "subnet_id" }])).toBe("networkConfig.subnetId");
    expect(names.path([{ attribute: "name" }])).toBe("name");
  });
});

describe("messages made from diagnostics", () => {
  it("a failure says where in both namings, and only once when they agree", () => {
    const diags = [
      error("Invalid port", "from_port must be below to_port", [{ attribute: "rule" }, { index: 0 }, { attribute: "from_port" }]),
      error("Invalid name", "too long", [{ attribute: "name" }]),
    ];
    expect(failureMessage("creating acme_thing failed", diags, names)).toBe(
      "creating acme_thing failed:\n" +
        "error: Invalid port: from_port (fromPort) must be below to_port (toPort) (at rule[0].from_port, the Pulumi property rules[0].fromPort)\n" +
        "error: Invalid name: too long (at name)",
    );
    // Without names (a layer that knows none), as before.
    expect(failureMessage("x", diags.slice(1))).toBe("x:\nerror: Invalid name: too long (at name)");
  });

  it("a warning says where too", () => {
    const d: Diagnostic = { severity: "warning", summary: "Deprecated", detail: "use keep_on_destroy", attribute: [{ attribute: "min_upper_case" }] };
    expect(warningMessage("acme_thing", d, names)).toBe("acme_thing: Deprecated: use keep_on_destroy (keepOnDestroy) (at min_upper_case, the Pulumi property minUpperCase)");
  });

  it("check failures name the property and tell the names in their reason", () => {
    expect(failuresFromDiagnostics([error("Conflicting configuration arguments", '"min_upper_case": conflicts with min_upper', [{ attribute: "min_upper_case" }])], thing.properties)).toEqual([
      { property: "minUpperCase", reason: 'Conflicting configuration arguments: "min_upper_case" (minUpperCase): conflicts with min_upper (minUpper)' },
    ]);
  });

  it("are found by the context they are reported under", () => {
    const byContext = new ModelNames(model);
    expect(byContext.for("acme_thing")?.text("state_dir and min_upper")).toBe("state_dir (stateDir) and min_upper (minUpper)");
    expect(byContext.for("provider configuration")?.text("state_dir and min_upper")).toBe("state_dir (stateDir) and min_upper");
    expect(byContext.for("acme_unknown")).toBeUndefined();
  });
});
