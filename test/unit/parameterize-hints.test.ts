// The `pulumi package add` commands messages suggest: arguments as a shell reads them back, flags after `--`.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { packageAddCommand, providerArgument } from "../../src/parameterize/hints.js";

const none = { includes: [], excludes: [] };

/** The words bash makes of a command line. */
function words(command: string): string[] {
  return execFileSync("bash", ["-c", `printf '%s\\n' ${command}`], { encoding: "utf8" }).trimEnd().split("\n");
}

describe("packageAddCommand", () => {
  it("quotes what a shell would split or expand, so that the command runs as printed", () => {
    const command = packageAddCommand(["hashicorp/random", "> 3.6, < 4.0"], none);
    expect(command).toBe('pulumi package add terraform-provider hashicorp/random "> 3.6, < 4.0"');
    expect(words(command.replace(/^pulumi /, ""))).toEqual(["package", "add", "terraform-provider", "hashicorp/random", "> 3.6, < 4.0"]);
    const odd = packageAddCommand(["/tmp/my dir/$x`y`\"z\\/terraform-provider-a"], none);
    expect(words(odd.replace(/^pulumi /, "")).at(-1)).toBe("/tmp/my dir/$x`y`\"z\\/terraform-provider-a");
  });

  it("puts the selection's flags after --, as pulumi needs them", () => {
    expect(packageAddCommand(["./terraform-provider-tls"], { includes: ["tls_private_key", "tls_cert_request"], excludes: ["tls_x"], providerName: "mytls" })).toBe(
      "pulumi package add terraform-provider -- ./terraform-provider-tls --include tls_private_key,tls_cert_request --exclude tls_x --provider-name mytls",
    );
  });

  it("leaves a <placeholder> bare, to be filled in", () => {
    expect(packageAddCommand(["<new dir>/terraform-provider-random"], none)).toBe("pulumi package add terraform-provider <new dir>/terraform-provider-random");
  });
});

describe("providerArgument", () => {
  it("leaves the default registry out, as users type it, and keeps any other host and a path whole", () => {
    expect(providerArgument({ kind: "registry", host: "registry.opentofu.org", namespace: "hashicorp", type: "random" })).toBe("hashicorp/random");
    expect(providerArgument({ kind: "remote", address: { host: "registry.terraform.io", namespace: "hashicorp", type: "random" } })).toBe("registry.terraform.io/hashicorp/random");
    expect(providerArgument({ kind: "local", path: "/x/terraform-provider-a" })).toBe("/x/terraform-provider-a");
  });
});
