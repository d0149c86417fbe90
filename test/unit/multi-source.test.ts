// MultiSource: which installation methods a provider's patterns admit, the union of their versions, the newest
// usable match from the earliest method offering it, and which failure wins when several sources fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { parseProviderPattern, type CliConfig, type InstallationMethod } from "../../src/acquire/cliconfig.js";
import { parseVersionConstraint } from "../../src/acquire/constraint.js";
import { ParameterizeError, ProviderNotFoundError, VersionNotFoundError } from "../../src/acquire/errors.js";
import { eventSink } from "../../src/acquire/events.js";
import { Http, HttpFailure } from "../../src/acquire/http.js";
import { FilesystemMirrorSource } from "../../src/acquire/mirror-source.js";
import { MultiSource, type Selector } from "../../src/acquire/multi-source.js";
import { DEFAULT_SETTINGS } from "../../src/acquire/settings.js";
import type { AvailableVersion, InstallContext, Source } from "../../src/acquire/source.js";

const PLATFORM = "linux_amd64";
const random = parseProviderAddress("hashicorp/random");

/** A source that answers from a fixed listing (or fails), and remembers who asked. */
class FakeSource implements Source {
  readonly asked: string[] = [];
  constructor(
    readonly description: string,
    private readonly answer: AvailableVersion[] | undefined | Error,
  ) {}
  async versions(a: { namespace: string; type: string }): Promise<AvailableVersion[] | undefined> {
    this.asked.push(`${a.namespace}/${a.type}`);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
  async install(): Promise<string> {
    throw new Error("not used");
  }
}

const pattern = (p: string) => parseProviderPattern(p, "registry.opentofu.org");
function selector(source: Source, include: string[] = [], exclude: string[] = []): Selector {
  return { method: { kind: "direct", include: include.map(pattern), exclude: exclude.map(pattern) }, source };
}

function context(): { ctx: InstallContext; warnings: string[]; statuses: string[] } {
  const warnings: string[] = [];
  const statuses: string[] = [];
  const http = new Http({ ...DEFAULT_SETTINGS, tokenFor: () => undefined });
  return { ctx: { http, platform: PLATFORM, events: eventSink({ warn: (m) => warnings.push(m), status: (m) => statuses.push(m) }), maxUnpackedBytes: 1 << 20, maxArchiveEntries: 100 }, warnings, statuses };
}

const unreachable = (host: string): HttpFailure => new HttpFailure("unreachable", `cannot reach ${host} (ECONNREFUSED)`, `https://${host}/`);
const versions = (...vs: string[]): AvailableVersion[] => vs.map((version) => ({ version }));

describe("include and exclude", () => {
  it("asks only the sources whose patterns admit the provider, exclusions winning", async () => {
    const onlyAcme = new FakeSource("acme mirror", versions("9.9.9"));
    const notRandom = new FakeSource("everything but random", versions("9.9.8"));
    const includedButExcluded = new FakeSource("hashicorp but not random", versions("9.9.7"));
    const hashicorp = new FakeSource("hashicorp registry", versions("3.6.0"));
    const multi = new MultiSource([
      selector(onlyAcme, ["acme/*"]),
      selector(notRandom, [], ["hashicorp/random"]),
      selector(includedButExcluded, ["hashicorp/*"], ["hashicorp/random"]),
      selector(hashicorp, ["hashicorp/*"]),
    ]);
    expect(multi.applicable(random).map((s) => s.source.description)).toEqual(["hashicorp registry"]);
    expect(multi.applicable(parseProviderAddress("hashicorp/tls")).map((s) => s.source.description)).toEqual([
      "everything but random",
      "hashicorp but not random",
      "hashicorp registry",
    ]);
    const r = await multi.resolve(random, parseVersionConstraint(""), context().ctx);
    expect(r.chosen?.version).toBe("3.6.0");
    expect([onlyAcme.asked, notRandom.asked, includedButExcluded.asked, hashicorp.asked]).toEqual([[], [], [], ["hashicorp/random"]]);
  });

  it("fails naming the configuration files when no method admits the provider, before asking anything", async () => {
    const s = new FakeSource("acme mirror", versions("1.0.0"));
    const { ctx, statuses } = context();
    const e = await new MultiSource([selector(s, ["acme/*"])], ["/home/u/.terraformrc"]).resolve(random, parseVersionConstraint(""), ctx).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("failed-precondition");
    expect((e as Error).message).toBe(
      "no provider installation method applies to registry.opentofu.org/hashicorp/random: the provider_installation block in /home/u/.terraformrc excludes it (or includes only other providers)",
    );
    expect(s.asked).toEqual([]);
    expect(statuses).toEqual([]);
  });

  it("builds Terraform's implied methods: mirror directories that have the provider, else the origin registry", () => {
    const home = mkdtempSync(join(tmpdir(), "tfbridge-multisource-"));
    dirs.push(home);
    const http = new Http({ ...DEFAULT_SETTINGS, tokenFor: () => undefined });
    const env = { HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_DATA_DIRS: join(home, "none") };
    const config: CliConfig = { files: [], credentials: new Map(), warnings: [] };
    const kinds = (): string[] => MultiSource.forProvider(config, random, env, home, http).selectors.map((s) => s.source.description);
    expect(kinds()).toEqual(["the registry at registry.opentofu.org"]);
    // A mirror directory for another provider does not count.
    mkdirSync(join(home, ".terraform.d/plugins/registry.opentofu.org/hashicorp/tls"), { recursive: true });
    expect(kinds()).toEqual(["the registry at registry.opentofu.org"]);
    mkdirSync(join(home, "data/terraform/plugins/registry.opentofu.org/hashicorp/random"), { recursive: true });
    expect(kinds()).toEqual([`filesystem mirror ${join(home, "data/terraform/plugins")}`]);
    // An explicit configuration replaces the implied set entirely, in its own order.
    const explicit: InstallationMethod[] = [
      { kind: "network_mirror", url: "https://mirror.example/", include: [], exclude: [] },
      { kind: "direct", include: [], exclude: [] },
    ];
    expect(MultiSource.forProvider({ ...config, installation: explicit }, random, env, home, http).selectors.map((s) => s.source.description)).toEqual([
      "network mirror https://mirror.example/",
      "the registry at registry.opentofu.org",
    ]);
  });
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("merging versions", () => {
  it("takes the newest match across sources, from the earliest method that offers it", async () => {
    const mirror = new FakeSource("mirror", versions("3.5.0", "3.6.0"));
    const registry = new FakeSource("registry", versions("3.6.0", "3.7.0", "4.0.0", "not-a-version"));
    const multi = new MultiSource([selector(mirror), selector(registry)]);
    const r = await multi.resolve(random, parseVersionConstraint("~> 3.5"), context().ctx);
    expect(r.chosen).toMatchObject({ version: "3.7.0", from: { source: registry } });
    expect([...r.offered.keys()].sort()).toEqual(["3.5.0", "3.6.0", "3.7.0", "4.0.0"]);
    expect(r.offered.get("3.6.0")!.map((o) => o.selector.source.description)).toEqual(["mirror", "registry"]);
    // Both offer 3.6.0: the earlier method supplies it.
    const pinned = await multi.resolve(random, parseVersionConstraint("3.6.0"), context().ctx);
    expect(pinned.chosen).toMatchObject({ version: "3.6.0", from: { source: mirror } });
  });

  it("passes over versions this platform cannot use, with a warning, and uses a later method's usable offer", async () => {
    const mirror = new FakeSource("mirror", [
      { version: "2.0.0", platforms: ["darwin_arm64"] },
      { version: "3.0.0", protocols: ["4.0"] },
    ]);
    const registry = new FakeSource("registry", [{ version: "2.0.0", platforms: [PLATFORM], protocols: ["5.0"] }, { version: "1.0.0" }]);
    const { ctx, warnings } = context();
    const r = await new MultiSource([selector(mirror), selector(registry)]).resolve(random, parseVersionConstraint(""), ctx);
    expect(r.chosen).toMatchObject({ version: "2.0.0", from: { source: registry } });
    expect(r.skipped).toEqual(["3.0.0 (plugin protocol 4.0; we speak 5 and 6)"]);
    expect(warnings).toEqual(["registry.opentofu.org/hashicorp/random: skipped newer matching versions 3.0.0 (plugin protocol 4.0; we speak 5 and 6); using 2.0.0"]);
  });

  it("says Resolving once, quoting the constraint", async () => {
    const { ctx, statuses } = context();
    await new MultiSource([selector(new FakeSource("m", versions("1.0.0")))]).resolve(random, parseVersionConstraint(">= 1.0"), ctx);
    await new MultiSource([selector(new FakeSource("m", versions("1.0.0")))]).resolve(random, parseVersionConstraint(""), ctx);
    expect(statuses).toEqual(['Resolving registry.opentofu.org/hashicorp/random (">= 1.0")…', "Resolving registry.opentofu.org/hashicorp/random (the newest version)…"]);
  });
});

describe("error precedence", () => {
  it("a source that answers wrongly fails the resolution, even when another is unreachable or has the version", async () => {
    const down = new FakeSource("the registry at down.example", unreachable("down.example"));
    const broken = new FakeSource("network mirror https://broken.example/", new Error('https://broken.example/index.json has no "versions" object'));
    const fine = new FakeSource("fine", versions("1.0.0"));
    const e = await new MultiSource([selector(down), selector(fine), selector(broken)]).resolve(random, parseVersionConstraint(""), context().ctx).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("failed-precondition");
    expect((e as Error).message).toBe(
      'cannot resolve registry.opentofu.org/hashicorp/random from network mirror https://broken.example/: https://broken.example/index.json has no "versions" object',
    );
  });

  it("an unreachable source is recorded, not thrown, so other sources or the cache can stand in", async () => {
    const down = new FakeSource("the registry at down.example", unreachable("down.example"));
    const fine = new FakeSource("fine", versions("1.0.0"));
    const r = await new MultiSource([selector(down), selector(fine)]).resolve(random, parseVersionConstraint(""), context().ctx);
    expect(r.chosen?.version).toBe("1.0.0");
    expect(r.unreachable.map((u) => [u.selector.source.description, u.error.message])).toEqual([["the registry at down.example", "cannot reach down.example (ECONNREFUSED)"]]);
  });

  it("no source has the provider: ProviderNotFoundError naming every applicable source", async () => {
    const a = new FakeSource("the registry at registry.opentofu.org", undefined);
    const b = new FakeSource("filesystem mirror /m", undefined);
    const excluded = new FakeSource("excluded", versions("1.0.0"));
    const multi = new MultiSource([selector(a), selector(b), selector(excluded, [], ["*/*/*"])]);
    const constraint = parseVersionConstraint("");
    const r = await multi.resolve(random, constraint, context().ctx);
    const e = multi.notFound(random, constraint, r);
    expect(e).toBeInstanceOf(ProviderNotFoundError);
    expect(e.kind).toBe("not-found");
    expect((e as ProviderNotFoundError).sources).toEqual(["the registry at registry.opentofu.org", "filesystem mirror /m"]);
    expect(e.message).toBe(
      "provider registry.opentofu.org/hashicorp/random not found: the registry at registry.opentofu.org, filesystem mirror /m have no provider hashicorp/random",
    );
    const one = new MultiSource([selector(a)]);
    expect(one.notFound(random, constraint, await one.resolve(random, constraint, context().ctx)).message).toMatch(/: the registry at registry\.opentofu\.org has no provider hashicorp\/random$/);
  });

  it("no version fits: VersionNotFoundError listing what is available (at most 12) and what matched but is unusable", async () => {
    const many = Array.from({ length: 14 }, (_, i) => ({ version: `1.${i}.0` }));
    const s = new FakeSource("registry", [...many, { version: "2.0.0", platforms: ["windows_386"] }]);
    const multi = new MultiSource([selector(s)]);
    const constraint = parseVersionConstraint(">= 2.0");
    const r = await multi.resolve(random, constraint, context().ctx);
    expect(r.chosen).toBeUndefined();
    const e = multi.notFound(random, constraint, r);
    expect(e).toBeInstanceOf(VersionNotFoundError);
    expect(e.kind).toBe("not-found");
    expect((e as VersionNotFoundError).available[0]).toBe("2.0.0");
    expect(e.message).toBe(
      'no version of registry.opentofu.org/hashicorp/random matches ">= 2.0"; available: 2.0.0, 1.13.0, 1.12.0, 1.11.0, 1.10.0, 1.9.0, 1.8.0, 1.7.0, 1.6.0, 1.5.0, 1.4.0, 1.3.0, … (15 in all); ' +
        `matching but unusable here: 2.0.0 (no ${PLATFORM} package)`,
    );
  });
});

describe("a filesystem mirror with the provider under another host", () => {
  /** A tree as `terraform providers mirror` writes it (packed, under registry.terraform.io) plus one unpacked package. */
  function mirrorTree(): string {
    const root = mkdtempSync(join(tmpdir(), "tfbridge-mirror-hosts-"));
    dirs.push(root);
    const random = join(root, "registry.terraform.io/hashicorp/random");
    mkdirSync(random, { recursive: true });
    writeFileSync(join(random, `terraform-provider-random_3.7.2_${PLATFORM}.zip`), "a zip");
    writeFileSync(join(random, "index.json"), '{"versions":{"3.7.2":{}}}');
    mkdirSync(join(root, "example.com/hashicorp/random/1.0.0", PLATFORM), { recursive: true });
    // Neither a host directory nor a package: skipped without a hint.
    mkdirSync(join(root, "not a host/hashicorp/random/2.0.0", PLATFORM), { recursive: true });
    mkdirSync(join(root, "registry.terraform.io/hashicorp/tls"), { recursive: true });
    return root;
  }
  const fsMirror = (path: string, include: string[] = [], exclude: string[] = []): Selector => ({
    method: { kind: "filesystem_mirror", path, include: include.map(pattern), exclude: exclude.map(pattern) },
    source: new FilesystemMirrorSource(path),
  });

  async function notFound(multi: MultiSource, address: string): Promise<ParameterizeError> {
    const a = parseProviderAddress(address);
    const c = parseVersionConstraint("");
    return multi.notFound(a, c, await multi.resolve(a, c, context().ctx));
  }

  it("a bare name misses a terraform providers mirror tree: the error names the full address that finds it", async () => {
    const root = mirrorTree();
    const multi = new MultiSource([fsMirror(root)]);
    const e = await notFound(multi, "hashicorp/random");
    expect(e).toBeInstanceOf(ProviderNotFoundError);
    expect(e.message).toBe(
      `provider registry.opentofu.org/hashicorp/random not found: filesystem mirror ${root} has no provider hashicorp/random; ` +
        `but filesystem mirror ${root} has example.com/hashicorp/random, filesystem mirror ${root} has registry.terraform.io/hashicorp/random: ` +
        "give the full address example.com/hashicorp/random or registry.terraform.io/hashicorp/random (a bare hashicorp/random means registry.opentofu.org/hashicorp/random)",
    );
    // The address it names is found there.
    const named = parseProviderAddress("registry.terraform.io/hashicorp/random");
    expect((await multi.resolve(named, parseVersionConstraint(""), context().ctx)).chosen?.version).toBe("3.7.2");
  });

  it("names a mirror that does not apply to the address asked, only where its patterns admit the address it names", async () => {
    const root = mirrorTree();
    const other = mkdtempSync(join(tmpdir(), "tfbridge-mirror-empty-"));
    dirs.push(other);
    const multi = new MultiSource([fsMirror(root, ["registry.terraform.io/*/*"]), fsMirror(other)]);
    expect((await notFound(multi, "hashicorp/random")).message).toBe(
      `provider registry.opentofu.org/hashicorp/random not found: filesystem mirror ${other} has no provider hashicorp/random; ` +
        `but filesystem mirror ${root} has registry.terraform.io/hashicorp/random: give the full address registry.terraform.io/hashicorp/random ` +
        "(a bare hashicorp/random means registry.opentofu.org/hashicorp/random)",
    );
    const excluding = new MultiSource([fsMirror(root, [], ["registry.terraform.io/*/*", "example.com/*/*"]), fsMirror(other)]);
    expect((await notFound(excluding, "hashicorp/random")).message).toBe(
      `provider registry.opentofu.org/hashicorp/random not found: filesystem mirror ${root}, filesystem mirror ${other} have no provider hashicorp/random`,
    );
  });

  it("says nothing more when no other host has a package of that namespace/type, or for a host given in full", async () => {
    const root = mirrorTree();
    // registry.terraform.io/hashicorp/tls is an empty folder; nothing anywhere for acme/random.
    expect((await notFound(new MultiSource([fsMirror(root)]), "hashicorp/tls")).message).toBe(
      `provider registry.opentofu.org/hashicorp/tls not found: filesystem mirror ${root} has no provider hashicorp/tls`,
    );
    expect((await notFound(new MultiSource([fsMirror(root)]), "acme/random")).message).toMatch(/has no provider acme\/random$/);
    // Asked in full under another host: the hint names the mirror's hosts, without the bare-name note.
    expect((await notFound(new MultiSource([fsMirror(root, ["example.org/*/*", "registry.terraform.io/*/*"])]), "example.org/hashicorp/random")).message).toBe(
      `provider example.org/hashicorp/random not found: filesystem mirror ${root} has no provider hashicorp/random; ` +
        `but filesystem mirror ${root} has registry.terraform.io/hashicorp/random: give the full address registry.terraform.io/hashicorp/random`,
    );
  });
});
