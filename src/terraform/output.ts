// Reads what a provider process writes (stdout, stderr, go-plugin's stdio stream) as lines of bounded length, and keeps
// its last stderr lines within a bounded total, so no output, however long or endless, can exhaust our memory.
import { StringDecoder } from "node:string_decoder";

/**
 * The most of one line that is kept; the rest of the line is counted, not stored. Real providers' log lines are
 * hundreds of bytes, hclog JSON with fields a few KiB; a panic's lines are short.
 */
export const MAX_LINE_BYTES = 8 * 1024;
/** The handshake line carries a base64 certificate (about 1 KiB); anything longer on stdout is not a handshake. */
export const MAX_STDOUT_LINE_BYTES = 16 * 1024;
/** How many of the last stderr lines are kept, and the most they may hold together (a Go panic's stack fits). */
export const STDERR_TAIL_LINES = 400;
export const STDERR_TAIL_BYTES = 64 * 1024;
/** The most of stderr quoted in one error message: the last lines that fit, and always at least the last one. */
export const STDERR_QUOTE_CHARS = 8 * 1024;

/** Splits a byte stream into lines (LF or CRLF), each cut to `maxBytes` with a marker of how many bytes were left out. */
export class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private text = "";
  private keptBytes = 0;
  private droppedBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline < 0 ? chunk.length : newline));
      if (newline < 0) return;
      this.emit();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.keptBytes > 0 || this.droppedBytes > 0) this.emit();
  }

  private take(piece: Buffer): void {
    const room = Math.max(0, this.maxBytes - this.keptBytes);
    const kept = piece.length <= room ? piece : piece.subarray(0, room);
    if (kept.length > 0) {
      this.text += this.decoder.write(kept);
      this.keptBytes += kept.length;
    }
    this.droppedBytes += piece.length - kept.length;
  }

  private emit(): void {
    // A multi-byte character cut at the limit is dropped rather than shown as a replacement character.
    let line = this.droppedBytes > 0 ? this.text : this.text + this.decoder.end();
    if (this.droppedBytes > 0) this.decoder.end();
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (this.droppedBytes > 0) {
      // The bytes of a character the cut fell inside are not shown either.
      const hidden = Math.max(this.droppedBytes, this.droppedBytes + this.keptBytes - Buffer.byteLength(this.text, "utf8"));
      line += ` … [${hidden} more bytes of this line not shown]`;
    }
    this.text = "";
    this.keptBytes = 0;
    this.droppedBytes = 0;
    this.onLine(line);
  }
}

/**
 * The last lines of a stream, at most `maxLines` of them and `maxChars` characters together. A ring, not an array
 * shifted at every line: a chatty provider (Docker's writes each HTTP exchange with its engine at DEBUG, whatever level
 * is asked) passes thousands of lines through it, and shifting a 400-line array cost 4% of the plugin's CPU over `up`.
 */
export class LineTail {
  private readonly ring: string[] = [];
  /** Index in `ring` of the oldest line kept. */
  private head = 0;
  private count = 0;
  private chars = 0;

  constructor(
    private readonly maxLines = STDERR_TAIL_LINES,
    private readonly maxChars = STDERR_TAIL_BYTES,
  ) {}

  push(line: string): void {
    if (this.count === this.maxLines) this.dropOldest();
    this.ring[(this.head + this.count) % this.maxLines] = line;
    this.count++;
    this.chars += line.length;
    while (this.chars > this.maxChars && this.count > 1) this.dropOldest();
  }

  private dropOldest(): void {
    this.chars -= this.ring[this.head]!.length;
    this.ring[this.head] = "";
    this.head = (this.head + 1) % this.maxLines;
    this.count--;
  }

  /** The i-th line kept, 0 the oldest. */
  private at(i: number): string {
    return this.ring[(this.head + i) % this.maxLines]!;
  }

  /** Every line kept, oldest first. */
  all(): readonly string[] {
    return Array.from({ length: this.count }, (_, i) => this.at(i));
  }

  some(test: (line: string) => boolean): boolean {
    for (let i = 0; i < this.count; i++) if (test(this.at(i))) return true;
    return false;
  }

  /** The last lines, at most `maxLines` and `maxChars` together (the last line always, however long), joined. */
  last(maxLines: number, maxChars = STDERR_QUOTE_CHARS): string {
    const out: string[] = [];
    let chars = 0;
    for (let i = this.count - 1; i >= 0 && out.length < maxLines; i--) {
      const line = this.at(i);
      if (out.length > 0 && chars + line.length + 1 > maxChars) break;
      out.unshift(line);
      chars += line.length + 1;
    }
    return out.join("\n");
  }
}
