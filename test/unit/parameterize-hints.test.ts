// The `pulumi package add` commands messages suggest: arguments as a shell reads them back, flags after `--`.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openVersionWarning, packageAddCommand, providerArgument } from "../../src/parameterize/hints.js";
import { parseArgs } from "../../src/parameterize/args.js";
import { exactVersion } from "../../src/acquire/constraint.js";

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
      "pulumi package add terraform-provider -- ./terraform-provider-tls --include tls_private_key,tls_cert_request --exclude tls_x --package-name mytls",
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

describe("openVersionWarning", () => {
  const random = { host: "registry.opentofu.org", namespace: "hashicorp", type: "random" };

  it("names what was taken, why it moves, and the command that pins it, which parses back to an exact version", () => {
    const w = openVersionWarning(random, "", "3.9.0", none);
    expect(w).toBe(
      "hashicorp/random: no version was given, so 3.9.0 (the newest matching release) was taken, and every `pulumi install` resolves it again: " +
        "a newer release there changes the SDK and the provider the stack runs. To pin 3.9.0: `pulumi package add terraform-provider hashicorp/random 3.9.0`",
    );
    const command = /`(pulumi package add [^`]+)`$/.exec(w)![1]!;
    const args = words(command.replace(/^pulumi /, "")).slice(3);
    const source = parseArgs(args).source;
    expect(source.kind === "remote" ? exactVersion(source.constraint) : source.kind).toBe("3.9.0");
  });

  it("quotes an open constraint and keeps the selection's flags in the pinning command", () => {
    const w = openVersionWarning({ ...random, host: "registry.terraform.io" }, "~> 3.6", "3.7.2", { includes: ["random_id"], excludes: [] });
    expect(w).toContain('the version constraint "~> 3.6" is open');
    expect(w).toContain("`pulumi package add terraform-provider -- registry.terraform.io/hashicorp/random 3.7.2 --include random_id`");
  });
});
