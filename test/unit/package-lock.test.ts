// The lock file is complete: a fresh clone's `npm install` (and `npm ci`) finds every package it needs in it, so it
// neither rewrites the lock (leaving the clone dirty) nor refuses it.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  name: string;
  version: string;
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };

/** Where npm's resolution finds `name` from the package at `from`: its own node_modules, then each enclosing one. */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    if (lock.packages[`${dir === "" ? "" : `${dir}/`}node_modules/${name}`] !== undefined) return true;
    if (dir === "") return false;
    const at = dir.lastIndexOf("/node_modules/");
    dir = at < 0 ? "" : dir.slice(0, at);
  }
}

describe("package-lock.json", () => {
  it("is npm's v3 format for this package and version", () => {
    expect(lock.lockfileVersion).toBe(3);
    expect([lock.name, lock.version]).toEqual([pkg.name, pkg.version]);
    expect(lock.packages[""]).toMatchObject({ name: pkg.name, version: pkg.version });
  });

  it("lists every dependency and every optional (platform) dependency of every locked package", () => {
    // npm installs only the current platform's optional packages, but records all of them; a lock made from a
    // node_modules that lacked them made every fresh install add 22 of rollup's and `npm ci` refuse the lock.
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        if (!resolves(path, name)) missing.push(`${path || "(root)"} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
