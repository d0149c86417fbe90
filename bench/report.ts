// One summary line per benchmark scenario, collected by bench/run.ts into the combined table.

export interface BenchResult {
  scenario: string;
  /** The bridge's figure. */
  bridge: number;
  /** The same work done straight against the Terraform provider (the physical limit), when there is one. */
  direct?: number;
  /** The same work done by the reference bridge (Pulumi's Go pulumi-terraform-provider), when measured. */
  reference?: number;
  unit: string;
  /** The target, in words. */
  target?: string;
  /** [min, max] over the runs behind each median, where the work was repeated (runs, or rounds of operations). */
  bridgeRange?: [number, number];
  referenceRange?: [number, number];
  directRange?: [number, number];
}

export const REPORT_PREFIX = "BENCH-RESULT ";

export function report(r: BenchResult): void {
  console.log(REPORT_PREFIX + JSON.stringify(r));
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function range(xs: readonly number[]): [number, number] | undefined {
  return xs.length > 1 ? [Math.min(...xs), Math.max(...xs)] : undefined;
}
