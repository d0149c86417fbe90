// Starts the real httpapi service (`terraform-provider-httpapi serve`, test/peers/httpapi) on a free loopback port and
// steers it: fault injection, item listing, request counts. Not a fake: the same service the provider talks to.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { peerPath } from "./peers.js";

export interface HttpApiItem {
  id: string;
  name: string;
  size?: number;
  description?: string;
  tags?: Record<string, string>;
  settings?: { mode: string; enabled: boolean; retries: number };
  rules?: { port: number; protocol: string; cidr?: string }[];
  etag: string;
  revision: number;
}

/** Fault switches of the service: true = every matching request until cleared, a number = the next N requests. */
export interface HttpApiFaults {
  fail_after_create?: boolean | number;
  fail_create?: boolean | number;
  fail_update?: boolean | number;
  fail_after_update?: boolean | number;
  fail_read?: boolean | number;
  fail_delete?: boolean | number;
  delay_ms?: number;
}

export interface HttpApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  token: string;
  pid: number;
  process: ChildProcess;
  setFaults(f: HttpApiFaults): Promise<void>;
  clearFaults(): Promise<void>;
  items(): Promise<HttpApiItem[]>;
  /** Changes an item behind the provider's back (PUT replaces every field but the name). */
  putItem(id: string, item: Omit<HttpApiItem, "id" | "etag" | "revision"> & Partial<HttpApiItem>): Promise<HttpApiItem>;
  stats(): Promise<Record<string, number>>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the service; it exits by itself if this process dies (it watches its stdin pipe). */
export async function startHttpApi(options: { token?: string } = {}): Promise<HttpApiServer> {
  const token = options.token ?? `tok-${Math.random().toString(36).slice(2)}`;
  // No PULUMI_* variables: leftover-process scans of Pulumi sandboxes must not count this process.
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("PULUMI_")) env[k] = v;
  const child = spawn(peerPath("httpapi"), ["serve", "-listen", "127.0.0.1:0", "-token", token, "-watch-stdin"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`httpapi printed no address within 10 s; stderr:\n${stderr}`)), 10_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      const m = /^httpapi listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]!);
      else reject(new Error(`unexpected first line from httpapi: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`httpapi exited (${code}) before listening; stderr:\n${stderr}`)));
  });
  const call = async (method: string, path: string, body?: unknown, auth = false): Promise<unknown> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (auth) headers["authorization"] = `Bearer ${token}`;
    const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}: ${text}`);
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  };
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    url,
    token,
    pid: child.pid!,
    process: child,
    setFaults: async (f) => void (await call("POST", "/_faults", f)),
    clearFaults: async () => void (await call("DELETE", "/_faults")),
    items: async () => (await call("GET", "/items", undefined, true)) as HttpApiItem[],
    putItem: async (id, item) => {
      const { name, size, description, tags, settings, rules } = item;
      return (await call("PUT", `/items/${encodeURIComponent(id)}`, { name, size, description, tags, settings, rules }, true)) as HttpApiItem;
    },
    stats: async () => (await call("GET", "/_stats")) as Record<string, number>,
    reset: async () => void (await call("POST", "/_reset")),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
