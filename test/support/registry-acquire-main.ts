// Child-process entry for registry tests: acquires one provider with the environment it was started with (so
// NODE_EXTRA_CA_CERTS, read only at process start, makes it trust the test CA) and prints one JSON line.
import { parseProviderAddress } from "../../src/acquire/address.js";
import { parseVersionConstraint } from "../../src/acquire/constraint.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { acquireRemote } from "../../src/acquire/remote.js";

const [address, constraint, lockHashes] = JSON.parse(process.argv[2] ?? "[]") as [string, string | undefined, string[] | undefined];
const statuses: string[] = [];
const debugs: string[] = [];
const warnings: string[] = [];
// Time to answer, success or failure, without the child's own start-up.
const started = performance.now();
const ms = (): number => Math.round(performance.now() - started);
try {
  const r = await acquireRemote(parseProviderAddress(address), parseVersionConstraint(constraint ?? ""), {
    events: { status: (m) => statuses.push(m), warn: (m) => warnings.push(m), debug: (m) => debugs.push(m) },
    ...(lockHashes !== undefined ? { lockHashes } : {}),
  });
  process.stdout.write(JSON.stringify({ ok: true, path: r.path, version: r.version, hashes: r.hashes, statuses, warnings, debugs, ms: ms(), maxRssKiB: process.resourceUsage().maxRSS }) + "\n");
} catch (e) {
  const kind = e instanceof ParameterizeError ? e.kind : "bug";
  process.stdout.write(JSON.stringify({ ok: false, kind, message: (e as Error).message, stack: kind === "bug" ? (e as Error).stack : undefined, statuses, warnings, debugs, ms: ms(), maxRssKiB: process.resourceUsage().maxRSS }) + "\n");
}
