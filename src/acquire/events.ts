// The progress of one provider acquisition as a single object of optional callbacks, so a caller (the server, a
// test, a CLI) subscribes to the kinds it cares about and every layer passes one value down.
import { redactText } from "./redact.js";

/** Every callback is optional; an absent one means nobody listens for that kind. */
export interface AcquireEvents {
  /** Ephemeral progress: resolving, download progress, unpacking, waiting for a lock, retries. */
  status?: (message: string) => void;
  /** Lasting notes: offline fallback, unsigned packages, ignored configuration, skipped versions. */
  warn?: (message: string) => void;
  /** Notes only worth a debug log line, such as a value that pins no lock hash. */
  debug?: (message: string) => void;
}

/** The same events with a no-op for each absent callback, so emitters need no `?.` and cannot forget one. */
export type AcquireEventSink = Required<AcquireEvents>;

const ignore = (): void => undefined;

/** A line on its way out, with any password in a URL it quotes masked. */
const redacted = (emit: ((message: string) => void) | undefined): ((message: string) => void) => (emit === undefined ? ignore : (m) => emit(redactText(m)));

export function eventSink(events: AcquireEvents = {}): AcquireEventSink {
  return { status: redacted(events.status), warn: redacted(events.warn), debug: redacted(events.debug) };
}

