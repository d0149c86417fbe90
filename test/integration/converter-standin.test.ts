// The stand-in for Pulumi's Terraform converter (test/peers/pulumi/converter), called over its gRPC service as the
// CLI calls it: a recording's input converts to the recording's PCL, and any other input is refused, naming the first
// difference. It is Go, so unlike the rest of this tier it is built first (scripts/build-converter.sh, cached: seconds).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closedPort, RECORDINGS, standInConverter } from "../support/converter-standin.js";
import { startHostTunnel } from "../support/host-tunnel.js";
import { inCi } from "../support/tool-missing.js";
import { peerPath } from "../support/peers.js";
import { FakeRegistry } from "../support/registry-server.js";
import { tempDir } from "../support/temp.js";

const REGISTRIES = ["registry.opentofu.org", "registry.terraform.io"];

const built = standInConverter();
if ("missing" in built) {
  if (inCi(process.env)) throw new Error(`the converter stand-in cannot be tested in CI: ${built.missing}`);
  console.warn(`skipping: ${built.missing}`);
}

// The messages of Pulumi's converter.proto and codegen/hcl.proto this test sends and reads, by their field numbers.
const root = protobuf.parse(`syntax = "proto3";
package pulumirpc;
message ConvertProgramRequest { string source_directory = 1; string target_directory = 2; string mapper_target = 3; string loader_target = 4; repeated string args = 5; string generated_project_directory = 6; }
message Pos { int64 line = 1; int64 column = 2; int64 byte = 3; }
message Range { string filename = 1; Pos start = 2; Pos end = 3; }
message Diagnostic { int32 severity = 1; string summary = 2; string detail = 3; Range subject = 4; Range context = 5; }
message ConvertProgramResponse { repeated Diagnostic diagnostics = 1; }
message ConvertStateRequest { string mapper_target = 1; repeated string args = 2; }
message ConvertStateResponse {}
`, { keepCase: true }).root;

function method(name: string, req: string, res: string): grpc.MethodDefinition<object, object> {
  const Req = root.lookupType(`pulumirpc.${req}`);
  const Res = root.lookupType(`pulumirpc.${res}`);
  return {
    path: `/pulumirpc.Converter/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (m: object) => Buffer.from(Req.encode(Req.fromObject(m)).finish()),
    requestDeserialize: (b: Buffer) => Req.toObject(Req.decode(b)),
    responseSerialize: (m: object) => Buffer.from(Res.encode(Res.fromObject(m)).finish()),
    responseDeserialize: (b: Buffer) => Res.toObject(Res.decode(b), { longs: Number, defaults: true }),
  };
}
const Converter = grpc.makeGenericClientConstructor(
  { ConvertProgram: method("ConvertProgram", "ConvertProgramRequest", "ConvertProgramResponse"), ConvertState: method("ConvertState", "ConvertStateRequest", "ConvertStateResponse") },
  "Converter",
);

type Diagnostic = { severity: number; summary: string; detail: string; subject?: { filename: string; start: { line: number; column: number }; end: { line: number; column: number } } };

/** A running stand-in: started as the CLI starts a converter (the port on its first line), with a recordings folder. */
class Running {
  private constructor(private readonly child: ChildProcessWithoutNullStreams, private readonly client: grpc.Client, readonly stderr: () => string) {}

  /** `env`: the proxy and CAs through which it asks the registry for provider versions, as the real converter does. */
  static async start(recordings: string, env: NodeJS.ProcessEnv): Promise<Running> {
    if ("missing" in built) throw new Error(built.missing);
    const child = spawn(join(built.dir, "pulumi-converter-terraform"), ["--recordings", recordings], { stdio: ["pipe", "pipe", "pipe"], env });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const port = await new Promise<number>((done, fail) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf("\n");
        if (nl >= 0) done(Number(out.slice(0, nl)));
      });
      child.once("exit", (code) => fail(new Error(`the stand-in exited (${code}) before naming its port:\n${err}`)));
    });
    const client = new Converter(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new Running(child, client, () => err);
  }

  call<T>(name: "ConvertProgram" | "ConvertState", req: object): Promise<T> {
    return new Promise((done, fail) => {
      (this.client as unknown as Record<string, (r: object, cb: (e: grpc.ServiceError | null, res: T) => void) => void>)[name]!.call(this.client, req, (e, res) => (e ? fail(e) : done(res)));
    });
  }

  /** ConvertProgram of `source` into a fresh folder: the folder and the diagnostics. */
  async convert(source: string, args: string[] = []): Promise<{ target: string; diagnostics: Diagnostic[] }> {
    const target = tempDir("converter-target-");
    const res = await this.call<{ diagnostics: Diagnostic[] }>("ConvertProgram", { source_directory: source, target_directory: target, mapper_target: "127.0.0.1:1", loader_target: "127.0.0.1:1", args, generated_project_directory: tempDir("converter-out-") });
    return { target, diagnostics: res.diagnostics };
  }

  /** The error ConvertProgram of `source` answers with. */
  async refusal(source: string, args: string[] = []): Promise<grpc.ServiceError> {
    try {
      await this.convert(source, args);
    } catch (e) {
      return e as grpc.ServiceError;
    }
    throw new Error(`the stand-in converted ${source}`);
  }

  stop(): void {
    this.client.close();
    this.child.kill();
  }
}

/** Every file under dir, by relative path, with its bytes. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) Object.assign(files, tree(join(dir, e.name), `${prefix}${e.name}/`));
    else files[`${prefix}${e.name}`] = readFileSync(join(dir, e.name)).toString("base64");
  }
  return files;
}

/** A copy of a recording's input, to change. */
function inputCopy(recording: string): string {
  const dir = join(tempDir("converter-src-"), "shop");
  cpSync(join(RECORDINGS, recording, "input"), dir, { recursive: true });
  return dir;
}

const recordingNames = (): string[] => (existsSync(RECORDINGS) ? readdirSync(RECORDINGS).filter((n) => existsSync(join(RECORDINGS, n, "input"))).sort() : []);

/** The public registries by name, through a tunnel to the loopback registry, which lists `versions` of hashicorp/local. */
async function registryAt(versions: string[]): Promise<{ env: NodeJS.ProcessEnv; stop: () => Promise<void> }> {
  const reg = await FakeRegistry.start({ providers: { "hashicorp/local": versions.map((version) => ({ version })) }, binaries: { local: peerPath("local") }, hostnames: REGISTRIES });
  const tunnel = await startHostTunnel(Object.fromEntries(REGISTRIES.map((h) => [h, Number(reg.host.split(":")[1])])));
  return {
    env: { ...process.env, HTTPS_PROXY: tunnel.url, NO_PROXY: "", no_proxy: "", SSL_CERT_FILE: reg.caFile },
    stop: async () => {
      await tunnel.stop();
      await reg.stop();
    },
  };
}

describe.skipIf("missing" in built)("the stand-in for Pulumi's Terraform converter", () => {
  let conv: Running;
  let registry: Awaited<ReturnType<typeof registryAt>>;
  beforeAll(async () => {
    // The versions the recordings were made with: local 2.5.3 is the newest meeting `~> 2.5`.
    registry = await registryAt(["2.4.1", "2.5.3"]);
    conv = await Running.start(RECORDINGS, registry.env);
  });
  afterAll(async () => {
    conv?.stop();
    await registry?.stop();
  });

  it("has recordings to replay", () => {
    expect(recordingNames().length).toBeGreaterThan(0);
  });

  it.each(recordingNames())("converts recording %s's input to its PCL, with no diagnostics", async (name) => {
    const replays = (): number => conv.stderr().split("stand-in for Pulumi's Terraform converter: replayed recording ").length - 1;
    const before = replays();
    const { target, diagnostics } = await conv.convert(inputCopy(name));
    expect(tree(target)).toEqual(tree(join(RECORDINGS, name, "pcl")));
    expect(diagnostics).toEqual([]);
    // Its standard error (which the CLI shows) says the PCL was replayed.
    await vi.waitFor(() => expect(replays()).toBe(before + 1));
  });

  it("refuses a one-byte change in an input file, naming the file and line", async () => {
    const src = inputCopy("terraform-yaml-motd-yaml");
    const text = readFileSync(join(src, "main.tf"), "utf8");
    const at = text.indexOf('"staging"') + 5; // "stagi" → "stagx"
    writeFileSync(join(src, "main.tf"), `${text.slice(0, at)}x${text.slice(at + 1)}`);
    const line = text.slice(0, at).split("\n").length;
    const e = await conv.refusal(src);
    expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(e.details).toContain(`closest is recording terraform-yaml-motd-yaml: main.tf differs from recording terraform-yaml-motd-yaml's input: line ${line} is "  default = \\"stagxng\\"", the recording's is "  default = \\"staging\\""`);
  });

  it("refuses an extra file, naming it", async () => {
    const src = inputCopy("terraform-shop");
    writeFileSync(join(src, "notes.txt"), "x\n");
    const e = await conv.refusal(src);
    expect(e.details).toMatch(/closest is recording terraform-shop(-py)?: extra file notes\.txt \(recording terraform-shop(-py)?'s input has no such file\)/);
  });

  it("refuses a missing file, naming it", async () => {
    const src = inputCopy("terraform-shop");
    rmSync(join(src, "banner.txt"));
    const e = await conv.refusal(src);
    expect(e.details).toMatch(/closest is recording terraform-shop(-py)?: missing file banner\.txt \(recording terraform-shop(-py)?'s input has it\)/);
  });

  it("refuses converter arguments, which no recording was made with", async () => {
    const e = await conv.refusal(inputCopy("terraform-shop"), ["--convert-examples"]);
    expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(e.details).toMatch(/converter arguments \["--convert-examples"\]: .*replays recordings made without any/);
  });

  it("answers ConvertState as unsupported", async () => {
    const e = await conv.call("ConvertState", { mapper_target: "127.0.0.1:1", args: [] }).catch((x: grpc.ServiceError) => x);
    expect((e as grpc.ServiceError).code).toBe(grpc.status.UNIMPLEMENTED);
    expect((e as grpc.ServiceError).details).toBe("ConvertState is not supported by this stand-in for Pulumi's Terraform converter");
  });
});

describe.skipIf("missing" in built)("the stand-in's diagnostics", () => {
  it("returns those the recording's log shows between the CLI's own lines, and none of the CLI's", async () => {
    const recordings = tempDir("converter-recordings-");
    const rec = join(recordings, "warned");
    mkdirSync(join(rec, "input"), { recursive: true });
    mkdirSync(join(rec, "pcl", "sub"), { recursive: true });
    writeFileSync(join(rec, "input", "main.tf"), 'resource "x" "y" {}\n');
    writeFileSync(join(rec, "pcl", "main.pp"), 'resource "y" "x:index:Y" {}\n');
    writeFileSync(join(rec, "pcl", "sub", "more.pp"), "\n");
    writeFileSync(join(rec, "RECORDING.json"), JSON.stringify({ converter: "pulumi-converter-terraform 9.9.9", cli: "v3.276.0", command: "pulumi convert", exit: 0 }));
    writeFileSync(
      join(rec, "converter.log"),
      [
        "",
        "Converting from terraform...",
        "warning: using pulumi-converter-terraform from $PATH at <tmp>/pulumi-converter-terraform",
        "warning: main.tf:1,1-17: unknown resource; no mapping for x; try --mappings",
        "error: <nil>: something else; ",
        "Converting to pcl...",
        "warning: main.pp:1,1-2: the CLI's own; binding",
        "",
      ].join("\n"),
    );
    // The input requires no provider, so no registry is asked: a proxy that refuses everything shows it.
    const conv = await Running.start(recordings, { ...process.env, HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}` });
    try {
      const src = join(tempDir("converter-src-"), "p");
      cpSync(join(rec, "input"), src, { recursive: true });
      const { target, diagnostics } = await conv.convert(src);
      expect(tree(target)).toEqual(tree(join(rec, "pcl")));
      expect(diagnostics).toEqual([
        { severity: 2, summary: "unknown resource", detail: "no mapping for x; try --mappings", subject: { filename: "main.tf", start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 17, byte: 0 } }, context: null },
        { severity: 1, summary: "something else", detail: "", subject: null, context: null },
      ]);
    } finally {
      conv.stop();
    }
  });
});

describe.skipIf("missing" in built)("the stand-in asks the registry for provider versions, as Pulumi's converter does", () => {
  it("with no route to any registry, fails as the real converter fails: could not connect, could not resolve provider version", async () => {
    const conv = await Running.start(RECORDINGS, { ...process.env, HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}`, NO_PROXY: "", no_proxy: "" });
    try {
      const { target, diagnostics } = await conv.convert(inputCopy("terraform-shop"));
      expect(readdirSync(target)).toEqual([]);
      expect(diagnostics.map((d) => [d.severity, d.summary])).toEqual([
        [1, "provider version error"],
        [1, "could not resolve provider version"],
      ]);
      expect(diagnostics[0]!.detail).toMatch(/^could not connect to registry\.opentofu\.org: failed to request discovery document: .*proxyconnect/);
      expect(diagnostics[1]!.detail).toBe("Could not resolve a version from registry.opentofu.org/hashicorp/local: ~> 2.5");
      // Where the real converter points: the `local` entry of required_providers.
      expect(diagnostics[1]!.subject).toMatchObject({ filename: "main.tf", start: { line: 3 } });
    } finally {
      conv.stop();
    }
  });

  it("refuses to replay when the registry's newest match is not the version the recording was made with", async () => {
    const registry = await registryAt(["2.5.3", "2.6.0"]);
    const conv = await Running.start(RECORDINGS, registry.env);
    try {
      const e = await conv.refusal(inputCopy("terraform-shop"));
      expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(e.details).toMatch(/the registry's answer differs from recording terraform-shop(-py)?'s \(local resolved to "2\.6\.0", recorded with "2\.5\.3"\)/);
    } finally {
      conv.stop();
      await registry.stop();
    }
  });
});
