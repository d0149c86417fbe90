// A Go project through the real Go language host (pulumi-language-go), laid out as `pulumi new go` lays it out:
// Pulumi.yaml with `runtime: go`, go.mod requiring github.com/pulumi/pulumi/sdk/v3 PULUMI_GO_SDK with its go.sum, main.go.
// `pulumi package add terraform-provider <peer>` for random, tls, time and local makes the CLI generate each Go SDK
// into sdks/<name> and link it (a `replace` in go.mod); a fifth package comes from a fake loopback HTTPS registry
// (`127.0.0.1:<port>/hashicorp/random "~> 3.0" --provider-name regrandom`). main.go then runs through `pulumi up`:
// tls PrivateKey + SelfSignedCert with a nested subjects block, a secret random Password under an explicit provider,
// DependsOn and IgnoreChanges, data sources in both forms, time's rfc3339Parse function, and a real local File in a
// temporary directory given by stack config. Then a no-change preview, refresh, a replacement by keepers, `pulumi
// import`, bad input through raw RegisterPackageResource, destroy; and a Go project without pulumi-language-go.
// Last, on a stack of its own, main.go becomes an explicit httpapi provider with a setting of every Terraform kind:
// httpapi's getSettings echoes them as Configure received them.
// Known problems, checked and printed rather than failed on (see the "language-go:" lines of the output):
// - local's direxists returns a bool; Pulumi's Go generator writes `return nil, err` for it, so the plain local SDK
//   does not compile (the reference's schema is the same); the test re-adds local with `--exclude direxists`.
import { spawn } from "node:child_process";
import { X509Certificate, generateKeyPairSync } from "node:crypto";
import { accessSync, constants, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { installPlugin } from "../support/e2e.js";
import { goEnv, hostsMissing, languageSandbox } from "../support/languages.js";
import { isSecretEnvelope, OUR_STACK, removeScratch, scratch, type Deployment, type PreviewJson } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { EXPLICIT_ECHO, ROUTE_SECRET, SETTINGS_ENDPOINT, expectStoredExplicitProvider } from "../support/provider-settings.js";
import { PULUMI_GO_SDK } from "../support/pulumi-tools.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

const timingReport = new Timings("language-go");
const { timed } = timingReport;

/** Runs a command without blocking the worker (the fake registry answers from this process meanwhile). */
function exec(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 600_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

const GO_MOD = `module goproj\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}\n`;
const EMPTY_MAIN = `package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		return nil
	})
}
`;

/** The program. Config: outDir, keeper, renewal, caPem, phase ("", import, bad, directPublicKey), randomParam, keyPem. */
const MAIN_GO = String.raw`package main

import (
	"encoding/base64"
	"errors"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi-terraform-provider/sdks/go/local/local"
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/random/random"
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/regrandom/v3/regrandom"
	tftime "github.com/pulumi/pulumi-terraform-provider/sdks/go/time/time"
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/tls/tls"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		outDir := cfg.Require("outDir")
		phase := cfg.Get("phase")

		key, err := tls.NewPrivateKey(ctx, "key", &tls.PrivateKeyArgs{
			Algorithm:  pulumi.String("ECDSA"),
			EcdsaCurve: pulumi.String("P256"),
		})
		if err != nil {
			return err
		}
		cert, err := tls.NewSelfSignedCert(ctx, "cert", &tls.SelfSignedCertArgs{
			PrivateKeyPem:       key.PrivateKeyPem,
			ValidityPeriodHours: pulumi.Float64(24),
			EarlyRenewalHours:   pulumi.Float64(cfg.RequireFloat64("renewal")),
			AllowedUses:         pulumi.StringArray{pulumi.String("digital_signature"), pulumi.String("server_auth")},
			DnsNames:            pulumi.StringArray{pulumi.String("example.test")},
			Subjects: tls.SelfSignedCertSubjectArray{
				tls.SelfSignedCertSubjectArgs{
					CommonName:   pulumi.String("example.test"),
					Organization: pulumi.String("Go Test Org"),
				},
			},
		}, pulumi.IgnoreChanges([]string{"earlyRenewalHours"}))
		if err != nil {
			return err
		}

		prov, err := random.NewProvider(ctx, "rnd", &random.ProviderArgs{})
		if err != nil {
			return err
		}
		pw, err := random.NewPassword(ctx, "pw", &random.PasswordArgs{
			Length:  pulumi.Float64(20),
			Keepers: pulumi.StringMap{"k": pulumi.String(cfg.Require("keeper"))},
		}, pulumi.Provider(prov), pulumi.DependsOn([]pulumi.Resource{cert}))
		if err != nil {
			return err
		}
		num, err := random.NewInteger(ctx, "num", &random.IntegerArgs{
			Min: pulumi.Float64(1),
			Max: pulumi.Float64(1000),
		}, pulumi.Provider(prov))
		if err != nil {
			return err
		}
		// random_string is String in Go: random.String, StringArgs and StringOutput, beside pulumi's own String types.
		suffix, err := random.NewString(ctx, "suffix", &random.StringArgs{
			Length:  pulumi.Float64(8),
			Special: pulumi.Bool(false),
		})
		if err != nil {
			return err
		}
		pet, err := regrandom.NewPet(ctx, "regpet", &regrandom.PetArgs{
			Length:    pulumi.Float64(2),
			Separator: pulumi.String("_"),
		})
		if err != nil {
			return err
		}

		// A data source in both forms: plain (its result has no sensitive attribute) and output-versioned.
		ca, err := tls.GetCertificate(ctx, &tls.GetCertificateArgs{Content: pulumi.StringRef(cfg.Require("caPem"))})
		if err != nil {
			return err
		}
		pub := tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{PrivateKeyPem: key.PrivateKeyPem})

		// A provider function.
		parsed, err := tftime.Rfc3339Parse(ctx, "2024-03-04T05:06:07Z")
		if err != nil {
			return err
		}

		file, err := local.NewFile(ctx, "greeting", &local.FileArgs{
			Filename: pulumi.String(filepath.Join(outDir, "greeting.txt")),
			Content:  pulumi.Sprintf("hello from go in %s %.0f, number %.0f", parsed.MonthName, parsed.Year, num.Result),
		}, pulumi.DependsOn([]pulumi.Resource{num}))
		if err != nil {
			return err
		}

		switch phase {
		case "":
		case "import":
			// What ` + "`pulumi import --out`" + ` generated for the adopted integer.
			if _, err := random.NewInteger(ctx, "adopted", &random.IntegerArgs{Max: pulumi.Float64(100), Min: pulumi.Float64(1)}); err != nil {
				return err
			}
		case "bad":
			// Past the SDK's types: the raw resource with an unknown property and a wrong-typed value.
			param, err := base64.StdEncoding.DecodeString(cfg.Require("randomParam"))
			if err != nil {
				return err
			}
			ref, err := ctx.RegisterPackage(&pulumirpc.RegisterPackageRequest{
				Name:             "terraform-provider",
				Version:          "${VERSION}",
				Parameterization: &pulumirpc.Parameterization{Name: "random", Version: "0.0.0", Value: param},
			})
			if err != nil {
				return err
			}
			var raw pulumi.CustomResourceState
			if err := ctx.RegisterPackageResource("random:index/integer:Integer", "bad", pulumi.Map{
				"min":   pulumi.String("one"),
				"max":   pulumi.Float64(5),
				"color": pulumi.String("blue"),
			}, &raw, ref.Ref); err != nil {
				return err
			}
		case "directPublicKey":
			direct, err := tls.GetPublicKey(ctx, &tls.GetPublicKeyArgs{PrivateKeyPem: pulumi.StringRef(cfg.Require("keyPem"))})
			if err != nil {
				return err
			}
			ctx.Export("directFingerprint", pulumi.String(direct.PublicKeyFingerprintSha256))
		default:
			return errors.New("unknown phase " + phase)
		}

		ctx.Export("password", pw.Result)
		ctx.Export("caSubject", pulumi.StringPtrFromPtr(ca.Certificates[0].Subject))
		ctx.Export("pubKeyAlgorithm", pub.Algorithm())
		ctx.Export("pubKeyMatches", pulumi.All(pub.PublicKeyPem(), key.PublicKeyPem).ApplyT(func(v []interface{}) bool {
			return strings.TrimSpace(v[0].(string)) == strings.TrimSpace(v[1].(string))
		}))
		ctx.Export("year", pulumi.Float64(parsed.Year))
		ctx.Export("monthName", pulumi.String(parsed.MonthName))
		ctx.Export("filename", file.Filename)
		ctx.Export("certPem", cert.CertPem)
		ctx.Export("number", num.Result)
		ctx.Export("pet", pet.ID())
		ctx.Export("suffix", suffix.Result)
		return nil
	})
}
`;

/**
 * An explicit httpapi provider with a setting of every Terraform kind, the route's secret an Output made secret (the Go
 * SDK sends the values as they are; Terraform's ints are numbers in the schema); getSettings, invoked with that
 * provider, echoes what its Configure received.
 */
const SETTINGS_MAIN_GO = `package main

import (
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/httpapi/httpapi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		explicit, err := httpapi.NewProvider(ctx, "explicit", &httpapi.ProviderArgs{
			Endpoint:       pulumi.String("${SETTINGS_ENDPOINT}"),
			MaxRetries:     pulumi.Float64(7),
			Trace:          pulumi.Bool(true),
			BackoffSeconds: pulumi.Float64(0.25),
			DefaultHeaders: pulumi.StringMap{"x-team": pulumi.String("green")},
			AllowedIds:     pulumi.StringArray{pulumi.String("b"), pulumi.String("c")},
			FallbackUrls:   pulumi.StringArray{pulumi.String("http://127.0.0.1:11")},
			Client:         &httpapi.ProviderClientArgs{Name: pulumi.String("c2"), Weight: pulumi.Float64(4)},
			Routes: httpapi.ProviderRouteArray{httpapi.ProviderRouteArgs{
				Path:   pulumi.String("/b"),
				Secret: pulumi.ToSecret(pulumi.String("${ROUTE_SECRET}")).(pulumi.StringOutput),
			}},
		})
		if err != nil {
			return err
		}
		ctx.Export("fromExplicit", httpapi.GetSettingsOutput(ctx, httpapi.GetSettingsOutputArgs{}, pulumi.Provider(explicit)).Json())
		return nil
	})
}
`;

const PEERS = ["random", "tls", "time", "local"] as const;
const SDK_MODULE = (name: string): string => `github.com/pulumi/pulumi-terraform-provider/sdks/go/${name}`;

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let env: NodeJS.ProcessEnv;
let project: string;
let outDir: string;
let tokenVar: string;
const keyPem = generateKeyPairSync("ec", {
  namedCurve: "prime256v1",
  privateKeyEncoding: { type: "sec1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

const pulumi = (args: string[], timeoutMs = 600_000): Promise<RunResult> => runPulumi(args, { cwd: project, env, timeoutMs });
const ok = async (args: string[], timeoutMs?: number): Promise<RunResult> => expectSuccess(await pulumi(args, timeoutMs), `pulumi ${args.join(" ")} in ${project}`);
const go = async (args: string[]): Promise<RunResult> => exec("go", args, project, env);
const deployment = async (showSecrets = false): Promise<Deployment> =>
  (JSON.parse((await ok(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])])).stdout) as { deployment: Deployment }).deployment;
const custom = async (): Promise<Map<string, NonNullable<Deployment["resources"]>[number]>> =>
  new Map(((await deployment()).resources ?? []).filter((r) => r.custom === true && !r.type.startsWith("pulumi:providers:")).map((r) => [r.urn.split("::").pop()!, r]));
const setConfig = async (key: string, value: string): Promise<void> => {
  await ok(["config", "set", key, "--", value]);
};

beforeAll(async () => {
  if (hostsMissing()) return;
  sandbox = languageSandbox(); // packages and installs the plugin; the first run on a machine builds the Pulumi CLI
  reg = await FakeRegistry.start({
    providers: { "hashicorp/random": [{ version: "3.6.0" }, { version: "3.7.2" }, { version: "4.0.0" }] },
    binaries: { random: peerPath("random") },
    token: "go-e2e-token",
  });
  const work = scratch("tfbridge-go-");
  const rc = join(work, "cli.tfrc");
  writeFileSync(rc, "");
  tokenVar = `TF_TOKEN_${reg.host.replace(/\./g, "_")}`;
  env = {
    ...sandbox.env,
    ...goEnv(),
    // The plugin (Node.js) trusts the fake registry's CA; its token goes by TF_TOKEN_<host>, the port kept as :port.
    NODE_EXTRA_CA_CERTS: reg.caFile,
    [tokenVar]: "go-e2e-token",
    TF_CLI_CONFIG_FILE: rc,
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
  };
  project = join(work, "goproj");
  outDir = join(work, "out");
  mkdirSync(project);
  mkdirSync(outDir);
  // As `pulumi new go` lays a project out: Pulumi.yaml, go.mod, main.go, then `go mod tidy` writes go.sum.
  writeFileSync(join(project, "Pulumi.yaml"), "name: goproj\nruntime: go\ndescription: A Go program using Terraform providers\n");
  writeFileSync(join(project, "go.mod"), GO_MOD);
  writeFileSync(join(project, "main.go"), EMPTY_MAIN);
  expectSuccess(await timed("go mod tidy (empty program)", () => go(["mod", "tidy"])), "go mod tidy");
  expect(existsSync(join(project, "go.sum"))).toBe(true);
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  removeScratch();
  timingReport.report();
});

describe.skipIf(hostsMissing())("a Go project through pulumi-language-go", () => {
  it("`pulumi package add` generates each Go SDK into sdks/<name> and links it with a replace in go.mod", async () => {
    for (const peer of PEERS) {
      const r = expectSuccess(await timed(`package add ${peer}`, () => pulumi(["package", "add", "terraform-provider", peerPath(peer)])), `package add ${peer}`);
      expect(r.stderr + r.stdout).toMatch(new RegExp(`Added package ${peer}`));
      const sdkMod = readFileSync(join(project, "sdks", peer, "go.mod"), "utf8");
      expect(sdkMod).toContain(`module ${SDK_MODULE(peer)}\n`);
      expect(existsSync(join(project, "sdks", peer, peer, "provider.go"))).toBe(true);
      const plugin = JSON.parse(readFileSync(join(project, "sdks", peer, peer, "pulumi-plugin.json"), "utf8")) as { name: string; parameterization: { name: string; value: string } };
      expect(plugin.name).toBe("terraform-provider");
      expect(plugin.parameterization.name).toBe(peer);
      expect(JSON.parse(Buffer.from(plugin.parameterization.value, "base64").toString())).toEqual({ local: { path: peerPath(peer) } });
      expect(readFileSync(join(project, "go.mod"), "utf8")).toContain(`replace ${SDK_MODULE(peer)} => ./sdks/${peer}\n`);
    }
    const address = `${reg.host}/hashicorp/random`;
    const addRegistry = (): Promise<RunResult> => pulumi(["package", "add", "terraform-provider", "--", address, "~> 3.0", "--provider-name", "regrandom"]);
    // The token is given only as TF_TOKEN_127_0_0_1:<port>, a name no shell can spell: it must reach the plugin through
    // the engine and the launcher.
    const r = await timed("package add regrandom (fake registry, TF_TOKEN only; download 12 MiB)", addRegistry);
    expectSuccess(r, "package add registry");
    expect(r.stderr + r.stdout).toMatch(/Added package regrandom/);
    const plugin = JSON.parse(readFileSync(join(project, "sdks", "regrandom", "regrandom", "pulumi-plugin.json"), "utf8")) as { parameterization: { name: string; value: string } };
    expect(plugin.parameterization.name).toBe("regrandom");
    expect(JSON.parse(Buffer.from(plugin.parameterization.value, "base64").toString())).toEqual({
      // The package's lock hash is pinned in the value (docs/using.md "Lock hashes").
      remote: { url: address, version: "3.7.2", hashes: [expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/), expect.stringMatching(/^zh:[0-9a-f]{64}$/)] },
      providerName: "regrandom",
    });
    // A registry provider has a version: 3.7.2 makes the module path end in /v3, as Go's major version suffix rule asks.
    expect(readFileSync(join(project, "sdks", "regrandom", "go.mod"), "utf8")).toContain(`module ${SDK_MODULE("regrandom")}/v3\n`);
    const gomod = readFileSync(join(project, "go.mod"), "utf8");
    expect(gomod).toContain(`replace ${SDK_MODULE("regrandom")}/v3 => ./sdks/regrandom\n`);
    expect(gomod).toContain(`require github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}`);
    const yaml = readFileSync(join(project, "Pulumi.yaml"), "utf8");
    for (const peer of PEERS) expect(yaml).toContain(`  ${peer}:\n    source: terraform-provider\n    version: ${VERSION}\n    parameters:\n      - ${peerPath(peer)}\n`);
    expect(yaml).toMatch(new RegExp(` {2}regrandom:\\n {4}source: terraform-provider\\n {4}version: ${VERSION.replace(/\./g, "\\.")}\\n {4}parameters:\\n {6}- 127\\.0\\.0\\.1:\\d+\\/hashicorp\\/random\\n {6}- ~> 3\\.0\\n {6}- --provider-name\\n {6}- regrandom\\n`));
  }, 600_000);

  it("main.go builds against the generated SDKs (`go mod tidy`, `go vet`); local's direxists needs --exclude", async () => {
    writeFileSync(join(project, "main.go"), MAIN_GO);
    expectSuccess(await timed("go mod tidy (program)", () => go(["mod", "tidy"])), "go mod tidy");
    const gomod = readFileSync(join(project, "go.mod"), "utf8");
    for (const mod of PEERS.map(SDK_MODULE)) expect(gomod).toContain(`\t${mod} v0.0.0-00010101000000-000000000000\n`);
    expect(gomod).toContain(`\t${SDK_MODULE("regrandom")}/v3 v3.0.0-00010101000000-000000000000\n`);
    // Pulumi's Go generator (in pulumi-language-go) writes `return nil, err` for a function returning a bool, so the
    // plain local SDK does not compile; the reference bridge's schema for direxists is the same.
    const vet = await timed("go vet (with direxists)", () => go(["vet", "./..."]));
    if (vet.code !== 0) {
      expect(vet.stderr).toMatch(/sdks\/local\/local\/direxists\.go:\d+:\d+: cannot use nil as bool value in return statement/);
      console.log("language-go: the generated local SDK does not compile (direxists.go: `return nil, err` for a bool result); re-adding local with --exclude direxists");
      expectSuccess(await timed("package add local --exclude direxists", () => pulumi(["package", "add", "terraform-provider", "--", peerPath("local"), "--exclude", "direxists"])), "package add local --exclude");
      expect(existsSync(join(project, "sdks", "local", "local", "direxists.go"))).toBe(false);
    }
    expectSuccess(await timed("go vet", () => go(["vet", "./..."])), "go vet ./...");
  }, 600_000);

  let first: Map<string, NonNullable<Deployment["resources"]>[number]>;

  it("`pulumi up` creates everything; the password is secret; the file is real", async () => {
    await ok(["stack", "init", "dev"]);
    await setConfig("outDir", outDir);
    await setConfig("keeper", "one");
    await setConfig("renewal", "1");
    await setConfig("caPem", readFileSync(reg.caFile, "utf8"));
    await timed("up #1 (first build of main.go and the SDKs; the machine's GOCACHE has the Pulumi SDK)", () => ok(["up", "--yes", "--skip-preview"]));

    const outputs = JSON.parse((await ok(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    const password = outputs["password"] as string;
    expect(password).toMatch(/^.{20}$/);
    expect(outputs["year"]).toBe(2024);
    expect(outputs["monthName"]).toBe("March");
    expect(outputs["caSubject"]).toBe("CN=terraform-provider test registry CA");
    expect(outputs["pubKeyAlgorithm"]).toBe("ECDSA");
    expect(outputs["pubKeyMatches"]).toBe(true);
    expect(outputs["pet"]).toMatch(/^[a-z]+_[a-z]+$/);
    expect(outputs["suffix"]).toMatch(/^[A-Za-z0-9]{8}$/);
    const x509 = new X509Certificate(outputs["certPem"] as string);
    expect(x509.subject).toContain("CN=example.test");
    expect(x509.subject).toContain("O=Go Test Org");
    expect(x509.subjectAltName).toBe("DNS:example.test");
    const file = join(outDir, "greeting.txt");
    expect(outputs["filename"]).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(`hello from go in March 2024, number ${String(outputs["number"])}`);

    const plain = JSON.parse((await ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(plain["password"]).toBe("[secret]");
    const exportText = (await ok(["stack", "export"])).stdout;
    expect(exportText).not.toContain(password);
    first = await custom();
    expect([...first.keys()].sort()).toEqual(["cert", "greeting", "key", "num", "pw", "regpet", "suffix"]);
    const pw = first.get("pw")!;
    expect(isSecretEnvelope(pw.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(pw.outputs?.["bcryptHash"])).toBe(true);
    expect(pw.provider).toMatch(/::pulumi:providers:random::rnd::/);
    expect(first.get("num")!.provider).toMatch(/::pulumi:providers:random::rnd::/);
    const deps = (pw as { dependencies?: string[] }).dependencies ?? [];
    expect(deps.some((d) => d.endsWith("::cert"))).toBe(true);
    expect(((first.get("greeting") as { dependencies?: string[] }).dependencies ?? []).some((d) => d.endsWith("::num"))).toBe(true);
    expect(first.get("regpet")!.type).toBe("regrandom:index/pet:Pet");
    const subjects = first.get("cert")!.outputs?.["subjects"] as Record<string, unknown>[];
    expect(subjects[0]).toMatchObject({ commonName: "example.test", organization: "Go Test Org" });
  }, 600_000);

  it("`pulumi preview --expect-no-changes`, then `pulumi refresh` keeps every id", async () => {
    await timed("preview --expect-no-changes", () => ok(["preview", "--expect-no-changes"]));
    await timed("refresh", () => ok(["refresh", "--yes", "--skip-preview"]));
    const after = await custom();
    for (const [name, r] of first) expect(after.get(name)?.id, name).toBe(r.id);
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("a new keepers value replaces the password; ignoreChanges keeps the certificate", async () => {
    const before = (await deployment(true)).resources!.find((r) => r.urn.endsWith("::pw"))!.outputs!["result"];
    await setConfig("keeper", "two");
    await setConfig("renewal", "5");
    const preview = JSON.parse((await ok(["preview", "--json"])).stdout) as PreviewJson;
    const op = (name: string): string => preview.steps?.find((s) => s.urn.endsWith(`::${name}`))?.op ?? "same";
    expect(op("pw")).toMatch(/replace/);
    expect(op("cert")).toBe("same");
    expect(op("num")).toBe("same");
    await timed("up #2 (replace; program already built, warm Go build cache)", () => ok(["up", "--yes", "--skip-preview"]));
    const after = (await deployment(true)).resources!;
    const pw = after.find((r) => r.urn.endsWith("::pw"))!;
    expect((pw.outputs!["result"] as { plaintext?: string }).plaintext ?? pw.outputs!["result"]).not.toEqual((before as { plaintext?: string }).plaintext ?? before);
    expect(pw.inputs!["keepers"]).toEqual({ k: "two" });
    const cert = after.find((r) => r.urn.endsWith("::cert"))!;
    expect(cert.id).toBe(first.get("cert")!.id);
    expect(cert.inputs!["earlyRenewalHours"]).toBe(1);
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("`pulumi import` adopts a random Integer; the Go code it generates matches the program", async () => {
    const gen = join(outDir, "imported.go");
    await timed("import", () => ok(["import", "random:index/integer:Integer", "adopted", "42,1,100", "--yes", "--protect=false", "--out", gen]));
    const code = readFileSync(gen, "utf8");
    expect(code).toContain('"github.com/pulumi/pulumi-terraform-provider/sdks/go/random/random"');
    expect(code).toMatch(/random\.NewInteger\(ctx, "adopted", &random\.IntegerArgs\{\s*Max: pulumi\.Float64\(100\),\s*Min: pulumi\.Float64\(1\),\s*\}\)/);
    const adopted = (await custom()).get("adopted")!;
    expect(adopted.id).toBe("42");
    expect(adopted.outputs).toMatchObject({ result: 42, min: 1, max: 100 });
    await setConfig("phase", "import");
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("bad input through raw RegisterPackageResource: the check failures name the properties, no stack of ours", async () => {
    const plugin = JSON.parse(readFileSync(join(project, "sdks", "random", "random", "pulumi-plugin.json"), "utf8")) as { parameterization: { value: string } };
    await setConfig("randomParam", plugin.parameterization.value);
    await setConfig("phase", "bad");
    const r = await pulumi(["preview"]);
    const all = r.stdout + r.stderr;
    expect(r.code, all).not.toBe(0);
    expect(all).toContain("random:index/integer:Integer resource 'bad': property color value {blue} has a problem: random:index/integer:Integer has no input property color");
    expect(all).toMatch(/resource 'bad': property min value \{one\} has a problem: expected a number, got a string/);
    expect(all).not.toMatch(OUR_STACK);
  }, 600_000);

  it("tls.GetPublicKey (the plain form) in Go: the invoke result carries no secret, which Go's plain invoke would refuse", async () => {
    await setConfig("keyPem", keyPem);
    await setConfig("phase", "directPublicKey");
    const r = await pulumi(["preview"]);
    const all = r.stdout + r.stderr;
    expect(all).not.toMatch(OUR_STACK);
    expect(all).not.toContain("unexpected secret result returned to invoke call");
    expectSuccess(r, "preview of the plain GetPublicKey");
    // The plain invoke ran during the preview, so the exported fingerprint is known there already.
    expect(r.stdout).toMatch(/directFingerprint\s*:\s*"SHA256:[A-Za-z0-9+/]+"/);
    await setConfig("phase", "import");
  }, 600_000);

  it("`pulumi destroy` removes everything, the local file too", async () => {
    await timed("destroy", () => ok(["destroy", "--yes", "--skip-preview"]));
    expect(existsSync(join(outDir, "greeting.txt"))).toBe(false);
    expect(((await deployment()).resources ?? []).filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);

  it("without pulumi-language-go on PATH, `package add` and `up` fail naming it", async () => {
    const bare = pulumiSandbox();
    try {
      bare.env["PATH"] = (bare.env["PATH"] ?? "")
        .split(":")
        .filter((d) => {
          try {
            accessSync(join(d, "pulumi-language-go"), constants.X_OK);
            return false;
          } catch {
            return true;
          }
        })
        .join(":");
      installPlugin(bare);
      const dir = scratch("tfbridge-go-nohost-");
      cpSync(join(project, "go.sum"), join(dir, "go.sum"));
      writeFileSync(join(dir, "Pulumi.yaml"), "name: nohost\nruntime: go\n");
      writeFileSync(join(dir, "go.mod"), GO_MOD);
      writeFileSync(join(dir, "main.go"), EMPTY_MAIN);
      const e = { ...bare.env, ...goEnv() };
      const add = await runPulumi(["package", "add", "terraform-provider", peerPath("random")], { cwd: dir, env: e });
      expect(add.code).not.toBe(0);
      expect(add.stdout + add.stderr).toContain("failed to generate SDK: no language plugin 'pulumi-language-go' found in the workspace or on your $PATH");
      expect(existsSync(join(dir, "sdks", "random"))).toBe(false);
      expectSuccess(await runPulumi(["stack", "init", "dev"], { cwd: dir, env: e }), "stack init");
      const up = await runPulumi(["up", "--yes"], { cwd: dir, env: e });
      expect(up.code).not.toBe(0);
      expect(up.stdout + up.stderr).toContain("failed to load language plugin go: no language plugin 'pulumi-language-go' found in the workspace or on your $PATH");
    } finally {
      bare.cleanup();
    }
  }, 600_000);

  it("an explicit httpapi.NewProvider with a setting of every kind: getSettings echoes them decoded, the stored routes stay secret, no change on preview", async () => {
    expectSuccess(await timed("package add httpapi", () => pulumi(["package", "add", "terraform-provider", peerPath("httpapi")])), "package add httpapi");
    writeFileSync(join(project, "main.go"), SETTINGS_MAIN_GO);
    expectSuccess(await timed("go mod tidy (httpapi program)", () => go(["mod", "tidy"])), "go mod tidy");
    await ok(["stack", "init", "settings"]);
    await timed("up (explicit httpapi provider; builds the program)", () => ok(["up", "--yes", "--skip-preview"]));
    const outputs = JSON.parse((await ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(JSON.parse(outputs["fromExplicit"] as string)).toEqual(EXPLICIT_ECHO);
    const exportText = (await ok(["stack", "export"])).stdout;
    expectStoredExplicitProvider((JSON.parse(exportText) as { deployment: Deployment }).deployment.resources ?? [], exportText);
    await timed("preview --expect-no-changes (explicit httpapi provider)", () => ok(["preview", "--expect-no-changes"]));
    await ok(["destroy", "--yes", "--skip-preview"]);
    expect(((await deployment()).resources ?? []).filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);
});
