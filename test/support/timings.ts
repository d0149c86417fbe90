// Wall-clock timings an end-to-end file prints as it goes and at its end; never asserted (speed is measured by bench/).
export class Timings {
  private readonly started = Date.now();
  private readonly lines: string[] = [];

  constructor(private readonly tag: string) {}

  /** Runs `fn` and records how long it took under `what`. */
  readonly timed = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      const line = `${what}: ${seconds(t0)}`;
      this.lines.push(line);
      console.log(`[${this.tag}] ${line}`);
    }
  };

  /** Prints every timing recorded, and the whole file's. */
  report(): void {
    this.lines.push(`whole file: ${seconds(this.started)}`);
    console.log(`[${this.tag}] timings:\n  ${this.lines.join("\n  ")}`);
  }
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
