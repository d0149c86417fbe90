// The secrets handed to a Terraform provider, remembered by value, so that what the provider says back never repeats them.
import { BigNum } from "./cty/index.js";
import type { SecretSink } from "./types.js";

/** What a message shows in place of a secret value. */
export const SECRET_MARK = "[secret]";

/** Shorter secrets are replaced where they are a whole value, not inside other text, which they would shred. */
const MIN_SUBSTRING_SECRET = 4;

/**
 * Values the program marked secret and values of sensitive attributes reach the provider in the clear, and providers
 * quote values in diagnostics (`value must be one of: […], got: "…"`), in log lines and in crash output. Every secret
 * the conversion unwraps is noted here (the provider's `secretSink`), and what the provider says is scrubbed with it.
 */
export class KnownSecrets implements SecretSink {
  protected readonly strings = new Set<string>();
  protected readonly numbers = new Set<number>();

  /** Remembers the strings and numbers inside a secret value (plain data, or wrappers carrying it in `value`). */
  note(v: unknown): void {
    if (typeof v === "string") {
      if (v !== "") this.strings.add(v);
    } else if (typeof v === "number") {
      this.numbers.add(v);
    } else if (v instanceof BigNum) {
      this.strings.add(v.text);
    } else if (Array.isArray(v)) {
      for (const x of v) this.note(x);
    } else if (typeof v === "object" && v !== null) {
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto === null || proto === Object.prototype) for (const x of Object.values(v)) this.note(x);
      else if ("value" in v) this.note((v as { value: unknown }).value);
    }
  }

  /** `s` with every remembered secret string in it replaced by `mark`. */
  scrubString(s: string, mark = SECRET_MARK): string {
    if (this.strings.size === 0) return s;
    if (this.strings.has(s)) return mark;
    let out = s;
    for (const secret of this.strings) if (secret.length >= MIN_SUBSTRING_SECRET && out.includes(secret)) out = out.split(secret).join(mark);
    return out;
  }

  /** Whether scrubData shows `v` as `mark` whole, whatever it holds (a subclass's own wrappers of hidden values). */
  protected hidden(_v: unknown): boolean {
    return false;
  }

  /** Plain data (a log line's fields) with every remembered secret replaced by `mark`, in strings and whole numbers. */
  scrubData(v: unknown, mark = SECRET_MARK): unknown {
    if (this.hidden(v)) return mark;
    if (typeof v === "string") return this.scrubString(v, mark);
    if (typeof v === "number") return this.numbers.has(v) ? mark : v;
    if (Array.isArray(v)) return v.map((x) => this.scrubData(x, mark));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[this.scrubString(k, mark)] = this.scrubData(x, mark);
      return out;
    }
    return v;
  }
}
