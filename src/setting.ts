// Reading one numeric setting from the environment, for every layer: unset or empty gives the default, and a value that
// does not parse is refused with a message naming the variable, the value, what it must be and the default.

export interface Setting {
  name: string;
  fallback: number;
  /** The default as a user would write it ("300", "268435456, 256 MiB"). */
  shown: string | number;
  /** What a value must be ("a number of seconds above 0"). */
  what: string;
  /** The value, or undefined when `raw` (trimmed, not empty) is not one. */
  parse: (raw: string) => number | undefined;
  /** How the message tells the user to fix it: "set it to <setTo> or unset it" (default "one"). */
  setTo?: string;
}

/** The setting's value; a value that does not parse throws what `refuse` makes of the message (each layer its own error). */
export function readSetting(env: NodeJS.ProcessEnv, s: Setting, refuse: (message: string) => Error): number {
  const raw = env[s.name]?.trim();
  if (raw === undefined || raw === "") return s.fallback;
  const value = s.parse(raw);
  if (value === undefined) throw refuse(`${s.name}=${JSON.stringify(env[s.name])} is not ${s.what}; set it to ${s.setTo ?? "one"} or unset it (default ${s.shown})`);
  return value;
}

/**
 * The longest a Node.js timer waits: 2^31 - 1 ms, about 24.8 days. A longer delay does not wait longer: Node warns
 * (TimeoutOverflowWarning) and fires after 1 ms, so a deadline meant as "never" would expire at once.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Seconds (fractions allowed) above 0, as milliseconds for a timer: at least 1, and at most MAX_TIMER_MS, so that a
 * huge value (3000000, meant as "never") waits 24.8 days instead of overflowing the timer and failing at once.
 */
export const secondsAsMs = (raw: string): number | undefined =>
  /^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0 ? Math.min(MAX_TIMER_MS, Math.max(1, Math.round(Number(raw) * 1000))) : undefined;

/**
 * What to do about a wait of `ms` that ran out, for the message that says so: raise the setting, unless it is already
 * as long as a timer can wait, where raising it changes nothing.
 */
export function raiseWaitAdvice(name: string, ms: number): string {
  if (ms >= MAX_TIMER_MS) return `${name} is already at the longest wait there is (${ms / 1000} s, 24.8 days; a larger value waits no longer)`;
  return `raise ${name} (seconds, now ${ms / 1000})`;
}

/** A whole number above 0. */
export const positiveWhole = (raw: string): number | undefined => (/^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined);
