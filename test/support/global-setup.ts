// Builds the pinned real Terraform providers once before any test runs (idempotent; a warm cache takes a second).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./peers.js";

export default function setup(): void {
  execFileSync("bash", [join(repoRoot, "scripts/build-peers.sh")], { stdio: ["ignore", "ignore", "inherit"] });
}
