// Fetches a registry provider's repository at its release tag with git, into a cache beside the provider cache.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Overrides where repositories are cloned from (mirrors, tests); `{namespace}` and `{type}` are filled in. */
export const DOCS_REPO_URL_ENV = "TF_BRIDGE_DOCS_REPO_URL";
const DEFAULT_URL = "https://github.com/{namespace}/terraform-provider-{type}";
/**
 * A clone that takes longer than this is given up: a host that drops packets costs a bounded wait, and the largest
 * providers' repositories (AWS) still fit.
 */
const CLONE_TIMEOUT_MS = 300_000;

export interface UpstreamRepo {
  host: string;
  namespace: string;
  type: string;
  version: string;
}

export function upstreamUrl(repo: Pick<UpstreamRepo, "namespace" | "type">, env: NodeJS.ProcessEnv = process.env): string {
  const template = env[DOCS_REPO_URL_ENV] || DEFAULT_URL;
  return template.replace(/\{namespace\}/g, repo.namespace).replace(/\{type\}/g, repo.type);
}

/**
 * Where a fetched repository is kept: `<cache root>/.upstream-docs/<host>/<namespace>/<type>/<version>`. The leading
 * dot keeps it apart from the provider cache's `<host>/` folders, which the Go implementation shares.
 */
export function upstreamCacheDir(cacheRoot: string, repo: UpstreamRepo): string {
  return join(cacheRoot, ".upstream-docs", repo.host, repo.namespace, repo.type, repo.version);
}

export type FetchResult = { ok: true; dir: string; fetched: boolean } | { ok: false; reason: string };

interface GitResult {
  code: number | null;
  stderr: string;
  error?: NodeJS.ErrnoException;
}

function git(args: string[], timeoutMs: number): Promise<GitResult> {
  return new Promise((resolve) => {
    // No prompt for credentials: a missing repository on GitHub answers with an authentication challenge.
    const child = spawn("git", args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(gave up after ${timeoutMs / 1000} s)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr, error });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** The last meaningful line git printed, for a warning. */
function gitReason(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("Cloning into"));
  return lines.slice(-2).join(" ") || "git failed without a message";
}

/** A clone cut off by a killed process leaves its staging folder; one older than any clone can take is removed. */
async function removeStaleStages(target: string): Promise<void> {
  const prefix = `${basename(target)}.stage-`;
  const entries = await readdir(dirname(target)).catch(() => [] as string[]);
  for (const name of entries.filter((n) => n.startsWith(prefix))) {
    const path = join(dirname(target), name);
    const age = await stat(path).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > 2 * CLONE_TIMEOUT_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The repository at tag `v<version>`, else `<version>`: from the cache, or shallow-cloned into it (only the docs
 * folders are kept). Never throws: a missing git, an unreachable host or an unknown tag is a reason for a warning.
 */
export async function fetchUpstreamDocs(
  repo: UpstreamRepo,
  options: { cacheRoot: string; status?: (m: string) => void; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<FetchResult> {
  const target = upstreamCacheDir(options.cacheRoot, repo);
  if (existsSync(join(target, ".source"))) return { ok: true, dir: target, fetched: false };
  const url = upstreamUrl(repo, options.env);
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch (e) {
    return { ok: false, reason: `cannot create ${dirname(target)}: ${(e as Error).message}` };
  }
  await removeStaleStages(target);
  const stage = await mkdtemp(`${target}.stage-`);
  try {
    const tags = [`v${repo.version}`, repo.version];
    const tried: string[] = [];
    for (const tag of tags) {
      options.status?.(`Cloning ${url} at ${tag} for its docs…`);
      const clone = join(stage, "clone");
      await rm(clone, { recursive: true, force: true });
      const r = await git(["-c", "advice.detachedHead=false", "clone", "--quiet", "--depth", "1", "--no-tags", "--single-branch", "--branch", tag, url, clone], options.timeoutMs ?? CLONE_TIMEOUT_MS);
      if (r.error !== undefined) {
        return { ok: false, reason: r.error.code === "ENOENT" ? "git is not installed (not found on PATH)" : `cannot run git: ${r.error.message}` };
      }
      if (r.code === 0) {
        // Only the docs folders are kept: a provider's sources can be far larger than its pages.
        const kept = join(stage, "kept");
        await mkdir(join(kept, "website"), { recursive: true });
        if (existsSync(join(clone, "docs"))) await rename(join(clone, "docs"), join(kept, "docs"));
        if (existsSync(join(clone, "website", "docs"))) await rename(join(clone, "website", "docs"), join(kept, "website", "docs"));
        await writeFile(join(kept, ".source"), JSON.stringify({ url, tag }) + "\n");
        try {
          await rename(kept, target);
        } catch (e) {
          // Another process cached the same version first; its copy is as good as ours.
          if (!existsSync(join(target, ".source"))) throw e;
        }
        return { ok: true, dir: target, fetched: true };
      }
      tried.push(tag);
      // Only a missing tag is worth another try; anything else (no such repository, no network) fails the same way.
      if (!/not found in upstream|Remote branch .* not found|couldn't find remote ref/i.test(r.stderr)) {
        return { ok: false, reason: `git clone ${url} (tag ${tag}) failed: ${gitReason(r.stderr)}` };
      }
    }
    return { ok: false, reason: `${url} has no tag ${tried.join(" or ")}` };
  } catch (e) {
    return { ok: false, reason: `cannot cache the repository in ${target}: ${(e as Error).message}` };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
