// Connects to a Terraform provider that someone else started in debug mode, and leaves its process alone.
import { existsSync } from "node:fs";
import { LaunchError } from "./errors.js";
import { MAX_PROVIDER_MESSAGE_ENV, maxProviderMessageBytes } from "./settings.js";
import type { ExitInfo } from "./launch.js";
import { Channel } from "../wire/rpc.js";

/** Where a provider serving in debug mode listens (go-plugin's ReattachConfig). */
export interface ReattachTarget {
  protocolVersion: 5 | 6;
  network: "unix" | "tcp";
  /** The socket path or host:port. */
  addr: string;
  /** The provider's pid, 0 when not given. */
  pid: number;
}

const CONNECT_TIMEOUT_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else, which is fine for connecting to it.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A provider we talk to but do not own: closing it closes our connection only. Debug servers run without the
 * handshake's AutoMTLS (no PLUGIN_CLIENT_CERT reaches them, and the reattach line carries no certificate), so the
 * connection is plain gRPC over the socket, as Terraform's and go-plugin's reattach clients make it.
 */
export class AttachedProvider {
  /** We never see the process exit: it is not our child. */
  readonly exited: Promise<ExitInfo> = new Promise<ExitInfo>(() => undefined);
  readonly exit: ExitInfo | undefined = undefined;

  constructor(
    /** How messages name it: the reattach key, e.g. registry.terraform.io/hashicorp/random. */
    readonly path: string,
    readonly pid: number,
    readonly target: ReattachTarget,
    readonly channel: Channel,
  ) {}

  get protocolVersion(): 5 | 6 {
    return this.target.protocolVersion;
  }

  panicText(): string | undefined {
    return undefined;
  }

  /** Its output goes to the terminal it was started from, not to us. */
  recentStderr(): string {
    return "";
  }

  /** Why a call found it unreachable, in words the person debugging can act on. */
  unreachable(): string {
    const gone = this.pid > 0 && !alive(this.pid) ? ` Process ${this.pid} is no longer running.` : "";
    return `the reattached provider ${this.path} (${this.target.network} ${this.target.addr}) cannot be reached.${gone} Start it again in debug mode and set the reattach variable to the line it prints`;
  }

  /** Closes our connection; the provider keeps running for its debugger and any other client. */
  shutdown(): Promise<void> {
    this.channel.close();
    return Promise.resolve();
  }
}

/** Connects to the provider and waits until the connection is up, so that a stale reattach line fails here, clearly. */
export async function attachProvider(name: string, target: ReattachTarget, timeoutMs = CONNECT_TIMEOUT_MS): Promise<AttachedProvider> {
  const where = `${target.network} ${target.addr}`;
  if (target.pid > 0 && !alive(target.pid)) {
    throw new LaunchError(`the reattach configuration for ${name} names process ${target.pid}, which is not running; start the provider in debug mode again and use the line it prints`);
  }
  if (target.network === "unix" && !existsSync(target.addr)) {
    throw new LaunchError(`the reattach configuration for ${name} names the socket ${target.addr}, which does not exist; start the provider in debug mode again and use the line it prints`);
  }
  const maxReceive = { bytes: maxProviderMessageBytes(), setting: MAX_PROVIDER_MESSAGE_ENV };
  const channel = new Channel(target.network === "unix" ? `unix://${target.addr}` : target.addr, { maxReceive });
  try {
    await channel.waitForReady(timeoutMs);
  } catch (e) {
    channel.close();
    throw new LaunchError(`could not connect to the reattached provider ${name} at ${where} within ${timeoutMs} ms: ${(e as Error).message}`, { cause: e });
  }
  return new AttachedProvider(name, target.pid, target, channel);
}
