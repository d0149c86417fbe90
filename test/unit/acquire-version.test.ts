// The one exact-version rule (src/acquire/version.ts) wherever a version enters: registry and mirror listings, a
// parameter value, version constraints and the cache; and that every version it accepts survives a value round trip.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { cachedVersions, installPackage } from "../../src/acquire/cache.js";
import { parseVersionConstraint, satisfies } from "../../src/acquire/constraint.js";
import { ParameterizeError, VersionNotFoundError } from "../../src/acquire/errors.js";
import { eventSink } from "../../src/acquire/events.js";
import { Http } from "../../src/acquire/http.js";
import { MultiSource } from "../../src/acquire/multi-source.js";
import { DEFAULT_SETTINGS } from "../../src/acquire/settings.js";
import type { AvailableVersion, InstallContext, Source } from "../../src/acquire/source.js";
import { exactVersionProblem, isExactVersion } from "../../src/acquire/version.js";
import { encodeValue, parseValue } from "../../src/parameterize/value.js";

const random = parseProviderAddress("hashicorp/random");
const ACCEPTED = ["0.0.0", "1.0.0", "3.6.3", "10.20.30", "1.0.0-beta", "1.0.0-rc.1", "1.0.0-0.3.7", "1.0.0-x-y.z", "1.0.0+build.5", "1.0.0-beta+exp.sha.5114f85", `${Number.MAX_SAFE_INTEGER}.0.0`];
const REFUSED: [string, RegExp][] = [
  ["v1.0.0", /starts with "v"; write the version alone, e.g. 1\.0\.0/],
  ["=1.0.0", /starts with "="/],
  [" 1.0.0", /spaces around it/],
  ["1.0.0 ", /spaces around it/],
  ["", /empty/],
  ["1.0", /not MAJOR\.MINOR\.PATCH/],
  ["1", /not MAJOR\.MINOR\.PATCH/],
  ["01.0.0", /without leading zeros/],
  ["1.02.0", /without leading zeros/],
  ["1.0.0-01", /not MAJOR\.MINOR\.PATCH/],
  ["1.0.0.0", /not MAJOR\.MINOR\.PATCH/],
  ["1.0.0-", /not MAJOR\.MINOR\.PATCH/],
  ["1.0.0/../../x", /not MAJOR\.MINOR\.PATCH/],
  ["99999999999999999999.0.0", /major version 99999999999999999999 is larger than 9007199254740991/],
  ["1.9007199254740992.0", /minor version 9007199254740992 is larger than 9007199254740991/],
  [`1.0.0-${"a".repeat(130)}`, /longer than 128 characters/],
];

describe("the exact-version rule", () => {
  it("accepts Semantic Versioning 2.0.0 versions, pre-releases and build metadata included", () => {
    for (const v of ACCEPTED) expect(exactVersionProblem(v), v).toBeUndefined();
  });

  it("refuses everything else, saying why", () => {
    for (const [v, why] of REFUSED) expect(exactVersionProblem(v), JSON.stringify(v)).toMatch(why);
    expect(exactVersionProblem(3)).toMatch(/not a string/);
  });

  it("every version it accepts is written into a parameter value and read back unchanged; every one it refuses is refused there", () => {
    for (const version of ACCEPTED) {
      const value = { source: { kind: "remote" as const, address: random, version }, selection: { includes: [], excludes: [] } };
      expect(parseValue(encodeValue(value)), version).toEqual(value);
      // The value's version becomes "= <version>" on every later run: it must name that very version.
      const c = parseVersionConstraint(`= ${version}`);
      expect(c.clauses[0]!.version, version).toBe(version);
      expect(satisfies(c, version), version).toBe(true);
    }
    for (const [version] of REFUSED) {
      const bytes = Buffer.from(JSON.stringify({ remote: { url: "hashicorp/random", version } }));
      expect(() => parseValue(bytes), JSON.stringify(version)).toThrow(/"remote\.version" must be an exact version like 3\.6\.3, got .*: /);
    }
  });

  it("a value whose version is too large for semver gets a clear invalid-argument error, not a TypeError", () => {
    const e = (() => {
      try {
        parseValue(Buffer.from('{"remote":{"url":"hashicorp/random","version":"99999999999999999999.0.0"}}'));
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("invalid-argument");
    expect((e as Error).message).toBe(
      'invalid parameter value: "remote.version" must be an exact version like 3.6.3, got "99999999999999999999.0.0": its major version 99999999999999999999 is larger than 9007199254740991, the largest supported',
    );
  });
});

describe("version constraints with numbers too large", () => {
  const invalid = (raw: string): ParameterizeError => {
    try {
      parseVersionConstraint(raw);
    } catch (e) {
      return e as ParameterizeError;
    }
    throw new Error(`"${raw}" was accepted`);
  };

  it("refuse the constraint naming it and the largest number allowed", () => {
    for (const raw of [">= 99999999999999999999", "~> 1.99999999999999999999", "= 1.0.99999999999999999999", ">= 1.0, < 9007199254740992"]) {
      const e = invalid(raw);
      expect(e, raw).toBeInstanceOf(ParameterizeError);
      expect(e.kind, raw).toBe("invalid-argument");
      expect(e.message, raw).toMatch(new RegExp(`^invalid version constraint "${raw.replace(/[.*+?^${}()|[\]\\~]/g, "\\$&")}": \\d+ in ".*" is larger than 9007199254740991, the largest version number supported$`));
    }
  });

  it("refuse a pre-release that no version can carry (a numeric part with a leading zero)", () => {
    expect(invalid("= 1.0.0-01").message).toMatch(/^invalid version constraint "= 1\.0\.0-01": "= 1\.0\.0-01" does not name a version \(it is not MAJOR\.MINOR\.PATCH/);
  });

  it("at the largest number allowed, still match, and ~> reaches no bound past it", () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(satisfies(parseVersionConstraint(`>= ${max}`), `${max}.0.0`)).toBe(true);
    expect(satisfies(parseVersionConstraint(`~> ${max}.0`), `${max}.5.0`)).toBe(true);
    expect(satisfies(parseVersionConstraint(`~> 1.${max}.0`), `1.${max}.7`)).toBe(true);
    expect(satisfies(parseVersionConstraint(`~> 1.${max}.0`), "2.0.0")).toBe(false);
    expect(satisfies(parseVersionConstraint(">= 1.0.0"), "v2.0.0")).toBe(false);
  });
});

/** A registry or mirror answering a fixed listing. */
class ListingSource implements Source {
  constructor(
    readonly description: string,
    private readonly listing: AvailableVersion[],
  ) {}
  async versions(): Promise<AvailableVersion[]> {
    return this.listing;
  }
  async install(): Promise<string> {
    throw new Error("not used");
  }
}

function resolveFrom(...vs: string[]) {
  const warnings: string[] = [];
  const ctx: InstallContext = {
    http: new Http({ ...DEFAULT_SETTINGS, tokenFor: () => undefined }),
    platform: "linux_amd64",
    events: eventSink({ warn: (m) => warnings.push(m) }),
    maxUnpackedBytes: 1 << 20,
    maxArchiveEntries: 100,
  };
  const multi = new MultiSource([{ method: { kind: "direct", include: [], exclude: [] }, source: new ListingSource("the registry at r.example", vs.map((version) => ({ version }))) }]);
  return { multi, ctx, warnings };
}

describe("versions a registry or mirror offers", () => {
  it("are skipped with a warning when not exact (as Terraform skips them), the valid ones still chosen", async () => {
    const { multi, ctx, warnings } = resolveFrom("v1.0.0", " 1.0.0", "1.0.0", "v9.0.0", "99999999999999999999.0.0");
    const r = await multi.resolve(random, parseVersionConstraint(""), ctx);
    expect(r.chosen?.version).toBe("1.0.0");
    expect([...r.offered.keys()]).toEqual(["1.0.0"]);
    expect(r.ignored).toEqual(['"v1.0.0"', '" 1.0.0"', '"v9.0.0"', '"99999999999999999999.0.0"']);
    expect(warnings).toEqual([
      'the registry at r.example lists "v1.0.0" as a version of registry.opentofu.org/hashicorp/random, which is not an exact version (it starts with "v"; write the version alone, e.g. 1.0.0); ignoring it',
      'the registry at r.example lists " 1.0.0" as a version of registry.opentofu.org/hashicorp/random, which is not an exact version (it has spaces around it); ignoring it',
      'the registry at r.example lists "v9.0.0" as a version of registry.opentofu.org/hashicorp/random, which is not an exact version (it starts with "v"; write the version alone, e.g. 9.0.0); ignoring it',
      'the registry at r.example lists "99999999999999999999.0.0" as a version of registry.opentofu.org/hashicorp/random, which is not an exact version (its major version 99999999999999999999 is larger than 9007199254740991, the largest supported); ignoring it',
    ]);
  });

  it("when none is exact: not found, naming what was offered and who should fix it", async () => {
    const { multi, ctx } = resolveFrom("v1.0.0", "v1.1.0");
    const c = parseVersionConstraint("");
    const r = await multi.resolve(random, c, ctx);
    expect(r.chosen).toBeUndefined();
    const e = multi.notFound(random, c, r);
    expect(e).toBeInstanceOf(VersionNotFoundError);
    expect(e.message).toBe(
      'no version of registry.opentofu.org/hashicorp/random can be used: every version offered is malformed ("v1.0.0", "v1.1.0"); tell the operator of the source that versions must be written as MAJOR.MINOR.PATCH',
    );
  });

  it("a pre-release is offered, but chosen only when named exactly (as Terraform)", async () => {
    const { multi, ctx } = resolveFrom("1.0.0", "1.1.0-beta");
    expect((await multi.resolve(random, parseVersionConstraint(""), ctx)).chosen?.version).toBe("1.0.0");
    expect((await multi.resolve(random, parseVersionConstraint(">= 1.0.0"), ctx)).chosen?.version).toBe("1.0.0");
    expect((await multi.resolve(random, parseVersionConstraint("= 1.1.0-beta"), ctx)).chosen?.version).toBe("1.1.0-beta");
  });
});

describe("the cache", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const root = (): string => {
    const d = mkdtempSync(join(tmpdir(), "tfbridge-version-"));
    dirs.push(d);
    return d;
  };

  it("installs no version the rule refuses, so no directory or lock file is named after one", async () => {
    const r = root();
    for (const version of ["v1.0.0", " 1.0.0", "../1.0.0", "99999999999999999999.0.0"]) {
      let filled = false;
      const e = await installPackage(r, random, version, "linux_amd64", async () => void (filled = true)).catch((x: unknown) => x);
      expect(e, version).toBeInstanceOf(ParameterizeError);
      expect((e as Error).message, version).toMatch(new RegExp(`^cannot install version ${JSON.stringify(version).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} of random: `));
      expect(filled, version).toBe(false);
    }
    expect(cachedVersions(r, random, "linux_amd64")).toEqual([]);
  });

  it("lists only directories named by exact versions (build metadata included)", () => {
    const r = root();
    for (const v of ["1.0.0", "v1.1.0", "1.2.0+b1", "01.0.0"]) {
      const pkg = join(r, "registry.opentofu.org/hashicorp/random", v, "linux_amd64");
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, "terraform-provider-random"), "#!/bin/sh\n", { mode: 0o755 });
    }
    expect(cachedVersions(r, random, "linux_amd64")).toEqual(["1.2.0+b1", "1.0.0"]);
    expect(isExactVersion("1.2.0+b1")).toBe(true);
  });
});
