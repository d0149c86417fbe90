// Terraform CLI configuration and credentials: TF_TOKEN_<host> names, credentials precedence, provider_installation
// (order, patterns, include/exclude), plugin_cache_dir and the files Terraform reads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import {
  expandEnv,
  impliedMirrorDirs,
  loadCliConfig,
  parseCliConfig,
  parseProviderPattern,
  type InstallationMethod,
} from "../../src/acquire/cliconfig.js";
import { comparisonHost, credentialsFromEnv, hostFromTokenEnvVarName, tokenEnvVarName, tokenForHost } from "../../src/acquire/credentials.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { methodApplies } from "../../src/acquire/multi-source.js";

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "tfbridge-cliconfig-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("TF_TOKEN_<host>", () => {
  it("encodes hosts as Terraform documents: dots as _, hyphens as __, punycode for Unicode, ports kept", () => {
    expect(tokenEnvVarName("app.terraform.io")).toBe("TF_TOKEN_app_terraform_io");
    expect(tokenEnvVarName("my-registry.example.com")).toBe("TF_TOKEN_my__registry_example_com");
    expect(tokenEnvVarName("café.fr")).toBe("TF_TOKEN_xn____caf__dma_fr");
    expect(tokenEnvVarName("例えば.com")).toBe("TF_TOKEN_xn____r8j3dr99h_com");
    expect(tokenEnvVarName("Registry.Example.COM")).toBe("TF_TOKEN_registry_example_com");
    expect(tokenEnvVarName("127.0.0.1:8443")).toBe("TF_TOKEN_127_0_0_1:8443");
    expect(tokenEnvVarName("example.com:443")).toBe("TF_TOKEN_example_com");
  });

  it("decodes every spelling Terraform accepts back to the comparison host", () => {
    for (const name of ["TF_TOKEN_xn____caf__dma_fr", "TF_TOKEN_xn--caf-dma_fr", "TF_TOKEN_xn--caf-dma.fr", "TF_TOKEN_café_fr"]) {
      expect(hostFromTokenEnvVarName(name), name).toBe("xn--caf-dma.fr");
    }
    expect(hostFromTokenEnvVarName("TF_TOKEN_my__registry_example_com")).toBe("my-registry.example.com");
    expect(hostFromTokenEnvVarName("TF_TOKEN_127_0_0_1:8443")).toBe("127.0.0.1:8443");
    expect(hostFromTokenEnvVarName("TF_TOKEN_")).toBeUndefined();
    expect(hostFromTokenEnvVarName("TF_TOKENS_x")).toBeUndefined();
    for (const host of ["app.terraform.io", "my-registry.example.com", "xn--caf-dma.fr", "127.0.0.1:8443"]) {
      expect(hostFromTokenEnvVarName(tokenEnvVarName(host))).toBe(host);
    }
  });

  it("normalizes hosts for comparison: case, IDNA, default port", () => {
    expect(comparisonHost("CAFÉ.fr")).toBe("xn--caf-dma.fr");
    expect(comparisonHost("example.com:443")).toBe("example.com");
    expect(comparisonHost("example.com:8443")).toBe("example.com:8443");
    expect(comparisonHost("not a host")).toBeUndefined();
    expect(comparisonHost("example.com:99999")).toBeUndefined();
  });

  it("prefers a TF_TOKEN_ variable over a credentials block, and ignores empty ones", () => {
    const env = { TF_TOKEN_app_terraform_io: "from-env", TF_TOKEN_other_example: "", PATH: "/bin" };
    expect([...credentialsFromEnv(env)]).toEqual([["app.terraform.io", "from-env"]]);
    const configured = new Map([
      ["app.terraform.io", "from-config"],
      ["other.example", "config-only"],
    ]);
    expect(tokenForHost("APP.terraform.io", { env, configured })).toBe("from-env");
    expect(tokenForHost("other.example", { env, configured })).toBe("config-only");
    expect(tokenForHost("third.example", { env, configured })).toBeUndefined();
  });
});

describe("CLI configuration files", () => {
  const full = `
# Terraform CLI configuration
plugin_cache_dir   = "$HOME/.terraform.d/plugin-cache"
disable_checkpoint = true

credentials "app.terraform.io" {
  token = "xxxxxx.atlasv1.zzzzzzzzzzzzz"
}
credentials "Registry.Example.com:8443" {
  token = "second" // trailing comment with { braces }
}

provider_installation {
  /* a network mirror first,
     then local files */
  network_mirror {
    url     = "https://mirror.example.com/providers"
    include = ["registry.terraform.io/*/*"]
  }
  filesystem_mirror {
    path    = "/usr/share/terraform/providers"
    include = ["example.com/*/*", "hashicorp/random"]
  }
  dev_overrides {
    "hashicorp/null" = "/home/developer/tmp/terraform-null"
  }
  direct {
    exclude = ["example.com/*/*"]
  }
  filesystem_mirror {
    path = "/second/mirror"
  }
}
`;

  it("parses provider_installation in file order, credentials, plugin_cache_dir, and says what it ignores", async () => {
    const c = await parseCliConfig(full, "/home/u/.terraformrc", { HOME: "/home/u" });
    expect(c.pluginCacheDir).toBe("/home/u/.terraform.d/plugin-cache");
    expect(Object.fromEntries(c.credentials)).toEqual({ "app.terraform.io": "xxxxxx.atlasv1.zzzzzzzzzzzzz", "registry.example.com:8443": "second" });
    expect(c.installation!.map((m) => m.kind)).toEqual(["network_mirror", "filesystem_mirror", "direct", "filesystem_mirror"]);
    expect(c.installation![0]).toEqual({
      kind: "network_mirror",
      url: "https://mirror.example.com/providers/",
      include: [{ host: "registry.terraform.io", namespace: "*", type: "*" }],
      exclude: [],
    });
    expect(c.installation![1]).toMatchObject({
      path: "/usr/share/terraform/providers",
      include: [
        { host: "example.com", namespace: "*", type: "*" },
        { host: "registry.opentofu.org", namespace: "hashicorp", type: "random" },
      ],
    });
    expect(c.installation![3]).toMatchObject({ kind: "filesystem_mirror", path: "/second/mirror", include: [], exclude: [] });
    expect(c.warnings.join("\n")).toMatch(/dev_overrides is ignored/);
  });

  it("reads JSON configurations (credentials.tfrc.json, *.tfrc.json)", async () => {
    const c = await parseCliConfig(
      JSON.stringify({ credentials: { "app.terraform.io": { token: "t" } }, provider_installation: { direct: [{ exclude: ["a/b"] }] } }),
      "credentials.tfrc.json",
    );
    expect(c.credentials.get("app.terraform.io")).toBe("t");
    expect(c.installation).toEqual([{ kind: "direct", include: [], exclude: [{ host: "registry.opentofu.org", namespace: "a", type: "b" }] }]);
  });

  it("rejects what Terraform rejects, naming the file", async () => {
    const bad: [string, RegExp][] = [
      ["provider_installation {\n  carrier_pigeon {}\n}\n", /unknown provider installation method "carrier_pigeon"/],
      ["provider_installation {\n  network_mirror { url = \"http://insecure.example/\" }\n}\n", /must use https/],
      ["provider_installation {\n  filesystem_mirror { include = [\"a/b\"] }\n}\n", /filesystem_mirror needs a path/],
      ["provider_installation {\n  direct { exclude = [\"hashi*/random\"] }\n}\n", /\* must stand for a whole part/],
      ["provider_installation {\n  direct { exclude = [\"*/random\"] }\n}\n", /after a \* every part must be \* too/],
      ["provider_installation {\n direct {}\n}\nprovider_installation {\n direct {}\n}\n", /only one provider_installation block/],
      ['credentials "example.com" {}\n', /needs a token/],
      ["credentials {", /Terraform CLI configuration \/x\.tfrc: .*(Unclosed|brace)/i],
    ];
    for (const [text, message] of bad) {
      const e = await parseCliConfig(text, "/x.tfrc").catch((x: unknown) => x);
      expect(e, text).toBeInstanceOf(ParameterizeError);
      expect((e as Error).message, text).toMatch(message);
      expect((e as Error).message).toMatch(/^Terraform CLI configuration \/x\.tfrc: /);
    }
  });

  it("a malformed credentials.tfrc.json: the file, line, column and problem, and not one character of the token", async () => {
    const TOKEN = "s3cr3tT0k3n.atlasv1.QWxhZGRpbjpvcGVuIHNlc2FtZQ";
    const home = tmp();
    mkdirSync(join(home, ".terraform.d"));
    const file = join(home, ".terraform.d", "credentials.tfrc.json");
    const cases: [string, string][] = [
      // A trailing comma after the token, as a hand edit leaves it.
      [`{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "${TOKEN}",\n    }\n  }\n}\n`, "a comma before '}' (JSON allows no trailing comma) at line 5, column 5"],
      // The file cut off inside the token.
      [`{"credentials":{"app.terraform.io":{"token":"${TOKEN}`, "a string that is never closed at line 1, column 45"],
      // A line break inside the token.
      [`{"credentials":{"app.terraform.io":{"token":"${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)}"}}}`, "a control character, such as a line break or tab, inside a string (write it as \\n or \\t) at line 1, column 56"],
      // The token without quotes: JSON.parse's message quotes it ("Unexpected token 's', ...").
      [`{"credentials":{"app.terraform.io":{"token":${TOKEN}}}}`, "a value that is not a string, number, object, array, true, false or null (strings need double quotes) at line 1, column 45"],
      [`{"credentials":{"app.terraform.io":{"token":"${TOKEN}"}}} trailing`, "more text after the end of the JSON value at line 1, column 97"],
    ];
    for (const [text, problem] of cases) {
      writeFileSync(file, text);
      const e = await loadCliConfig({ HOME: home }, home).catch((x: unknown) => x);
      expect(e, text).toBeInstanceOf(ParameterizeError);
      const message = (e as Error).message;
      expect(message).toBe(`Terraform CLI configuration ${file}: not valid JSON: ${problem}; fix the file (or remove it)`);
      // No run of 4 characters of the token anywhere in the message or its causes.
      for (let k = 0; k + 4 <= TOKEN.length; k++) expect(message).not.toContain(TOKEN.slice(k, k + 4));
      expect((e as Error).cause).toBeUndefined();
    }
    writeFileSync(file, JSON.stringify([TOKEN]));
    expect(((await loadCliConfig({ HOME: home }, home).catch((x: unknown) => x)) as Error).message).toBe(
      `Terraform CLI configuration ${file}: not valid here: the file must hold a JSON object ({ … })`,
    );
  });

  it("a network_mirror URL with a password: kept for the requests, masked wherever it is shown", async () => {
    const c = await parseCliConfig('provider_installation {\n  network_mirror { url = "https://bob:p%40ss@mirror.example/providers" }\n}\n', "/x.tfrc");
    expect(c.installation).toEqual([{ kind: "network_mirror", url: "https://bob:p%40ss@mirror.example/providers/", include: [], exclude: [] }]);
    const bad: [string, string][] = [
      ["http://bob:hunter2@mirror.example/", 'network_mirror url "http://bob:***@mirror.example/" must use https'],
      ["https://bob:hun ter2@[mirror.example/", 'network_mirror url "https://***@[mirror.example/" is not a URL'],
    ];
    for (const [url, message] of bad) {
      const e = await parseCliConfig(`provider_installation {\n  network_mirror { url = "${url}" }\n}\n`, "/x.tfrc").catch((x: unknown) => x);
      expect((e as Error).message).toBe(`Terraform CLI configuration /x.tfrc: ${message}`);
      expect((e as Error).message).not.toMatch(/hunter2|hun ter2/);
    }
  });

  it("loads TF_CLI_CONFIG_FILE (or ~/.terraformrc) and then ~/.terraform.d/*.tfrc[.json]; TF_PLUGIN_CACHE_DIR wins", async () => {
    const home = tmp();
    mkdirSync(join(home, ".terraform.d"));
    writeFileSync(join(home, ".terraformrc"), 'plugin_cache_dir = "/from/terraformrc"\ncredentials "a.example" {\n token = "rc"\n}\n');
    writeFileSync(join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { "a.example": { token: "login" }, "b.example": { token: "login-b" } } }));
    writeFileSync(join(home, ".terraform.d", "notes.txt"), "not a config");
    const plain = await loadCliConfig({ HOME: home }, home);
    expect(plain.files).toEqual([join(home, ".terraformrc"), join(home, ".terraform.d", "credentials.tfrc.json")]);
    expect(plain.pluginCacheDir).toBe("/from/terraformrc");
    expect(plain.credentials.get("a.example")).toBe("rc");
    expect(plain.credentials.get("b.example")).toBe("login-b");
    expect(plain.installation).toBeUndefined();

    const custom = join(home, "custom.tfrc");
    writeFileSync(custom, 'provider_installation {\n  direct {}\n}\n');
    const explicit = await loadCliConfig({ HOME: home, TF_CLI_CONFIG_FILE: custom, TF_PLUGIN_CACHE_DIR: "/env/cache" }, home);
    expect(explicit.files[0]).toBe(custom);
    expect(explicit.pluginCacheDir).toBe("/env/cache");
    expect(explicit.installation).toEqual([{ kind: "direct", include: [], exclude: [] }]);

    const missing = await loadCliConfig({ HOME: home, TF_CLI_CONFIG_FILE: join(home, "nope.tfrc") }, home);
    expect(missing.warnings.join("\n")).toMatch(/TF_CLI_CONFIG_FILE names .*nope\.tfrc, which does not exist/);
  });

  it("finds Terraform's implied mirror directories that exist", () => {
    const home = tmp();
    const data = tmp();
    mkdirSync(join(home, ".terraform.d", "plugins"), { recursive: true });
    mkdirSync(join(data, "terraform", "plugins"), { recursive: true });
    expect(impliedMirrorDirs({ XDG_DATA_HOME: data, XDG_DATA_DIRS: "/nonexistent" }, home)).toEqual([
      join(home, ".terraform.d", "plugins"),
      join(data, "terraform", "plugins"),
    ]);
  });

  it("expands $VAR and ${VAR}", () => {
    expect(expandEnv("$HOME/a/${USER}/b$NOPE", { HOME: "/h", USER: "u" })).toBe("/h/a/u/b");
  });
});

describe("include and exclude patterns", () => {
  const method = (include: string[], exclude: string[]): InstallationMethod => ({
    kind: "direct",
    include: include.map((p) => parseProviderPattern(p, "registry.opentofu.org")),
    exclude: exclude.map((p) => parseProviderPattern(p, "registry.opentofu.org")),
  });
  const applies = (m: InstallationMethod, address: string): boolean => methodApplies(m, parseProviderAddress(address));

  it("match whole parts, with the default host for short patterns and exclusions winning", () => {
    const m = method(["example.com/*/*", "hashicorp/*"], ["hashicorp/dns"]);
    expect(applies(m, "example.com/acme/thing")).toBe(true);
    expect(applies(m, "EXAMPLE.com/acme/thing")).toBe(true);
    expect(applies(m, "random")).toBe(true);
    expect(applies(m, "registry.opentofu.org/hashicorp/random")).toBe(true);
    expect(applies(m, "hashicorp/dns")).toBe(false);
    expect(applies(m, "registry.terraform.io/hashicorp/random")).toBe(false);
    expect(applies(method([], []), "anything/at/all")).toBe(true);
    expect(applies(method(["*/*/*"], ["127.0.0.1:8443/*/*"]), "127.0.0.1:8443/a/b")).toBe(false);
  });
});
