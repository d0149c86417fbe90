// Python virtualenvs for tests: a cached base with pulumi==PULUMI_PYTHON_SDK (and what generated SDKs need to install) from
// PyPI, made once, and fresh virtualenvs of a run that see it through a .pth file, so the cache stays clean.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { scratch } from "./lifecycle.js";
import { execAsync } from "./processes.js";

/**
 * The `pulumi` PyPI release of the Python programs and SDKs in the tests. Not PULUMI_SDK: the SDKs the project's own
 * Python host generates come from the v3.276 generator (the CLI's modules), whose pyproject.toml requires
 * `pulumi>=3.269.0,<4.0.0` (generated resources call `pulumi.runtime.exists_resource`, new in 3.269.0), so pip
 * cannot install them beside pulumi==3.259.0. 3.272.0 is the newest release PyPI serves here.
 */
export const PULUMI_PYTHON_SDK = "3.272.0";

/**
 * A virtualenv with `pulumi==PULUMI_PYTHON_SDK` from PyPI and what generated SDKs need to install (parver, semver, setuptools),
 * made once into ~/.cache/pulumi-tf-bridge-ts/python-sdk/<version>/venv (built beside it and renamed into place).
 */
export async function pythonBase(): Promise<string> {
  const root = join(homedir(), ".cache/pulumi-tf-bridge-ts/python-sdk", PULUMI_PYTHON_SDK);
  const venv = join(root, "venv");
  if (existsSync(join(venv, ".complete"))) return venv;
  mkdirSync(root, { recursive: true });
  const tmp = mkdtempSync(join(root, ".tmp-venv-"));
  try {
    await execAsync("python3", ["-m", "venv", tmp]);
    await execAsync(join(tmp, "bin", "python"), ["-m", "pip", "install", "-q", "--disable-pip-version-check", `pulumi==${PULUMI_PYTHON_SDK}`, "parver>=0.2.1", "semver>=2.8.1", "setuptools>=61", "wheel"]);
    writeFileSync(join(tmp, ".complete"), "");
    rmSync(venv, { recursive: true, force: true });
    renameSync(tmp, venv);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return venv;
}

/** The site-packages folder of a Python interpreter. */
export async function sitePackages(python: string): Promise<string> {
  return (await execAsync(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])).stdout.trim();
}

/**
 * A fresh virtualenv of this run (in `dir`, else a scratch folder) whose site-packages sees the cached base's through
 * a .pth file: SDKs are really installed (pip, non-editable) into it. Returns its python.
 */
export async function pythonVenv(base: string, dir = scratch("tfbridge-pyvenv-")): Promise<string> {
  const venv = join(dir, "venv");
  await execAsync("python3", ["-m", "venv", "--without-pip", venv]);
  const python = join(venv, "bin", "python");
  writeFileSync(join(await sitePackages(python), "_pulumi_base.pth"), `${await sitePackages(join(base, "bin", "python"))}\n`);
  return python;
}
