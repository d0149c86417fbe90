// The command line the engine starts a resource plugin with: `[--logtostderr] [-v=N] [--tracing URL] [ENGINE_ADDRESS]`.

export interface PluginArgs {
  logToStderr: boolean;
  /** glog verbosity; 0 when not given. */
  verbosity: number;
  /** Tracing endpoint; accepted and not used (we emit no traces). */
  tracing?: string;
  /** host:port of pulumirpc.Engine; absent when started by hand or attached later. */
  engineAddress?: string;
  /** Arguments we don't know: reported as a warning, never fatal, so a newer engine can still start us. */
  ignored: string[];
}

/** Parses the engine's arguments; tolerant, because failing here would leave the engine with no port and no message. */
export function parsePluginArgs(argv: readonly string[]): PluginArgs {
  const out: PluginArgs = { logToStderr: false, verbosity: 0, ignored: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--logtostderr" || arg === "-logtostderr") {
      out.logToStderr = true;
      continue;
    }
    const v = /^--?v=(\d+)$/.exec(arg);
    if (v) {
      out.verbosity = Number(v[1]);
      continue;
    }
    if (arg === "-v" || arg === "--v") {
      const n = argv[i + 1];
      if (n !== undefined && /^\d+$/.test(n)) {
        out.verbosity = Number(n);
        i++;
        continue;
      }
    }
    const tracing = /^--?tracing(?:=(.*))?$/.exec(arg);
    if (tracing) {
      out.tracing = tracing[1] ?? argv[++i];
      continue;
    }
    if (!arg.startsWith("-") && out.engineAddress === undefined) {
      out.engineAddress = arg;
      continue;
    }
    out.ignored.push(arg);
  }
  return out;
}
