// Missing language hosts (the Java and .NET hosts too), a missing tinyproxy, chromium or Wine and a machine that cannot emulate arm64 skip their tests on a developer's machine, saying why and what to install, and fail them in CI: one rule, test/support/tool-missing.ts.
import { describe, expect, it, vi } from "vitest";
import { dotnetHostMissing, hostsMissing, javaHostMissing } from "../support/languages.js";
import { inCi } from "../support/tool-missing.js";
import { tinyproxyMissing } from "../support/tinyproxy.js";
import { chromiumMissing } from "../support/chromium.js";
import { arm64EmulationMissing } from "../support/arm64.js";
import { wineMissing } from "../support/wine.js";

describe("hostsMissing", () => {
  const missing = () => ({ missing: "no language hosts: none on PATH, and Go is needed to build the project's own" });
  const present = () => ({ dir: "/opt/hosts", whose: "hosts: the project's own" });

  it("skips outside CI, saying why", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(hostsMissing({}, missing)).toBe(true);
    expect(hostsMissing({ CI: "false" }, missing)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no language hosts"));
    warn.mockRestore();
  });

  it("fails in CI, naming what is missing", () => {
    expect(() => hostsMissing({ CI: "true" }, missing)).toThrow(/^no language hosts: .*; CI=true does not allow skipping the language tests\./);
    expect(() => hostsMissing({ CI: "1" }, missing)).toThrow(/does not allow skipping/);
  });

  it("runs the tests wherever the hosts are", () => {
    expect(hostsMissing({ CI: "true" }, present)).toBe(false);
    expect(hostsMissing({}, present)).toBe(false);
  });

  it("knows CI from the variable", () => {
    expect([undefined, "", "false", "0", "true", "1", "yes"].map((v) => inCi(v === undefined ? {} : { CI: v }))).toEqual([false, false, false, false, true, true, true]);
  });
});

describe("javaHostMissing", () => {
  const missing = () => ({ missing: "build-java-host: Maven (mvn) is required to build Pulumi Java programs and is not on PATH" });

  it("skips outside CI and fails in CI, as hostsMissing does", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(javaHostMissing({}, missing)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("Maven (mvn) is required"));
    warn.mockRestore();
    expect(() => javaHostMissing({ CI: "true" }, missing)).toThrow(/^build-java-host: Maven .*; CI=true does not allow skipping the Java tests\./);
    expect(javaHostMissing({ CI: "true" }, () => ({ dir: "/opt/java-host" }))).toBe(false);
  });
});

describe("dotnetHostMissing", () => {
  const missing = () => ({ missing: "build-dotnet-host: Go is required to build pulumi-language-dotnet v3.110.0 (https://go.dev/dl), and it is not on PATH" });

  it("skips outside CI and fails in CI, as hostsMissing does", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(dotnetHostMissing({}, missing)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("Go is required to build pulumi-language-dotnet"));
    warn.mockRestore();
    expect(() => dotnetHostMissing({ CI: "true" }, missing)).toThrow(/^build-dotnet-host: Go .*; CI=true does not allow skipping the C# tests\./);
    expect(dotnetHostMissing({ CI: "true" }, () => ({ dir: "/opt/dotnet-host" }))).toBe(false);
  });
});

describe("tinyproxyMissing", () => {
  it("skips outside CI, printing why and the command that installs it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(tinyproxyMissing({}, () => undefined)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skipping the proxy tests: tinyproxy is not installed\. To run them: sudo apt-get install tinyproxy/));
    warn.mockRestore();
  });

  it("fails in CI, with the same command", () => {
    expect(() => tinyproxyMissing({ CI: "true" }, () => undefined)).toThrow(/CI=true does not allow skipping the proxy tests\. Install it: sudo apt-get install tinyproxy/);
  });

  it("runs the tests where tinyproxy is", () => {
    expect(tinyproxyMissing({ CI: "true" }, () => "/usr/bin/tinyproxy")).toBe(false);
  });
});

describe("chromiumMissing", () => {
  it("skips outside CI, printing why and the command that installs it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(chromiumMissing({}, () => undefined)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skipping the rendered-docs test: chromium is not installed\. To run it: sudo apt-get install chromium/));
    warn.mockRestore();
  });

  it("fails in CI, with the same command", () => {
    expect(() => chromiumMissing({ CI: "true" }, () => undefined)).toThrow(/CI=true does not allow skipping the rendered-docs test\. Install it: sudo apt-get install chromium/);
  });

  it("runs the test where chromium is", () => {
    expect(chromiumMissing({ CI: "true" }, () => "/usr/bin/chromium")).toBe(false);
  });
});

describe("arm64EmulationMissing", () => {
  const missing = () => ({ missing: "the kernel has no binfmt_misc entry for AArch64 (/proc/sys/fs/binfmt_misc/qemu-aarch64)" });

  it("skips outside CI, printing why and how to set emulation up", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(arm64EmulationMissing({}, missing)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skipping the linux-arm64 test: the kernel has no binfmt_misc entry .* To run it: as root: apt-get install qemu-user-static binfmt-support libc6-arm64-cross/));
    warn.mockRestore();
  });

  it("fails in CI, with the same setup", () => {
    expect(() => arm64EmulationMissing({ CI: "true" }, missing)).toThrow(/CI=true does not allow skipping the linux-arm64 test\. Set it up: as root: apt-get install qemu-user-static .* update-binfmts --enable qemu-aarch64/);
  });

  it("runs the test where arm64 programs run", () => {
    expect(arm64EmulationMissing({ CI: "true" }, () => ({ env: { QEMU_LD_PREFIX: "/usr/aarch64-linux-gnu" } }))).toBe(false);
  });
});

describe("wineMissing", () => {
  it("skips outside CI, printing why and the command that installs it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(wineMissing({}, () => undefined)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/skipping the Wine tests: Wine is not installed\. To run them: sudo apt-get install wine64/));
    warn.mockRestore();
  });

  it("fails in CI, with the same command", () => {
    expect(() => wineMissing({ CI: "true" }, () => undefined)).toThrow(/CI=true does not allow skipping the Wine tests\. Install it: sudo apt-get install wine64/);
  });

  it("runs the tests where Wine is", () => {
    expect(wineMissing({ CI: "true" }, () => "/usr/bin/wine")).toBe(false);
  });
});
