// Builds everything the integration and end-to-end tiers need before any test's timer starts: the pinned Terraform
// providers, the Pulumi CLI and language hosts (Java's and .NET's too), the npm packages generated SDKs compile against, and our
// packaged plugin. Each step is cached, so a warm run takes seconds; a cold one (a fresh CI machine) takes minutes
// that would otherwise block whichever test worker asked first, time its test out and starve vitest's own calls to
// the worker.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { packagePlugin } from "./e2e.js";
import { repoRoot } from "./peers.js";
import { pulumiBin, sdkDeps } from "./pulumi-tools.js";

export default function setup(): void {
  execFileSync("bash", [join(repoRoot, "scripts/build-peers.sh")], { stdio: ["ignore", "ignore", "inherit"] });
  pulumiBin();
  packagePlugin();
  sdkDeps();
  // Exit 3 means no hosts can be had here; the language tests skip and say why, so that is not a setup failure.
  for (const script of ["scripts/build-language-hosts.sh", "scripts/build-java-host.sh", "scripts/build-dotnet-host.sh"]) {
    try {
      execFileSync("bash", [join(repoRoot, script)], { stdio: ["ignore", "ignore", "inherit"] });
    } catch (e) {
      if ((e as { status?: number }).status !== 3) throw e;
    }
  }
}
