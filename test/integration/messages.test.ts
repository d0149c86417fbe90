// What the user is told, against real providers: a state from a newer release names the command that goes back to
// one, a moved local binary names the path its SDK recorded and the command that records the new one, `-- --help`
// shows the usage as information before an error that only says nothing was added, and a provider's errors name the
// Pulumi properties beside the Terraform attributes they point at or quote; an error about an id of megabytes keeps
// what failed and the provider's reason.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { META_KEY } from "../../src/bridge/meta.js";
import { newerReleaseHint, parameterize, ParameterizeError } from "../../src/parameterize/index.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { engineLogSink, failure as callFailure, inProcessPlugin } from "../support/in-process-plugin.js";
import { toStruct } from "../support/reference-ops.js";
import { MAX_STATUS_MESSAGE_BYTES } from "../../src/wire/bound.js";
import { peerPath } from "../support/peers.js";
import { argsRequest, callError, startPluginProcess } from "../support/pulumi.js";
import { closedAfterEach } from "../support/launched.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-messages-"));
const open = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const VERSIONED = "bridgetest:index/versioned:Versioned";

/** bridgetest as its older release ships it (bridgetest_versioned at schema version 0), through the bridge. */
async function olderRelease(hints: ConstructorParameters<typeof TerraformBridge>[4]): Promise<TerraformBridge> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest"), env: { BRIDGETEST_STATE_DIR: scratch, BRIDGETEST_VERSIONED_SCHEMA: "0" } });
  open.push(tf);
  const schema = await tf.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" });
  const b = new TerraformBridge(tf, schema, model, () => undefined, hints);
  await b.configure({});
  return b;
}

/** What the newer release (schema version 1) stored. */
const newerState = { id: "versioned-hello", name: "hello", size: 3, [META_KEY]: JSON.stringify({ schema_version: "1" }) };

async function refusal(b: TerraformBridge): Promise<string> {
  const e = await b.read({ token: VERSIONED, id: "versioned-hello", state: newerState, inputs: { name: "hello" } }).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  expect(e).toBeInstanceOf(Error);
  return e!.message;
}

describe("a state written by a newer release of the provider", () => {
  it("names the command that goes back to a newer release of a registry provider, with the package's flags", async () => {
    const hint = newerReleaseHint({
      name: "bt",
      version: "1.0.0",
      origin: { kind: "registry", host: "127.0.0.1:8443", namespace: "bridge", type: "bridgetest" },
      selection: { includes: ["bridgetest_versioned"], excludes: [], providerName: "bt" },
    });
    const message = await refusal(await olderRelease({ newerRelease: hint }));
    expect(message).toContain("the stored state of bridgetest_versioned versioned-hello was written with its schema version 1, but bridgetest 1.0.0 knows schema version 0 at most");
    expect(message).toContain(
      'Go back to a newer release: `pulumi package add terraform-provider -- 127.0.0.1:8443/bridge/bridgetest "> 1.0.0" --include bridgetest_versioned --package-name bt` takes the newest release after 1.0.0',
    );
    expect(message).toContain('the "version" of its pulumi:providers:bt resource');
    expect(message).toContain("or remove the resource from the stack (`pulumi state delete`) and import it with this release (`pulumi import`)");
    expect(message).not.toMatch(/<provider>|<version>/);
  });

  it("for a local binary, names the path to put the newer build back at", async () => {
    const path = peerPath("bridgetest");
    const hint = newerReleaseHint({ name: "bridgetest", version: "0.0.0", origin: { kind: "local", path }, selection: { includes: [], excludes: [] } });
    const message = await refusal(await olderRelease({ newerRelease: hint }));
    expect(message).toContain(`Put the build of ${path} that last updated the stack back at that path (the SDK runs whatever binary is there)`);
  });

  it("without hints, still names the package and what to look for", async () => {
    expect(await refusal(await olderRelease({}))).toContain("Go back to a release of bridgetest newer than 1.0.0;");
  });
});

describe("a local provider binary moved or deleted after package add", () => {
  const gone = join(scratch, "moved", "terraform-provider-random");

  it("says the SDK recorded its path, and gives the package add that records the new one", async () => {
    const value = JSON.stringify({ local: { path: gone }, includes: ["random_pet"] });
    const e = await parameterize({ kind: "value", name: "random", version: "0.0.0", value: Buffer.from(value) }, { cwd: scratch }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("not-found");
    expect((e as Error).message).toBe(
      `Terraform provider binary not found: ${gone}. The package's SDK (or the packages: entry of Pulumi.yaml) was generated for that path; ` +
        "put the provider back there, or regenerate the SDK for where it is now: `pulumi package add terraform-provider -- <new dir>/terraform-provider-random --include random_pet`",
    );
  });

  it("as an argument of package add, says only that the path is wrong", async () => {
    const e = await parameterize({ kind: "args", args: [gone] }, { cwd: scratch }).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(e?.message).toBe(`Terraform provider binary not found: ${gone}. Build or download the provider, or fix the path.`);
  });
});

describe("package add -- --help", () => {
  it("shows the usage as an info message, delivered before the error, which only says nothing was added", async () => {
    const engine = await engineLogSink();
    const plugin = await startPluginProcess({ args: [engine.address] });
    try {
      const e = await callError(plugin, "Parameterize", argsRequest("--help"));
      expect(e.details).toBe("the usage is shown above (--help); nothing was added");
      // Already delivered when the error came back: the CLI exits on the error.
      const usage = engine.logs.filter((l) => l.message.startsWith("Usage: pulumi package add terraform-provider"));
      expect(usage).toHaveLength(1);
      expect(usage[0]).toMatchObject({ severity: "INFO", ephemeral: false });
      expect(usage[0]!.message).toContain("--include a,b");
    } finally {
      await plugin.stop();
      engine.close();
    }
  });
});

describe("a provider's errors, in Pulumi's names too", () => {
  const NAMED = "bridgetest:index/named:Named";

  async function bridgetest(env: Record<string, string>): Promise<TerraformBridge> {
    const tf = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest"), env });
    open.push(tf);
    const schema = await tf.getProviderSchema();
    const b = new TerraformBridge(tf, schema, buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" }));
    await b.configure({});
    return b;
  }

  const failure = (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => "no error",
      (e: unknown) => (e as Error).message,
    );

  it("an attribute error of an apply names the property path and the quoted attribute", async () => {
    const b = await bridgetest({ BRIDGETEST_STATE_DIR: scratch });
    const message = await failure(b.create({ token: NAMED, urn: "urn:pulumi:s::p::bridgetest:index/named:Named::n", news: { name: "given", namePrefix: "p-" } }));
    expect(message).toBe(
      "creating bridgetest_named failed:\n" +
        'error: Conflicting configuration arguments: "name_prefix" (namePrefix): conflicts with name (at name_prefix, the Pulumi property namePrefix)',
    );
  });

  it("a resource's error that names the provider configuration's attribute names its property too", async () => {
    const b = await bridgetest({ BRIDGETEST_STATE_DIR: "" });
    const message = await failure(b.create({ token: NAMED, urn: "urn:pulumi:s::p::bridgetest:index/named:Named::n", news: { name: "given" } }));
    expect(message).toContain("error: bridgetest: no state directory: Set the provider's state_dir (stateDir) or the environment variable BRIDGETEST_STATE_DIR.");
  });
});

describe("a Read or Delete of an id of 10 MB, through the plugin's gRPC", () => {
  // bridgetest keeps each object in <state_dir>/<id>.json: with such an id the file system refuses the name, and the
  // provider's reason ("file name too long") is the end of a message of 10 MB that every bound used to cut off.
  it("keeps what failed and the provider's reason, eliding the middle of the id", async () => {
    const sink = await engineLogSink();
    const p = await inProcessPlugin(sink.address);
    try {
      await p.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
      const providerType = "pulumi:providers:bridgetest";
      await p.call("Configure", {
        args: toStruct({ stateDir: scratch }), acceptSecrets: true, acceptResources: true, urn: `urn:pulumi:dev::p::${providerType}::default`, name: "default", type: providerType,
      });
      const type = "bridgetest:index/objectResource:ObjectResource";
      const urn = `urn:pulumi:dev::p::${type}::huge`;
      const id = `obj-${"x".repeat(10 * 1024 * 1024)}-end`;
      const properties = toStruct({ id, name: "huge" });
      const shownId = /obj-x+ … \[10485\d{3} characters not shown\] … x+-end/.source;
      const read = await callFailure(p.call, "Read", { id, urn, properties, inputs: toStruct({ name: "huge" }) });
      expect(read.details.length).toBeLessThan(MAX_STATUS_MESSAGE_BYTES);
      // The id is elided where the message quotes it, so the provider's whole diagnostic fits; its own quote of the
      // id (in the path) is elided in the diagnostic's middle, keeping its summary and its reason.
      expect(read.details).toMatch(
        new RegExp(`^reading bridgetest_object "${shownId}" failed:\\nerror: bridgetest: cannot read object: open ${scratch}/obj-x+ … \\[\\d+ characters not shown\\] … x+-end\\.json: file name too long$`),
      );
      const deleted = await callFailure(p.call, "Delete", { id, urn, name: "huge", type, properties, timeout: 60 });
      expect(deleted.details).toMatch(
        new RegExp(`^deleting bridgetest_object failed:\\nerror: bridgetest: cannot delete object: remove ${scratch}/obj-x+ … \\[\\d+ characters not shown\\] … x+-end\\.json: file name too long$`),
      );
    } finally {
      await p.close();
      sink.close();
    }
  }, 120_000);
});
